import type { Config } from '../config/config.js';
import type { OutboundPolicy } from './outbound.js';
import { platformUserAgent } from './user-agent.js';

/** The outbound policy of an installation: OUTBOUND_ALLOW_CIDRS, DNS_SERVERS and a User-Agent naming it. */
export const outboundPolicyFromConfig = (config: Config, version: string): OutboundPolicy => ({
  allowCidrs: config.OUTBOUND_ALLOW_CIDRS,
  ...(config.DNS_SERVERS && config.DNS_SERVERS.length > 0 ? { dnsServers: config.DNS_SERVERS } : {}),
  userAgent: platformUserAgent(version, config.PUBLIC_URL),
});
