import { createHash } from 'node:crypto';
import { canonicalize } from '../canonical-json.js';

/** The previous hash of the first audit row. */
export const GENESIS_HASH = '0'.repeat(64);

/** The fields of an audit row that its hash covers: all of them, and the previous row's hash. */
export interface ChainedFields {
  /** int8 as its decimal string */
  seq: string;
  id: string;
  scope: string;
  action: string;
  actorId: string;
  linkedHumanId: string | null;
  target: string;
  details: unknown;
  /** ISO-8601 with milliseconds */
  createdAt: string;
  prevHash: string;
}

/**
 * The hash of an audit row: lowercase hex SHA-256 of the canonical JSON (docs/api-conventions.md, "Human signed
 * requests": keys sorted by code point at every depth, no whitespace) of its fields, previous hash included.
 * Changing any field of a row, or the order of rows, changes a hash the next row (or the row itself) no longer
 * matches.
 */
export function auditHash(fields: ChainedFields): string {
  return createHash('sha256').update(canonicalize(fields), 'utf8').digest('hex');
}
