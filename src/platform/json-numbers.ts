import type { FastifyInstance } from 'fastify';

/**
 * The exact digits of the numbers in a JSON body. JSON.parse reads every number as a double, so
 * `1000.000000000000000007` arrives as 1000 and `12345678901234567890.5` as 12345678901234567000. The body is
 * still parsed with Fastify's own parser (prototype-poisoning checks included) and handed on as JavaScript
 * values; beside it, `request.inexactNumbers` keeps the source text of each number that the double does not
 * write back as the same decimal (doubleWritesBack), and where it is. Amounts are read from those digits (decimal-input.ts), and the signature
 * and idempotency hashes cover them (canonical-json.ts), so what is signed is what is acted on.
 */

declare module 'fastify' {
  interface FastifyRequest {
    /** Where the body's numbers are whose double is not the same decimal, with their source text; null when none. */
    inexactNumbers: InexactNumbers | null;
  }
}

/**
 * Text that does not match this holds only numbers their double writes back: a token with at most 15 digits
 * (and points) and an exponent below 100 in magnitude is within a double's 15 significant digits and its
 * range. A match (also inside a string) only means the body is scanned.
 */
const MAY_HOLD_INEXACT = /\d[\d.]{15}|[eE][+-]?\d{3}/;
const DECIMAL_PARTS = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?)(\d+))?$/;

/** A decimal as sign, significant digits (no leading or trailing zero) and exponent: `-125e-3`; `0` for zero. */
function normalized(text: string): string | null {
  const m = DECIMAL_PARTS.exec(text);
  if (!m) return null;
  const [, sign, whole, fraction = '', expSign = '', expDigits = '0'] = m;
  const all = whole! + fraction;
  const upToLast = all.replace(/0+$/, '');
  const digits = upToLast.replace(/^0+/, '');
  if (!digits) return '0';
  const exponentDigits = expDigits.replace(/^0+(?=\d)/, '');
  // beyond this a non-zero value is 0 or Infinity as a double, never the same decimal
  if (exponentDigits.length > 15) return null;
  const exponent = Number(`${expSign}${exponentDigits}`) - fraction.length + (all.length - upToLast.length);
  return `${sign}${digits}e${exponent}`;
}

/**
 * Whether the double JSON.parse makes of the number `text` (JSON grammar) is written back by JSON.stringify as
 * the same decimal value (`1.50` → 1.5: yes; `0.10000000000000001` → 0.1, `1e400` → Infinity: no).
 */
export function doubleWritesBack(text: string): boolean {
  // up to 15 characters without an exponent: at most 15 significant digits, always written back
  if (text.length <= 15 && !/[eE]/.test(text)) return true;
  const value = Number(text);
  if (!Number.isFinite(value)) return false;
  const written = String(value);
  if (written === text) return true;
  // JavaScript writes at most 17 significant digits
  const mantissa = text.replace(/[eE].*$/, '').replace(/[-.]/g, '');
  if (mantissa.length > 17 && mantissa.replace(/^0+/, '').replace(/0+$/, '').length > 17) return false;
  const source = normalized(text);
  return source !== null && source === normalized(written);
}

/**
 * Where a body's inexact numbers are: for an object its keys, for an array its indexes (as strings), down to
 * each number's source text. Only the branches that lead to such a number are there.
 */
export type InexactNumbers = Map<string, InexactNumbers | string>;

interface Frame {
  array: boolean;
  /** The inexact numbers found so far in this container (created when the first is). */
  found: InexactNumbers | null;
  /** The member being read: the key of an object (arrays use `index`). */
  key: string;
  index: number;
}

const at = (frame: Frame) => (frame.array ? String(frame.index) : frame.key);

/** Whether the character code may be part of a JSON number token (after its first character). */
const inNumber = (code: number) => (code >= 48 && code <= 57) || code === 46 || code === 101 || code === 69 || code === 43 || code === 45;

