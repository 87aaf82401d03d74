import { createHmac, hkdfSync, randomBytes, timingSafeEqual } from 'node:crypto';
import { Type } from '@sinclair/typebox';
import { appError } from './errors.js';

/**
 * Opaque keyset cursors shared by every paginated read (feed, search, ledger, comments, flags).
 *
 * Text form: `<payload>.<check>` where payload = base64url(JSON `[kind, ...values]`) and check = the first
 * 16 base64url characters (96 bits) of HMAC-SHA256 under a key the service holds (CURSOR_SIGNING_SECRET, or
 * one derived from HUMAN_SIGNING_SECRET) over a fixed domain string and the payload. Only the service can
 * make a cursor: an unkeyed hash let anyone build one with values no page ever ends on (a rank of 1e308 then
 * failed its SQL cast as a 500). The kind binds a cursor to the listing (and feed mode) that issued it, and
 * every decoded value is still range-checked and bound as a SQL parameter.
 * Values are JSON numbers (doubles round-trip exactly) or strings (timestamps travel as PostgreSQL text
 * with microseconds, see `sortableTimestamp`).
 */
export type CursorValue = string | number;

/** What each position of a cursor must hold. */
export type CursorField = 'string' | 'number' | 'real' | 'integer' | 'int8' | 'timestamp';

const DOMAIN = 'newsroom-cursor-v1';
const CHECK_LENGTH = 16;
const MAX_CURSOR_LENGTH = 1024;
/** The text form of a timestamp in a cursor: UTC with microseconds, as `sortableTimestamp` selects it. */
const TIMESTAMP = /^[1-9]\d{3}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;

export const invalidCursor = (message: string) => appError('INVALID_CURSOR', { message });

/** The largest finite PostgreSQL `real` (float4): a search rank is compared as one. */
const REAL_MAX = 3.4028234663852886e38;
const INT8 = /^(0|[1-9]\d{0,18})$/;
const INT8_MAX = 9223372036854775807n;

function fits(value: unknown, field: CursorField): boolean {
  switch (field) {
    case 'string':
      // NUL cannot reach PostgreSQL text; a forged cursor carrying one must be a 400, not a database error.
      return typeof value === 'string' && value.length > 0 && value.length <= 200 && !value.includes('\u0000');
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'int8':
      // a positive PostgreSQL bigint as its decimal string (sequences)
      return typeof value === 'string' && INT8.test(value) && BigInt(value) <= INT8_MAX;
    case 'real':
      return typeof value === 'number' && Number.isFinite(value) && Math.abs(value) <= REAL_MAX;
    case 'integer':
      return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
    case 'timestamp':
      // A real instant only (no 2026-02-30): it must survive a round trip through Date to the second.
      return (
        typeof value === 'string' &&
        TIMESTAMP.test(value) &&
        !Number.isNaN(Date.parse(value)) &&
        new Date(value).toISOString().slice(0, 19) === value.slice(0, 19)
      );
  }
}

/** The key of the cursor checks: CURSOR_SIGNING_SECRET, else derived from HUMAN_SIGNING_SECRET, else random. */
export function cursorKey(cursorSecret: string | undefined, humanSigningSecret: string | undefined): Buffer {
  if (cursorSecret) return Buffer.from(cursorSecret, 'utf8');
  // A random key works for one instance only (its cursors die with it); config.ts documents the variables.
  if (!humanSigningSecret) return randomBytes(32);
  return Buffer.from(hkdfSync('sha256', humanSigningSecret, 'newsroom', DOMAIN, 32));
}

/** Encodes and decodes the cursors of every listing, checked with the service's key. */
export function createCursorCodec(key: Buffer) {
  const check = (payload: string) => createHmac('sha256', key).update(`${DOMAIN}:${payload}`).digest('base64url').slice(0, CHECK_LENGTH);

  /**
   * Decodes a cursor issued for `kind` whose values have the types `fields`; anything else (garbled text, a
   * failed check, another listing's or another mode's cursor, wrong value types or ranges) is 400 INVALID_CURSOR.
   */
  function decode(kind: string, text: string, fields: readonly CursorField[]): CursorValue[] {
    if (text.length > MAX_CURSOR_LENGTH) throw invalidCursor('The cursor is too long');
    const dot = text.indexOf('.');
    const payload = text.slice(0, dot);
    const given = Buffer.from(text.slice(dot + 1));
    const expected = Buffer.from(check(payload));
    if (dot <= 0 || given.length !== expected.length || !timingSafeEqual(given, expected))
      throw invalidCursor('The cursor is not one this service issued');
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

  return {
    /** Encodes the position after the last item of a page for the listing `kind`. */
    encode(kind: string, values: readonly CursorValue[]): string {
      const payload = Buffer.from(JSON.stringify([kind, ...values]), 'utf8').toString('base64url');
      return `${payload}.${check(payload)}`;
    },
    decode,
    /** The seq cursor of a per-story listing (comments, flags), or null on the first page. */
    afterSeq(kind: string, cursor: string | undefined): string | null {
      return cursor ? (decode(kind, cursor, ['int8'])[0] as string) : null;
    },
  };
}

export type CursorCodec = ReturnType<typeof createCursorCodec>;

/** A cursor's text form: base64url payload, a dot, the check. */
const CURSOR_TEXT = `[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]{${CHECK_LENGTH}}`;

/**
 * The `cursor` query parameter of the API: a cursor's text form and length, or empty (the first page). Text
 * outside that form is refused by the schema, anything else that no page of this listing issued by `decode`:
 * both are 400 INVALID_CURSOR (error-handler.ts answers a query whose only fault is its cursor with that code).
 */
export const CursorParam = Type.Optional(
  Type.String({
    maxLength: MAX_CURSOR_LENGTH,
    pattern: `^(${CURSOR_TEXT})?$`,
    description:
      'Opaque: `nextCursor` of the previous page, as it was answered (empty: the first page). Any other text, or a cursor of another listing, is 400 INVALID_CURSOR.',
  }),
);

/**
 * The `cursor` of a page of the reader site or the console: held to a cursor's text form (base64url payload, a
 * dot, the check) and its length before anything decodes it, so a page's address carries nothing else there.
 */
export const PageCursorParam = Type.Optional(Type.String({ maxLength: MAX_CURSOR_LENGTH, pattern: `^${CURSOR_TEXT}$` }));

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
