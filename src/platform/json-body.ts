import type { FastifyInstance } from 'fastify';
import { validationFailed } from './errors.js';

/**
 * The service's JSON body parser: Fastify's own (same refusals: empty body, invalid JSON, `__proto__` and
 * `constructor.prototype`), with two additions.
 *
 * - Nesting is refused from the text, before JSON.parse builds anything: V8's parser takes seconds over a
 *   megabyte of `[[[[…`, and everything after it (signatures, schemas) walks the body recursively. So is a key
 *   written with an escape, which V8 may misread (refuseJsonText).
 * - The exact digits of numbers a double rounds: JSON.parse reads `1000.000000000000000007` as 1000, so
 *   `request.inexactNumbers` keeps, beside the parsed body, the source text of each number whose double is not the
 *   same decimal, and where it is. Amounts are read from those digits (decimal-input.ts) and the signature and
 *   idempotency hashes cover them (canonical-json.ts), so what is signed is what is acted on. The source text
 *   comes from JSON.parse itself (a reviver's `context.source`).
 *
 * Every step is linear in the body's length, whatever the body holds.
 */

declare module 'fastify' {
  interface FastifyRequest {
    /** Where the body's numbers are whose double is not the same decimal, with their source text; null when none. */
    inexactNumbers: InexactNumbers | null;
  }
}

/** Deepest nesting of arrays and objects a JSON body may have, counting the body itself (the deepest schema needs 4). */
export const MAX_BODY_DEPTH = 64;

/** Why a JSON text is refused before JSON.parse reads it: nested too deep, or an object key written with an escape. */
export type TextRefusal = 'too-deep' | 'escaped-key';

/**
 * One pass over a JSON text, brackets and quotes inside strings skipped: whether it nests arrays and objects deeper
 * than `max` levels, or writes an object key with an escape (`"\""`, `"\u0074"`).
 *
 * No key the API defines needs an escape, and V8 (Node.js 24) misreads such keys: once the process has parsed a key
 * `"\\"`, a later `{"h":1,"\"":2}` reads its second key as a backslash. Refused from the text, no body of one
 * client can change how another client's body is read.
 */
export function refuseJsonText(text: string, max: number): TextRefusal | null {
  let depth = 0;
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (c === 0x22 /* " */) {
      // to the closing quote, stepping over each escape's next character
      let escaped = false;
      for (i += 1; i < text.length; i += 1) {
        const s = text.charCodeAt(i);
        if (s === 0x5c /* \ */) {
          escaped = true;
          i += 1;
        } else if (s === 0x22) break;
      }
      if (escaped && followedByColon(text, i + 1)) return 'escaped-key';
    } else if (c === 0x5b /* [ */ || c === 0x7b /* { */) {
      depth += 1;
      if (depth > max) return 'too-deep';
    } else if (c === 0x5d /* ] */ || c === 0x7d /* } */) depth -= 1;
  }
  return null;
}

/** Whether the first character from `at` that is not JSON whitespace is a colon: the string before it was a key. */
function followedByColon(text: string, at: number): boolean {
  for (let i = at; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (c !== 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) return c === 0x3a;
  }
  return false;
}

/**
 * Text that does not match this holds only numbers their double writes back: a token with at most 15 digits
 * (and points) and an exponent below 100 in magnitude is within a double's 15 significant digits and its
 * range. A match (also inside a string) only means the numbers are looked at.
 */
const MAY_HOLD_INEXACT = /\d[\d.]{15}|[eE][+-]?\d{3}/;
const DECIMAL_PARTS = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?)(\d+))?$/;

/** `s` without its leading zeros: a loop, since a regular expression such as /0+$/ backtracks over inner runs. */
function withoutLeadingZeros(s: string): string {
  let i = 0;
  while (i < s.length && s.charCodeAt(i) === 0x30) i += 1;
  return s.slice(i);
}

function withoutTrailingZeros(s: string): string {
  let j = s.length;
  while (j > 0 && s.charCodeAt(j - 1) === 0x30) j -= 1;
  return s.slice(0, j);
}