/**
 * The numbers of `text` (JSON that JSON.parse accepted) that their double does not write back, as a tree
 * (InexactNumbers); null when there is none. One pass, iterative (no nesting overflows a stack), each key read
 * once. A repeated key is read as JSON.parse reads it, the last one winning: its value replaces the earlier.
 */
export function inexactNumbers(text: string): InexactNumbers | null {
  if (!MAY_HOLD_INEXACT.test(text)) return null;
  const root: Frame = { array: true, found: null, key: '', index: 0 };
  const stack: Frame[] = [root];
  let top = root;
  let expectKey = false;
  /** Records what the member being read holds: inexact numbers (a source text or a subtree), or none. */
  const settle = (value: InexactNumbers | string | null) => {
    if (value === null) top.found?.delete(at(top));
    else (top.found ??= new Map()).set(at(top), value);
  };
  const end = text.length;
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  while (i < end) {
    const c = text.charCodeAt(i);
    if (c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d || c === 0x3a /* : */) {
      i += 1;
    } else if (c === 0x2c /* , */) {
      if (top.array) top.index += 1;
      else expectKey = true;
      i += 1;
    } else if (c === 0x7d /* } */ || c === 0x5d /* ] */) {
      if (stack.length > 1) {
        const done = stack.pop()!;
        top = stack[stack.length - 1]!;
        settle(done.found);
      }
      expectKey = false;
      i += 1;
    } else if (c === 0x22 /* " */) {
      // the closing quote: the first one not escaped by an odd number of backslashes
      let j = text.indexOf('"', i + 1);
      for (;;) {
        let slashes = 0;
        while (text.charCodeAt(j - 1 - slashes) === 0x5c) slashes += 1;
        if (j === -1 || slashes % 2 === 0) break;
        j = text.indexOf('"', j + 1);
      }
      if (j === -1) j = end;
      if (expectKey) {
        const raw = text.slice(i + 1, j);
        top.key = raw.includes('\\') ? (JSON.parse(`"${raw}"`) as string) : raw;
        expectKey = false;
      } else settle(null);
      i = j + 1;
    } else if (c === 0x7b /* { */ || c === 0x5b /* [ */) {
      top = { array: c === 0x5b, found: null, key: '', index: 0 };
      stack.push(top);
      expectKey = !top.array;
      i += 1;
    } else if (c === 0x2d /* - */ || (c >= 0x30 && c <= 0x39)) {
      let j = i + 1;
      while (j < end && inNumber(text.charCodeAt(j))) j += 1;
      const token = text.slice(i, j);
      settle(doubleWritesBack(token) ? null : token);
      i = j;
    } else {
      // true, false or null
      settle(null);
      i += c === 0x66 /* f */ ? 5 : 4;
    }
  }
  const body = root.found?.get('0');
  return body !== undefined && typeof body !== 'string' ? body : null;
}

/**
 * Replaces Fastify's JSON parser with the same parser (same refusals: empty body, invalid JSON, `__proto__`
 * and `constructor.prototype`) that also notes the body's inexact numbers on the request.
 */
export function registerJsonBodyParser(app: FastifyInstance): void {
  const parse = app.getDefaultJsonParser('error', 'error');
  app.decorateRequest('inexactNumbers', null);
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, text, done) => {
    parse(request, text as string, (error, value) => {
      if (error) return done(error, undefined);
      try {
        request.inexactNumbers = inexactNumbers(text as string);
      } catch {
        // the scan reads text JSON.parse accepted, so this does not happen; if it ever did, the body is refused (400)
        return done(new SyntaxError('the numbers of the body could not be read'), undefined);
      }
      done(null, value);
    });
  });
}

/** The decimal text of the number member at `keys` of a body: its source digits when its double is not the same decimal. */
export function numberText(value: number, keys: readonly string[], inexact: InexactNumbers | null): string {
  let node: InexactNumbers | string | undefined = inexact ?? undefined;
  for (const key of keys) node = typeof node === 'object' ? node.get(key) : undefined;
  return typeof node === 'string' && Number(node) === value ? node : String(value);
}
