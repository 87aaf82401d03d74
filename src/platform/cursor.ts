import { createHash, timingSafeEqual } from 'node:crypto';
import { Type } from '@sinclair/typebox';
import { AppError } from './errors.js';

/**
 * Opaque keyset cursors shared by every paginated read (feed, search, ledger, comments, flags).
 *
 * Text form: `<payload>.<check>` where payload = base64url(JSON `[kind, ...values]`) and check = the first
 * 16 base64url characters (96 bits) of SHA-256 over a fixed domain string and the payload. The check catches
 * any garbled or edited cursor; the kind binds a cursor to the listing (and feed mode) that issued it. A
 * cursor grants nothing: it only says where the next page starts, so a forged one can do no more than a
 * client walking the pages itself, and every value is still type-checked and bound as a SQL parameter.
 * Values are JSON numbers (doubles round-trip exactly) or strings (timestamps travel as PostgreSQL text
 * with microseconds, see `sortableTimestamp`).
 */
export type CursorValue = string | number;

/** What each position of a cursor must hold. */
export type CursorField = 'string' | 'number' | 'integer' | 'timestamp';

const DOMAIN = 'newsroom-cursor-v1';
const CHECK_LENGTH = 16;
const MAX_CURSOR_LENGTH = 1024;
/** The text form of a timestamp in a cursor: UTC with microseconds, as `sortableTimestamp` selects it. */
const TIMESTAMP = /^[1-9]\d{3}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;

export const invalidCursor = (message: string) =>
  new AppError(400, 'INVALID_CURSOR', 'Bad request', { message, nextAction: 'Request the first page again without a cursor' });

function check(payload: string): string {
  return createHash('sha256').update(`${DOMAIN}:${payload}`).digest('base64url').slice(0, CHECK_LENGTH);
}

/** Encodes the position after the last item of a page for the listing `kind`. */
export function encodeCursor(kind: string, values: readonly CursorValue[]): string {
  const payload = Buffer.from(JSON.stringify([kind, ...values]), 'utf8').toString('base64url');
  return `${payload}.${check(payload)}`;
}

function fits(value: unknown, field: CursorField): boolean {
  switch (field) {
    case 'string':
      // NUL cannot reach PostgreSQL text; a forged cursor carrying one must be a 400, not a database error.
      return typeof value === 'string' && value.length > 0 && value.length <= 200 && !value.includes('\u0000');
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'integer':
      return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
    case 'timestamp':
      // A real instant only (no 2026-02-30): it must survive a round trip through Date to the second.
      return typeof value === 'string' && TIMESTAMP.test(value) && !Number.isNaN(Date.parse(value)) && new Date(value).toISOString().slice(0, 19) === value.slice(0, 19);
  }
}

/**
 * Decodes a cursor issued for `kind` whose values have the types `fields`; anything else (garbled text, a
 * failed check, another listing's or another mode's cursor, wrong value types) is 400 INVALID_CURSOR.
 */
export function decodeCursor(kind: string, text: string, fields: readonly CursorField[]): CursorValue[] {
  if (text.length > MAX_CURSOR_LENGTH) throw invalidCursor('The cursor is too long');
  const dot = text.indexOf('.');
  const payload = text.slice(0, dot);
  const given = Buffer.from(text.slice(dot + 1));
  const expected = Buffer.from(check(payload));
  if (dot <= 0 || given.length !== expected.length || !timingSafeEqual(given, expected)) throw invalidCursor('The cursor is not one this service issued');
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    throw invalidCursor('The cursor is not one this service issued');
  }
  if (!Array.isArray(decoded) || decoded[0] !== kind) throw invalidCursor('The cursor belongs to another listing or mode');
  const values = decoded.slice(1);
  if (values.length !== fields.length || !values.every((v, i) => fits(v, fields[i]!))) throw invalidCursor('The cursor is malformed');
  return values as CursorValue[];
}

/** The `cursor` query parameter (validated by decodeCursor, so a garbled one is INVALID_CURSOR). */
export const CursorParam = Type.Optional(Type.String({ description: 'Opaque cursor from a previous page (`nextCursor`)' }));

/** `nextCursor` of a page: absent on the last page. */
export const NextCursor = Type.Optional(Type.String({ description: 'Pass back as `cursor` for the next page; absent on the last page' }));

/**
 * Splits `limit + 1` fetched rows into a page and the cursor after it: the extra row only proves that a
 * next page exists. Returns no cursor on the last page.
 */
export function pageOf<Row>(rows: Row[], limit: number, cursorOf: (last: Row) => string): { items: Row[]; nextCursor?: string } {
  if (rows.length <= limit) return { items: rows };
  const items = rows.slice(0, limit);
  return { items, nextCursor: cursorOf(items[items.length - 1]!) };
}
