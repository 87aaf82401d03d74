/**
 * Canonical JSON as both signature schemes define it: object keys sorted by Unicode code point at
 * every depth, no whitespace, `undefined` members omitted, arrays kept in order.
 *
 * The server has its own implementation (src/platform/canonical-json.ts); the two are kept apart on
 * purpose so that a disagreement shows up as a failed signature in the tests instead of hiding.
 */
export function canonicalJson(value: unknown): string {
  const out = encode(value);
  return out === undefined ? 'null' : out;
}

function encode(value: unknown): string | undefined {
  if (value === undefined || typeof value === 'function' || typeof value === 'symbol') return undefined;
  if (value === null) return 'null';
  if (typeof value === 'bigint') return bigintJson(value);
  if (typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) {
    return `[${value.map((item) => encode(item) ?? 'null').join(',')}]`;
  }
  const toJson = (value as { toJSON?: () => unknown }).toJSON;
  if (typeof toJson === 'function') return encode(toJson.call(value));
  const record = value as Record<string, unknown>;
  const members: string[] = [];
  for (const key of Object.keys(record).sort(compareCodePoints)) {
    const encoded = encode(record[key]);
    if (encoded !== undefined) members.push(`${JSON.stringify(key)}:${encoded}`);
  }
  return `{${members.join(',')}}`;
}

/**
 * A bigint as a JSON number: as JavaScript writes the same number (`1e+21`) when that is the same value, else
 * its decimal digits (`12345678901234567890`, which a double would round). The service reads a body number the
 * same way, so that a signature over a bigint verifies and covers its digits.
 */
function bigintJson(value: bigint): string {
  const digits = value.toString();
  const js = JSON.stringify(Number(value));
  const m = /^(-?\d+)(?:\.(\d+))?(?:e\+(\d+))?$/.exec(js);
  if (!m) return digits;
  const [, whole, fraction = '', exponent = '0'] = m;
  const shift = Number(exponent) - fraction.length;
  return shift >= 0 && BigInt(whole! + fraction) * 10n ** BigInt(shift) === value ? js : digits;
}

/** Sorts keys by Unicode code point, as the contract says (not by UTF-16 code unit, JavaScript's default). */
function compareCodePoints(a: string, b: string): number {
  const x = Array.from(a, (c) => c.codePointAt(0)!);
  const y = Array.from(b, (c) => c.codePointAt(0)!);
  for (let k = 0; k < Math.min(x.length, y.length); k += 1) if (x[k] !== y[k]) return x[k]! - y[k]!;
  return x.length - y.length;
}

/**
 * The canonical "body" of a signed GET: the query string as an object whose values are strings
 * (a repeated key becomes an array of strings in order of appearance).
 */
export function queryObject(
  search: string | URLSearchParams | Record<string, string | string[] | undefined>,
): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  // Own properties only: a key such as "toString" or "__proto__" must not meet (or set) the prototype's.
  const set = (key: string, val: string | string[]) =>
    Object.defineProperty(out, key, { value: val, enumerable: true, writable: true, configurable: true });
  if (typeof search === 'string' || search instanceof URLSearchParams) {
    const params = typeof search === 'string' ? new URLSearchParams(search.startsWith('?') ? search.slice(1) : search) : search;
    for (const [key, val] of params) {
      const prev = Object.hasOwn(out, key) ? out[key] : undefined;
      if (prev === undefined) set(key, val);
      else set(key, Array.isArray(prev) ? [...prev, val] : [prev, val]);
    }
    return out;
  }
  for (const [key, val] of Object.entries(search)) {
    if (val !== undefined) set(key, val);
  }
  return out;
}
