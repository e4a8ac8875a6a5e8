/**
 * Deterministic inputs for bench/text.ts: application logs with a realistic share of sensitive values, and
 * contact records with near-duplicates. A seeded generator, so that every run measures the same bytes.
 */

/** mulberry32: small, fast, good enough to vary benchmark inputs. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const pick = <T>(rnd: () => number, xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;
const hex = (rnd: () => number, n: number): string =>
  Array.from({ length: n }, () => Math.floor(rnd() * 16).toString(16)).join('');

const FIRST = ['jane', 'john', 'maria', 'li', 'ahmed', 'olga', 'pierre', 'sofia', 'kenji', 'amara', 'lucas'];
const LAST = ['doe', 'smith', 'garcia', 'wang', 'khan', 'ivanova', 'martin', 'rossi', 'tanaka', 'okafor'];
const PATHS = ['/api/orders', '/api/users/42', '/login', '/health', '/api/cart/items', '/static/app.js'];

/** One log line; about one in four carries a sensitive value (e-mail, IP, card, token, JWT, password field). */
function logLine(rnd: () => number, i: number): string {
  const ts = new Date(Date.UTC(2026, 10, 21, 6, 0, 0) + i * 137).toISOString();
  const reqId = hex(rnd, 16);
  const base = `${ts} INFO [http] req=${reqId} ${pick(rnd, ['GET', 'POST', 'PUT'])} ${pick(rnd, PATHS)}`;
  const r = rnd();
  if (r < 0.06) return `${base} user=${pick(rnd, FIRST)}.${pick(rnd, LAST)}@example.com status=200`;
  if (r < 0.12)
    return `${base} client=203.0.113.${Math.floor(rnd() * 255)} status=200 took=${Math.floor(rnd() * 900)}ms`;
  if (r < 0.15) return `${base} payment card=4111 1111 1111 1111 amount=${(rnd() * 500).toFixed(2)}`;
  if (r < 0.18) return `${base} auth header token=ghp_${hex(rnd, 36)} retry=false`;
  if (r < 0.2) return `${base} password=${hex(rnd, 12)} (rejected)`;
  if (r < 0.22) {
    return `${base} bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.${hex(rnd, 43)}`;
  }
  if (r < 0.25) return `${base} phone=+1 415 555 ${String(Math.floor(rnd() * 10000)).padStart(4, '0')}`;
  return `${base} status=200 took=${Math.floor(rnd() * 900)}ms bytes=${Math.floor(rnd() * 90000)} v=2.3.${i % 17}`;
}

/** Log lines joined by LF, cut at a line end so that the result is at most `bytes` long (ASCII only). */
export function logOf(bytes: number, seed = 1): string {
  const rnd = prng(seed);
  const lines: string[] = [];
  let size = 0;
  for (let i = 0; ; i++) {
    const line = logLine(rnd, i);
    if (size + line.length + 1 > bytes) break;
    lines.push(line);
    size += line.length + 1;
  }
  return `${lines.join('\n')}\n`;
}

export interface Contact extends Readonly<Record<string, unknown>> {
  readonly name: string;
  readonly email: string;
  readonly phone: string;
  readonly city: string;
}

const CITIES = ['Berlin', 'Paris', 'Lagos', 'Osaka', 'Lima', 'Toronto', 'Madrid', 'Pune', 'Austin', 'Oslo'];

/**
 * `n` contacts, about `dupShare` of them near-duplicates of an earlier one (name order swapped, a dot or a
 * +tag in the e-mail, the phone in another format): what a CRM export looks like.
 */
export function contactsOf(n: number, dupShare = 0.1, seed = 7): Contact[] {
  const rnd = prng(seed);
  const out: Contact[] = [];
  for (let i = 0; i < n; i++) {
    if (out.length > 0 && rnd() < dupShare) {
      const src = out[Math.floor(rnd() * out.length)]!;
      const [first, last] = src.name.split(' ');
      const [local, domain] = src.email.split('@');
      out.push({
        name: rnd() < 0.5 ? `${last}, ${first}` : src.name.toUpperCase(),
        email: rnd() < 0.5 ? `${local}+crm@${domain}` : src.email,
        phone: src.phone.replace(/^\+1 /, '(').replace(/ (\d{3}) /, ') $1-'),
        city: src.city,
      });
      continue;
    }
    const first = pick(rnd, FIRST) + hex(rnd, 3);
    const last = pick(rnd, LAST) + hex(rnd, 2);
    out.push({
      name: `${first[0]!.toUpperCase()}${first.slice(1)} ${last[0]!.toUpperCase()}${last.slice(1)}`,
      email: `${first}.${last}@${pick(rnd, ['example.com', 'mail.example.org', 'corp.example.net'])}`,
      phone: `+1 ${200 + Math.floor(rnd() * 700)} ${100 + Math.floor(rnd() * 800)} ${String(
        Math.floor(rnd() * 10000),
      ).padStart(4, '0')}`,
      city: pick(rnd, CITIES),
    });
  }
  return out;
}

/** The first bytes of common formats, as a client of the file-type route would send them. */
export function fileHeads(): { name: string; bytes: Buffer }[] {
  const pad = (head: Buffer, n = 256): Buffer =>
    Buffer.concat([head, Buffer.alloc(Math.max(0, n - head.length))]);
  const png = Buffer.from('89504e470d0a1a0a0000000d49484452000001000000010008060000005c72a866', 'hex');
  const jpeg = Buffer.from('ffd8ffe000104a46494600010100000100010000ffdb004300', 'hex');
  const gif = Buffer.from('GIF89a\x01\x00\x01\x00\x80\x00\x00', 'latin1');
  const pdf = Buffer.from(
    '%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n',
    'latin1',
  );
  return [
    { name: 'png', bytes: pad(png) },
    { name: 'jpeg', bytes: pad(jpeg) },
    { name: 'gif', bytes: pad(gif) },
    { name: 'pdf', bytes: pad(pdf) },
  ];
}