/** A decimal as sign, significant digits (no leading or trailing zero) and exponent: `-125e-3`; `0` for zero. */
function normalized(text: string): string | null {
  const m = DECIMAL_PARTS.exec(text);
  if (!m) return null;
  const [, sign, whole, fraction = '', expSign = '', expDigits = '0'] = m;
  const all = whole! + fraction;
  const upToLast = withoutTrailingZeros(all);
  const digits = withoutLeadingZeros(upToLast);
  if (!digits) return '0';
  const exponentDigits = withoutLeadingZeros(expDigits) || '0';
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
  const exponentAt = text.search(/[eE]/);
  const mantissa = (exponentAt === -1 ? text : text.slice(0, exponentAt)).replace(/[-.]/g, '');
  if (mantissa.length > 17 && withoutTrailingZeros(withoutLeadingZeros(mantissa)).length > 17) return false;
  const source = normalized(text);
  return source !== null && source === normalized(written);
}

/**
 * Where a body's inexact numbers are: for an object its keys, for an array its indexes (as strings), down to
 * each number's source text. Only the branches that lead to such a number are there.
 */
export type InexactNumbers = Map<string, InexactNumbers | string>;

/** What JSON.parse hands a reviver as its third argument (Node.js 22 and later): a primitive's source text. */
type ReviverContext = { source?: string };
type Reviver = (this: object, key: string, value: unknown, context: ReviverContext) => unknown;

/** A body number whose source text JSON.parse did not give: its digits cannot be known, so the body is refused. */
export class UnreadableNumberError extends Error {}

/**
 * The numbers of `text` (JSON that JSON.parse accepts, nested no deeper than MAX_BODY_DEPTH) that their double does
 * not write back, as a tree (InexactNumbers); null when there is none. JSON.parse calls the reviver for each member
 * after its children, so a container's findings are complete when its own member is visited; a repeated key is
 * seen as JSON.parse keeps it, the last one winning.
 *
 * Throws UnreadableNumberError when JSON.parse gives a number without its source text. The language gives it for
 * every number a reviver has not changed, but V8 (Node.js 24) sometimes omits it for a member whose key is written
 * with an escape (`"\""`, `"\u0074"`) once the process has parsed a similar object: the digits are then unknown,
 * and acting on the double could move a different amount than the one sent.
 */
export function inexactNumbers(text: string): InexactNumbers | null {
  if (!MAY_HOLD_INEXACT.test(text)) return null;
  const found = new WeakMap<object, InexactNumbers>();
  const reviver: Reviver = function (key, value, context) {
    let entry: InexactNumbers | string | undefined;
    if (typeof value === 'number') {
      const source = context.source;
      if (source === undefined) throw new UnreadableNumberError(`the digits of the number at "${key}" could not be read`);
      if (!doubleWritesBack(source)) entry = source;
    } else if (value !== null && typeof value === 'object') entry = found.get(value);
    if (entry !== undefined) {
      let inHolder = found.get(this);
      if (!inHolder) found.set(this, (inHolder = new Map()));
      inHolder.set(key, entry);
    }
    return value;
  };
  const body = JSON.parse(text, reviver as Parameters<typeof JSON.parse>[1]) as unknown;
  return body !== null && typeof body === 'object' ? (found.get(body) ?? null) : null;
}

/**
 * Replaces Fastify's JSON parser with the same parser that first refuses, from the text, bodies nested deeper than
 * MAX_BODY_DEPTH and keys written with escapes (400, before anything reads them) and then notes the body's inexact
 * numbers on the request.
 */
const REFUSALS: Record<TextRefusal, string> = {
  'too-deep': `must not nest arrays and objects deeper than ${MAX_BODY_DEPTH} levels`,
  'escaped-key': 'object keys must be written without escape sequences',
};

export function registerJsonBodyParser(app: FastifyInstance): void {
  const parse = app.getDefaultJsonParser('error', 'error');
  app.decorateRequest('inexactNumbers', null);
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, text, done) => {
    const refusal = refuseJsonText(text as string, MAX_BODY_DEPTH);
    if (refusal) return done(validationFailed([{ path: '/', message: REFUSALS[refusal] }]), undefined);
    parse(request, text as string, (error, value) => {
      if (error) return done(error, undefined);
      try {
        request.inexactNumbers = inexactNumbers(text as string);
      } catch (err) {
        if (!(err instanceof UnreadableNumberError)) throw err;
        return done(
          validationFailed([{ path: '/', message: 'a number under an escaped key could not be read exactly: send its key unescaped' }]),
          undefined,
        );
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
