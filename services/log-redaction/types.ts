/** What the scanner recognises. The first seven are SPEC.md's; the rest are common in logs. */
export const DETECTION_TYPES = [
  'EMAIL',
  'SSN',
  'CREDIT_CARD',
  'PHONE',
  'API_KEY',
  'IP_ADDRESS',
  'JWT',
  'IBAN',
  'MAC_ADDRESS',
  'PASSWORD',
  'PRIVATE_KEY',
] as const;

export type DetectionType = (typeof DETECTION_TYPES)[number];

export type Confidence = 'HIGH' | 'MEDIUM' | 'LOW';

/** SPEC.md shows `[IP_REDACTED]` for IP_ADDRESS; every other type is named in full. */
export const REPLACEMENTS: Readonly<Record<DetectionType, string>> = {
  EMAIL: '[EMAIL_REDACTED]',
  SSN: '[SSN_REDACTED]',
  CREDIT_CARD: '[CREDIT_CARD_REDACTED]',
  PHONE: '[PHONE_REDACTED]',
  API_KEY: '[API_KEY_REDACTED]',
  IP_ADDRESS: '[IP_REDACTED]',
  JWT: '[JWT_REDACTED]',
  IBAN: '[IBAN_REDACTED]',
  MAC_ADDRESS: '[MAC_ADDRESS_REDACTED]',
  PASSWORD: '[PASSWORD_REDACTED]',
  PRIVATE_KEY: '[PRIVATE_KEY_REDACTED]',
};

/**
 * Tie-breakers when two findings cover the same span: the more specific rule wins. A checksum or a structure
 * beats a prefix, a prefix beats a field name, a field name beats entropy.
 */
export const RANK = {
  PRIVATE_KEY: 0,
  JWT: 1,
  KNOWN_KEY: 2,
  IBAN: 3,
  CREDIT_CARD: 4,
  EMAIL: 5,
  SSN: 6,
  IP_ADDRESS: 7,
  MAC_ADDRESS: 8,
  PHONE: 9,
  URL_PASSWORD: 10,
  FIELD: 11,
  ENTROPY: 12,
} as const;

/** A match in the scanned string: [start, end) in UTF-16 code units. */
export interface Finding {
  readonly type: DetectionType;
  readonly start: number;
  readonly end: number;
  readonly confidence: Confidence;
  readonly rank: number;
}

export interface ScanOptions {
  /** Only these types are looked for (R `rules`); all when absent. */
  readonly types?: ReadonlySet<DetectionType>;
  /**
   * JSON mode: the name of the field whose string value is being scanned, so `{"password": "…"}` is known to
   * hold a password whatever the value looks like.
   */
  readonly fieldName?: string;
}

/** One detector: a single left-to-right pass over the text, linear in its length. */
export interface Detector {
  readonly types: readonly DetectionType[];
  scan(text: string, out: Finding[], options: ScanOptions): void;
}
