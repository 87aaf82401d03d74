import type { InexactNumbers } from './json-body.js';

/**
 * The server's canonical JSON: keys sorted by code point at every depth, no whitespace, undefined members
 * omitted, arrays in order, a number as JSON.stringify writes it. Written independently of
 * sdk/canonical-json.ts so that the signing tests cross-check two implementations.
 *
 * `inexact` (a request's `inexactNumbers`, platform/json-body.ts) holds the source text of the body numbers
 * that JSON.parse rounded: such a number is written as it was sent, so that a signature or a request hash covers
 * its digits and not the double they were rounded to (the SDK writes a long bigint as its digits the same way).
 */
export function canonicalize(value: unknown, inexact?: InexactNumbers | null): string {
  return serialize(value, inexact ?? undefined) ?? 'null';
}

/**
 * Writes members in sorted order itself: a sorted object handed to JSON.stringify would still list
 * integer-like keys ("0", "10") first, since JavaScript enumerates those before every other key.
 */
function serialize(value: unknown, inexact: InexactNumbers | string | undefined): string | undefined {
  const child = (key: string) => (typeof inexact === 'object' ? inexact.get(key) : undefined);
  if (Array.isArray(value)) return `[${value.map((v, i) => serialize(v, child(String(i))) ?? 'null').join(',')}]`;
  if (value !== null && typeof value === 'object' && !(value instanceof Date)) {
    const members: string[] = [];
    for (const key of Object.keys(value).sort(byCodePoint)) {
      const v = serialize((value as Record<string, unknown>)[key], child(key));
      if (v !== undefined) members.push(`${JSON.stringify(key)}:${v}`);
    }
    return `{${members.join(',')}}`;
  }
  if (typeof inexact === 'string' && typeof value === 'number' && Number(inexact) === value) return inexact;
  return JSON.stringify(value);
}

/** Orders strings by Unicode code point (docs/api-conventions.md, "Human signed requests"); the default sort compares UTF-16 code units. */
export function byCodePoint(a: string, b: string): number {
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const ca = a.codePointAt(i)!;
    const cb = b.codePointAt(j)!;
    if (ca !== cb) return ca - cb;
    i += ca > 0xffff ? 2 : 1;
    j += cb > 0xffff ? 2 : 1;
  }
  return (i < a.length ? 1 : 0) - (j < b.length ? 1 : 0);
}

/** The signed form of a query string: values as strings, a repeated key as an array in order. */
export function canonicalQuery(rawQuery: string): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = Object.create(null);
  for (const [key, value] of new URLSearchParams(rawQuery)) {
    const prev = out[key];
    out[key] = prev === undefined ? value : Array.isArray(prev) ? [...prev, value] : [prev, value];
  }
  return out;
}
