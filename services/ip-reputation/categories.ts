/**
 * Categories a report may carry (AbuseIPDB's, grouped into names that read without a lookup table) and the
 * ones the platform adds from its own signals.
 */
export const REPORT_CATEGORIES = [
  'SPAM',
  'BRUTE_FORCE',
  'MALWARE',
  'PHISHING',
  'DDOS',
  'PORT_SCAN',
  'HACKING',
  'WEB_ATTACK',
  'SQL_INJECTION',
  'BOTNET',
  'FRAUD',
  'BAD_BOT',
  'OPEN_PROXY',
  'VPN',
  'SPOOFING',
  'EXPLOITED_HOST',
] as const;

export type ReportCategory = (typeof REPORT_CATEGORIES)[number];

/** Added from feeds: TOR_EXIT (a Tor exit list), ANONYMIZER (proxy or VPN lists), KNOWN_ATTACKER (attack lists). */
export const SIGNAL_CATEGORIES = ['TOR_EXIT', 'ANONYMIZER', 'KNOWN_ATTACKER'] as const;

export const THREAT_CATEGORIES = [...REPORT_CATEGORIES, ...SIGNAL_CATEGORIES] as const;
export type ThreatCategory = (typeof THREAT_CATEGORIES)[number];
