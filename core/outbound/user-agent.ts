/** The User-Agent every outbound request carries, naming the platform and where to learn about it. */
export const platformUserAgent = (version: string, publicUrl: string): string =>
  `Toolgate/${version} (+${publicUrl})`;
