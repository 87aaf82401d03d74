import { createHash } from 'node:crypto';
import { canonicalize } from './canonical-json.js';
import type { InexactNumbers } from './json-body.js';
import { validationFailed } from './errors.js';

const KEY = /^[\x21-\x7e]{8,200}$/;

/** `inexact`: the request's inexact body numbers, so that two bodies that differ only past a double's digits differ here too. */
export function requestHash(method: string, path: string, body: unknown, inexact?: InexactNumbers | null): string {
  return createHash('sha256')
    .update(`${method.toUpperCase()} ${path} ${canonicalize(body ?? {}, inexact)}`)
    .digest('hex');
}

export function validateIdempotencyKey(key: string): void {
  if (!KEY.test(key)) throw validationFailed([{ header: 'idempotency-key', message: 'must be 8 to 200 printable characters' }]);
}
