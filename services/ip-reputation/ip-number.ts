import { parseIpv6 } from '../../core/outbound/address-policy.js';

/** An address as an integer of its family: IPv4 in 32 bits, IPv6 in 128. */
export interface IpNumber {
  readonly family: 4 | 6;
  readonly value: bigint;
}

/** An inclusive range of one family. */
export interface IpRange {
  readonly family: 4 | 6;
  readonly start: bigint;
  readonly end: bigint;
}

const V4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;

/** Strict dotted quad or IPv6 text → number; null for anything else. */
export function ipToNumber(text: string): IpNumber | null {
  const m = V4.exec(text);
  if (m) {
    const parts = m.slice(1).map(Number);
    if (parts.some((p) => p > 255)) return null;
    return { family: 4, value: parts.reduce((acc, p) => (acc << 8n) | BigInt(p), 0n) };
  }
  if (!text.includes(':')) return null;
  const v6 = parseIpv6(text);
  if (!v6 || v6.zone) return null;
  return { family: 6, value: v6.parts.reduce((acc, w) => (acc << 16n) | BigInt(w), 0n) };
}

/** `a.b.c.d/n`, `x::/n` or a bare address → its range; null when malformed. Host bits are masked off. */
export function cidrToRange(text: string): IpRange | null {
  const [addr = '', len, extra] = text.split('/');
  if (extra !== undefined) return null;
  const ip = ipToNumber(addr);
  if (!ip) return null;
  const bits = ip.family === 4 ? 32 : 128;
  if (len !== undefined && !/^\d{1,3}$/.test(len)) return null;
  const prefix = len === undefined ? bits : Number(len);
  if (prefix > bits) return null;
  const hostBits = BigInt(bits - prefix);
  const start = (ip.value >> hostBits) << hostBits;
  return { family: ip.family, start, end: start + (1n << hostBits) - 1n };
}
