/**
 * The server's canonical JSON (CONTRACT §3): keys sorted by code point at every depth, no whitespace,
 * undefined members omitted, arrays in order. Written independently of sdk/canonical-json.ts so that the
 * signing tests cross-check two implementations.
 */
export function canonicalize(value: unknown): string {
  return JSON.stringify(sortDeep(value)) ?? 'null';
}

function sortDeep(value: unknown): unknown {
  if (Array.isArray(value)) return value.map((v) => (v === undefined ? null : sortDeep(v)));
  if (value !== null && typeof value === 'object' && !(value instanceof Date)) {
    const sorted: Record<string, unknown> = Object.create(null);
    for (const key of Object.keys(value).sort()) {
      const v = (value as Record<string, unknown>)[key];
      if (v !== undefined) sorted[key] = sortDeep(v);
    }
    return sorted;
  }
  return value;
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
