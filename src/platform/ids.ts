import { randomBytes } from 'node:crypto';

/** Opaque, URL-safe ids with a readable prefix (`st_…` story, `le_…` ledger event). */
export function newId(prefix: string): string {
  return `${prefix}_${randomBytes(12).toString('base64url')}`;
}
