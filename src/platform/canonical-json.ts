/**
 * The server's canonical JSON (CONTRACT §3): keys sorted by code point at every depth, no whitespace,
 * undefined members omitted, arrays in order. Written independently of sdk/canonical-json.ts so that the
 * signing tests cross-check two implementations.
 */
export function canonicalize(value: unknown): string {
  return serialize(value) ?? 'null';
}

/**
 * Writes members in sorted order itself: a sorted object handed to JSON.stringify would still list
 * integer-like keys ("0", "10") first, since JavaScript enumerates those before every other key.
 */
function serialize(value: unknown): string | undefined {
  if (Array.isArray(value)) return `[${value.map((v) => serialize(v) ?? 'null').join(',')}]`;
  if (value !== null && typeof value === 'object' && !(value instanceof Date)) {
    const members: string[] = [];
    for (const key of Object.keys(value).sort(byCodePoint)) {
      const v = serialize((value as Record<string, unknown>)[key]);
      if (v !== undefined) members.push(`${JSON.stringify(key)}:${v}`);
    }
    return `{${members.join(',')}}`;
  }
  return JSON.stringify(value);
}

/** Orders strings by Unicode code point (CONTRACT §3); the default sort compares UTF-16 code units. */
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
