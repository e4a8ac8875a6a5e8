/**
 * The one schema of every setting. Each entry parses the raw environment string or explains why it cannot.
 * README's configuration table is written from this list; add a setting here and nowhere else.
 */
export type Parsed<T> = { ok: true; value: T } | { ok: false; reason: string };

export interface Setting<T> {
  readonly description: string;
  /** Value when the variable is unset or empty; `undefined` means the setting stays absent. */
  readonly default?: T;
  readonly parse: (raw: string) => Parsed<T>;
  /** Secrets are never printed, not even when they are invalid. */
  readonly secret?: boolean;
}

const ok = <T>(value: T): Parsed<T> => ({ ok: true, value });
const bad = (reason: string): Parsed<never> => ({ ok: false, reason });

export const str = (): Setting<string>['parse'] => (raw) => ok(raw);

export const int =
  (min: number, max: number): Setting<number>['parse'] =>
  (raw) => {
    if (!/^\d+$/.test(raw)) return bad(`must be a whole number from ${min} to ${max}`);
    const n = Number(raw);
    return n >= min && n <= max ? ok(n) : bad(`must be a whole number from ${min} to ${max}`);
  };

export const bool = (): Setting<boolean>['parse'] => (raw) => {
  const v = raw.toLowerCase();
  if (['true', '1', 'yes', 'on'].includes(v)) return ok(true);
  if (['false', '0', 'no', 'off'].includes(v)) return ok(false);
  return bad('must be true or false');
};

export const oneOf =
  <T extends string>(...values: T[]): Setting<T>['parse'] =>
  (raw) =>
    (values as string[]).includes(raw) ? ok(raw as T) : bad(`must be one of ${values.join(', ')}`);

