/** A table of delimiter-separated values found in text. */
export interface Delimited {
  readonly delimiter: ',' | '\t' | ';' | '|';
  readonly columns: number;
  /** Complete records seen (header included; blank lines skipped), at most MAX_ROWS. */
  readonly rows: number;
}

const CANDIDATES = [',', '\t', ';', '|'] as const;
const MAX_ROWS = 200;

/**
 * CSV-like text: with one of the delimiters, every complete record has the same number of fields (two or more),
 * counting quotes as RFC 4180 does, over at least three records (or two with three or more columns). The last
 * record may be cut short, as when only the first bytes of a file are sent. Commas that mostly come before a
 * space, as in prose, do not make a table. The delimiter giving the most columns wins.
 */
export function sniffDelimited(text: string): Delimited | null {
  let best: Delimited | null = null;
  for (const delimiter of CANDIDATES) {
    const found = consistentRecords(text, delimiter);
    if (found && (!best || found.columns > best.columns)) best = found;
  }
  return best;
}

function consistentRecords(text: string, delimiter: Delimited['delimiter']): Delimited | null {
  let columns = 0;
  let rows = 0;
  let fields = 1;
  let spaced = 0;
  let separated = 0;
  let inQuotes = false;
  let atFieldStart = true;
  let content = false;
  for (let i = 0; i < text.length && rows < MAX_ROWS; i++) {
    const c = text[i]!;
    if (inQuotes) {
      if (c === '"') {
        if (text[i + 1] === '"') i++;
        else inQuotes = false;
      }
      continue;
    }
    if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      if (!content && fields === 1) continue;
      if (columns === 0) columns = fields;
      else if (fields !== columns) return null;
      rows++;
      fields = 1;
      atFieldStart = true;
      content = false;
      continue;
    }
    content = true;
    if (c === delimiter) {
      fields++;
      separated++;
      if (text[i + 1] === ' ') spaced++;
      atFieldStart = true;
    } else {
      if (c === '"' && atFieldStart) inQuotes = true;
      atFieldStart = false;
    }
  }
  if (content && rows < MAX_ROWS && fields > columns) return null;
  if (columns < 2 || rows < 2 || (rows < 3 && columns < 3)) return null;
  if (delimiter === ',' && spaced * 2 > separated) return null;
  return { delimiter, columns, rows };
}
