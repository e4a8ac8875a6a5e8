/**
 * Whether text is JSON, when it may be only the first bytes of a file: a validator that accepts the text ending
 * anywhere inside a value. Only objects and arrays count as JSON documents here (a bare `42` or `"hi"` is text).
 *
 * - `complete`: one JSON object or array, nothing after it but white space;
 * - `sequence`: several, each starting on a new line (JSON Lines / NDJSON);
 * - `prefix`: valid so far, cut inside a value (the rest of the file was not sent);
 * - `invalid`: not JSON.
 */
export type JsonVerdict = 'complete' | 'sequence' | 'prefix' | 'invalid';

type State =
  | 'start'
  | 'done'
  | 'value'
  | 'objFirst'
  | 'objKey'
  | 'colon'
  | 'objNext'
  | 'arrFirst'
  | 'arrNext'
  | 'string'
  | 'escape'
  | 'unicode'
  | 'number'
  | 'literal';

const WS = new Set([' ', '\t', '\n', '\r']);
const NUMBER_CHAR = /[0-9eE+\-.]/;
const NUMBER = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/;
/** What a number cut short may look like: every prefix of a valid number. */
const NUMBER_PREFIX = /^-?((0|[1-9]\d*)(\.\d*)?([eE][+-]?\d*)?)?$/;
const HEX = /[0-9a-fA-F]/;
const LITERALS: Record<string, string> = { t: 'true', f: 'false', n: 'null' };

export function scanJson(text: string): JsonVerdict {
  const stack: string[] = [];
  // Widened on purpose: the helpers below change it, which flow analysis does not see.
  let state = 'start' as State;
  let stringIsKey = false;
  let token = '';
  let hexLeft = 0;
  let values = 0;
  let newlineSinceValue = false;

  const afterValue = (): void => {
    const top = stack[stack.length - 1];
    if (top === undefined) {
      values++;
      newlineSinceValue = false;
      state = 'done';
    } else {
      state = top === '{' ? 'objNext' : 'arrNext';
    }
  };
  const open = (c: string): void => {
    stack.push(c);
    state = c === '{' ? 'objFirst' : 'arrFirst';
  };
  /** A value starts at `c`; false when nothing can start there. */
  const startValue = (c: string): boolean => {
    if (c === '{' || c === '[') open(c);
    else if (c === '"') {
      stringIsKey = false;
      state = 'string';
    } else if (c === '-' || (c >= '0' && c <= '9')) {
      token = c;
      state = 'number';
    } else if (LITERALS[c]) {
      token = c;
      state = 'literal';
    } else return false;
    return true;
  };
  const close = (c: string): boolean => {
    if (stack.pop() !== (c === '}' ? '{' : '[')) return false;
    afterValue();
    return true;
  };

  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    switch (state) {
      case 'string':
        if (c === '\\') state = 'escape';
        else if (c === '"') {
          if (stringIsKey) state = 'colon';
          else afterValue();
        } else if (c < ' ') return 'invalid';
        break;
      case 'escape':
        if (c === 'u') {
          hexLeft = 4;
          state = 'unicode';
        } else if ('"\\/bfnrt'.includes(c)) state = 'string';
        else return 'invalid';
        break;
      case 'unicode':
        if (!HEX.test(c)) return 'invalid';
        if (--hexLeft === 0) state = 'string';
        break;
      case 'number':
        if (NUMBER_CHAR.test(c)) {
          token += c;
          break;
        }
        if (!NUMBER.test(token)) return 'invalid';
        afterValue();
        i--; // the character after a number belongs to what follows it
        break;
      case 'literal': {
        const word = LITERALS[token[0]!]!;
        token += c;
        if (!word.startsWith(token)) return 'invalid';
        if (token === word) afterValue();
        break;
      }
      default:
        if (WS.has(c)) {
          if (c === '\n' && state === 'done') newlineSinceValue = true;
          break;
        }
        if (!step(c)) return 'invalid';
    }
  }

  function step(c: string): boolean {
    switch (state) {
      case 'start':
        if (c !== '{' && c !== '[') return false;
        open(c);
        return true;
      case 'done':
        if ((c !== '{' && c !== '[') || !newlineSinceValue) return false;
        open(c);
        return true;
      case 'objFirst':
        if (c === '}') return close(c);
        if (c !== '"') return false;
        stringIsKey = true;
        state = 'string';
        return true;
      case 'objKey':
        if (c !== '"') return false;
        stringIsKey = true;
        state = 'string';
        return true;
      case 'colon':
        if (c !== ':') return false;
        state = 'value';
        return true;
      case 'objNext':
        if (c === ',') state = 'objKey';
        else if (c === '}') return close(c);
        else return false;
        return true;
      case 'arrFirst':
        if (c === ']') return close(c);
        return startValue(c);
      case 'arrNext':
        if (c === ',') state = 'value';
        else if (c === ']') return close(c);
        else return false;
        return true;
      case 'value':
        return startValue(c);
      default:
        return false;
    }
  }

  if (state === 'start') return 'invalid';
  if (state === 'done') return values > 1 ? 'sequence' : 'complete';
  if (state === 'number' && !NUMBER_PREFIX.test(token)) return 'invalid';
  return values > 0 ? 'sequence' : 'prefix';
}