export const url =
  (...protocols: string[]): Setting<string>['parse'] =>
  (raw) => {
    let u: URL;
    try {
      u = new URL(raw);
    } catch {
      return bad(`must be a URL (${protocols.join(', ')})`);
    }
    const scheme = u.protocol.replace(/:$/, '');
    return protocols.includes(scheme)
      ? ok(raw)
      : bad(`must use ${protocols.map((p) => `${p}://`).join(' or ')}`);
  };

export const hostPortList = (): Setting<string[]>['parse'] => (raw) => {
  const items = raw
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (items.length === 0) return bad('must list at least one host:port');
  const wrong = items.filter((i) => !/^[A-Za-z0-9.-]+:\d{1,5}$|^\[[0-9A-Fa-f:]+\]:\d{1,5}$/.test(i));
  return wrong.length === 0
    ? ok(items)
    : bad(`must be host:port items separated by commas (bad: ${wrong.join(', ')})`);
};

const IPV4 = /^(25[0-5]|2[0-4]\d|1?\d?\d)(\.(25[0-5]|2[0-4]\d|1?\d?\d)){3}$/;

export const cidrList = (): Setting<string[]>['parse'] => (raw) => {
  const items = raw
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const wrong = items.filter((item) => {
    const [addr = '', len, extra] = item.split('/');
    if (extra !== undefined || len === undefined || !/^\d{1,3}$/.test(len)) return true;
    const isV4 = IPV4.test(addr);
    const isV6 = !isV4 && addr.includes(':') && /^[0-9A-Fa-f:.]+$/.test(addr);
    return !(isV4 || isV6) || Number(len) > (isV4 ? 32 : 128);
  });
  return wrong.length === 0
    ? ok(items)
    : bad(`must be CIDR ranges separated by commas (bad: ${wrong.join(', ')})`);
};

export const ipList = (): Setting<string[]>['parse'] => (raw) => {
  const items = raw
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  // ip, ip:port, v6, or [v6]:port
  const wrong = items.filter(
    (i) =>
      !IPV4.test(i.replace(/:\d{1,5}$/, '')) &&
      !/^[0-9A-Fa-f:]+$/.test(i) &&
      !/^\[[0-9A-Fa-f:]+\](:\d{1,5})?$/.test(i),
  );
  return wrong.length === 0
    ? ok(items)
    : bad(`must be IP addresses separated by commas (bad: ${wrong.join(', ')})`);
};

export const matching =
  (pattern: RegExp, reason: string): Setting<string>['parse'] =>
  (raw) =>
    pattern.test(raw) ? ok(raw) : bad(reason);

export const plan = (): Setting<string>['parse'] => (raw) =>
  /^[A-Z][A-Z0-9_]{0,31}$/.test(raw) ? ok(raw) : bad('must be an upper-case plan name such as FREE');

export const settings = {
  PORT: { description: 'HTTP port of the gateway', default: 8080, parse: int(0, 65535) },
  HOST: { description: 'address the gateway listens on', default: '127.0.0.1', parse: str() },
  DATA_DIR: {
    description: 'directory of the embedded profile (SQLite, blobs, outbox)',
    default: './data',
    parse: str(),
  },
  PUBLIC_URL: {
    description: 'external base URL used in links (activation mails, capture URLs)',
    default: 'http://localhost:8080',
    parse: url('http', 'https'),
  },
  LOG_LEVEL: {
    description: 'pino log level',
    default: 'info',
    parse: oneOf('fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'),
  },
  SMTP_URL: {
    description: 'SMTP server for mail; unset: mail goes to DATA_DIR/outbox',
    parse: url('smtp', 'smtps'),
    secret: true,
  },
  ADMIN_LOGIN: { description: 'login of the admin created at start-up', parse: str() },
  ADMIN_EMAIL: { description: 'e-mail of the admin created at start-up', parse: str() },
  ADMIN_PASSWORD: { description: 'password of the admin created at start-up', parse: str(), secret: true },
  OUTBOUND_ALLOW_CIDRS: {
    description: 'ranges outbound connections may reach despite the SSRF guard',
    default: [] as string[],
    parse: cidrList(),
  },
  REQUIRE_HTTPS: { description: 'refuse plain HTTP (default: true unless HOST is loopback)', parse: bool() },
  TLS_CERT_FILE: { description: 'PEM certificate; with TLS_KEY_FILE the gateway serves HTTPS', parse: str() },
  TLS_KEY_FILE: { description: 'PEM private key for TLS_CERT_FILE', parse: str(), secret: true },
  TRUST_PROXY: {
    description: 'proxy addresses whose X-Forwarded-* headers are trusted',
    default: [] as string[],
    parse: ipList(),
  },
  CHROMIUM_PATH: {
    description: 'Chromium executable for screenshots',
    default: '/usr/bin/chromium',
    parse: str(),
  },
  DNS_SERVERS: {
    description:
      'resolvers for DNS checks and for outbound targets (ip, ip:port or [v6]:port, comma separated)',
    parse: ipList(),
  },
  GEOIP_CITY_DB: {
    description:
      'MaxMind GeoIP2/GeoLite2 City (or Country) .mmdb for IP geolocation; unset: the bundled DB-IP Lite City data',
    parse: str(),
  },
  GEOIP_ASN_DB: {
    description:
      'MaxMind GeoLite2-ASN (or GeoIP2-ISP) .mmdb for geolocation and reputation; unset: the bundled ASN tables',
    parse: str(),
  },
  FEEDS: {
    description:
      'IP reputation feeds: name=source or name:kind=source (kind tor|proxy|vpn|attacker|datacenter), source an http(s) URL or a file path',
    default: '',
    parse: str(),
  },
  FEEDS_REFRESH_MINUTES: {
    description: 'how often the worker refreshes the feeds',
    default: 360,
    parse: int(5, 10_080),
  },
  DEFAULT_PLAN: { description: 'plan of new accounts', default: 'FREE', parse: plan() },
  PLANS_FILE: { description: 'JSON file that overrides the plan table', parse: str() },
  DATABASE_URL: {
    description: 'cluster: PostgreSQL event store',
    parse: url('postgres', 'postgresql'),
    secret: true,
  },
  KAFKA_BROKERS: {
    description: 'cluster: Kafka bootstrap brokers (host:port, comma separated)',
    parse: hostPortList(),
  },
  KAFKA_TOPIC_PREFIX: {
    description: 'cluster: prefix of every Kafka topic name',
    default: 'toolgate.',
    parse: str(),
  },
  KAFKA_PARTITIONS: {
    description: 'cluster: partitions per topic, set when topics are created',
    default: 3,
    parse: int(1, 1000),
  },
  KAFKA_REPLICATION: {
    description: 'cluster: replication factor of created topics',
    default: 1,
    parse: int(1, 10),
  },
  REDIS_URL: {
    description: 'cluster: Redis for hot read models, limits and ephemeral state',
    parse: url('redis', 'rediss'),
    secret: true,
  },
  REDIS_PREFIX: {
    description: 'cluster: prefix of every Redis key, so deployments can share one Redis',
    default: 'toolgate:',
    parse: matching(/^[A-Za-z0-9_.:-]{1,64}$/, 'must be 1 to 64 characters of letters, digits, _ . : -'),
  },
  CLICKHOUSE_URL: {
    description: 'cluster: ClickHouse HTTP endpoint for analytics',
    parse: url('http', 'https'),
    secret: true,
  },
} satisfies Record<string, Setting<unknown>>;

export type SettingName = keyof typeof settings;

/** Setting whose presence selects the cluster profile; all four or none. */
export const CLUSTER_SETTINGS = ['DATABASE_URL', 'KAFKA_BROKERS', 'REDIS_URL', 'CLICKHOUSE_URL'] as const;
