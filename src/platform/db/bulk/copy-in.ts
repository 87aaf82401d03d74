// Keeps "settlement run, 100,000 contributions": 1.86-2.03 s of process CPU, 2.43-2.59 s with COPY's text format (same sitting).
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { CompiledQuery } from 'kysely';
import type { PGlite } from '@electric-sql/pglite';
import type pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import type { Queryable } from '../database.js';

/**
 * Bulk inserts with `COPY … FROM STDIN WITH (FORMAT binary)`, through a Kysely transaction like any other
 * statement, its rows streamed as the caller produces them (the database inserts the first rows while the
 * process encodes the next, without a statement and a round trip per batch). PostgreSQL takes rows this way
 * for about two thirds of the work of an `INSERT … SELECT FROM unnest(…)` of the same rows (no array literals
 * to parse, no function scan), and the binary format spares it parsing each value from text (two timestamps
 * per payout cost about as much to parse as the rest of the row: 100,000 payouts into a bare table in
 * 170-205 ms against 260-300 ms as text). Kysely has no COPY, so the statement and its data travel as one raw
 * compiled query whose only parameter is the data source; both drivers of database.ts recognize that query
 * (`copySource`) and stream it into node-postgres' COPY stream (pg-copy-streams), or collect it for PGlite's
 * `/dev/blob`.
 */
const COPY_FROM_STDIN = /^COPY [a-z_]+ \([a-z_, ]+\) FROM STDIN WITH \(FORMAT binary\)$/;

/** COPY binary's file header: signature, flags (none), header extension length (none); and its trailer. */
const HEADER = Buffer.from('PGCOPY\n\xff\r\n\0\0\0\0\0\0\0\0\0', 'latin1');
const TRAILER = Buffer.from([0xff, 0xff]);
/** Microseconds from the Unix epoch to PostgreSQL's (2000-01-01T00:00:00Z). */
const PG_EPOCH_MICROS = Date.UTC(2000, 0, 1) * 1000;
const INTEGER = /^-?[0-9]+$/;

/**
 * The encoded fields of the numerics written last (a settlement's million amounts take a few hundred values): up
 * to NUMERICS of them, then the cache starts again.
 */
const numerics = new Map<string, Uint8Array>();
const NUMERICS = 4_096;

/** Texts up to this many characters are tried as ASCII first (BinaryRows.text). */
const SHORT_TEXT = 64;

/** The type oid of int8, the element type of an int8[] in its binary form. */
const INT8_OID = 20;

/**
 * Rows in COPY's binary format (PostgreSQL manual, "COPY", "Binary Format"): per row the number of fields,
 * then per field its length in bytes (-1 for null) and its value in the type's binary form (`…_send`).
 * Each value must be written with the method of its column's type, in the order of the statement's columns.
 */
export class BinaryRows {
  private buf: Buffer;
  private off = 0;

  constructor(sizeHint = 1 << 16) {
    this.buf = Buffer.allocUnsafe(Math.max(sizeHint, 64));
  }

  /** Starts a row of `fields` values. */
  row(fields: number): this {
    this.room(2);
    this.off = this.buf.writeInt16BE(fields, this.off);
    return this;
  }

  /** text (UTF-8), or null. */
  text(value: string | null): this {
    if (value === null) return this.null();
    const length = value.length;
    this.room(4 + length * 3);
    const buf = this.buf;
    const start = this.off + 4;
    // short ASCII (ids, enums) is copied here: a call into the buffer's UTF-8 encoder costs more than the loop
    if (length <= SHORT_TEXT) {
      let i = 0;
      for (; i < length; i++) {
        const c = value.charCodeAt(i);
        if (c > 0x7f) break;
        buf[start + i] = c;
      }
      if (i === length) {
        buf.writeInt32BE(length, this.off);
        this.off = start + length;
        return this;
      }
    }
    const bytes = buf.write(value, start, 'utf8');
    buf.writeInt32BE(bytes, this.off);
    this.off = start + bytes;
    return this;
  }

  /** integer (int4). */
  int4(value: number): this {
    this.room(8);
    this.buf.writeInt32BE(4, this.off);
    this.off = this.buf.writeInt32BE(value, this.off + 4);
    return this;
  }

  /** bigint (int8), from a bigint or a safe integer. */
  int8(value: bigint | number): this {
    if (typeof value === 'bigint') {
      this.room(12);
      this.buf.writeInt32BE(8, this.off);
      this.off = this.buf.writeBigInt64BE(value, this.off + 4);
      return this;
    }
    if (!Number.isSafeInteger(value)) throw new Error(`BinaryRows.int8: not a safe integer: ${value}`);
    this.room(12);
    this.buf.writeInt32BE(8, this.off);
    this.off = this.int64(value, this.off + 4);
    return this;
  }

  /** timestamptz: microseconds since 2000-01-01 UTC (a Date has milliseconds; the count is a safe integer). */
  timestamptz(at: Date): this {
    this.room(12);
    this.buf.writeInt32BE(8, this.off);
    this.off = this.int64(at.getTime() * 1000 - PG_EPOCH_MICROS, this.off + 4);
    return this;
  }

  /**
   * numeric of an integer (scale 0), from its decimal string: base-10000 digits, most significant first,
   * without trailing zero digits (their place is kept by the weight), as numeric_send writes them.
   */
  numeric(value: string): this {
    const known = numerics.get(value);
    if (known) return this.bytes(known);
    const from = this.off;
    this.encodeNumeric(value);
    if (numerics.size === NUMERICS) numerics.clear();
    numerics.set(value, new Uint8Array(this.buf.subarray(from, this.off)));
    return this;
  }

  private encodeNumeric(value: string): void {
    if (!INTEGER.test(value)) throw new Error(`BinaryRows.numeric: not an integer: ${value.slice(0, 40)}`);
    const negative = value.charCodeAt(0) === 45; // '-'
    let start = negative ? 1 : 0;
    while (start < value.length - 1 && value.charCodeAt(start) === 48) start++; // leading zeros
    const length = value.length - start;
    if (length === 1 && value.charCodeAt(start) === 48) {
      // zero: no digits, weight 0, positive
      this.room(12);
      this.buf.writeInt32BE(8, this.off);
      this.buf.fill(0, this.off + 4, this.off + 12);
      this.off += 12;
      return;
    }
    // the base-10000 digits: the first holds the 1-4 leading decimal digits (`lead`), the others 4 each
    const groups = Math.ceil(length / 4);
    const lead = length - (groups - 1) * 4;
    let ndigits = groups;
    while (ndigits > 1 && digit(value, start, lead, ndigits - 1) === 0) ndigits--;
    this.room(12 + ndigits * 2);
    this.buf.writeInt32BE(8 + ndigits * 2, this.off);
    this.buf.writeInt16BE(ndigits, this.off + 4);
    this.buf.writeInt16BE(groups - 1, this.off + 6); // weight: the power of 10000 of the first digit
    this.buf.writeUInt16BE(negative ? 0x4000 : 0, this.off + 8);
    this.buf.writeInt16BE(0, this.off + 10); // display scale
    let at = this.off + 12;
    for (let g = 0; g < ndigits; g++) at = this.buf.writeInt16BE(digit(value, start, lead, g), at);
    this.off = at;
  }

  /**
   * bigint[] (int8[], one dimension, no nulls) of non-negative safe integers: the array header (dimensions, null
   * flag, element type, length, lower bound 1), then each element as an int8.
   */
  int8Array(values: readonly number[]): this {
    this.room(24 + values.length * 12);
    this.buf.writeInt32BE(20 + values.length * 12, this.off);
    this.buf.writeInt32BE(1, this.off + 4); // dimensions
    this.buf.writeInt32BE(0, this.off + 8); // no nulls
    this.buf.writeInt32BE(INT8_OID, this.off + 12);
    this.buf.writeInt32BE(values.length, this.off + 16);
    let at = this.buf.writeInt32BE(1, this.off + 20); // lower bound
    for (const v of values) {
      if (!Number.isSafeInteger(v) || v < 0) throw new Error(`BinaryRows.int8Array: not a non-negative safe integer: ${v}`);
      at = this.int64(v, this.buf.writeInt32BE(8, at));
    }
    this.off = at;
    return this;
  }

  /** bytea: the bytes as they are. */
  bytea(value: Uint8Array): this {
    this.room(4 + value.length);
    this.off = this.buf.writeInt32BE(value.length, this.off);
    this.buf.set(value, this.off);
    this.off += value.length;
    return this;
  }

  null(): this {
    this.room(4);
    this.off = this.buf.writeInt32BE(-1, this.off);
    return this;
  }

  /** The rows written (copyRows adds the header and the trailer). */
  finish(): Buffer {
    return this.buf.subarray(0, this.off);
  }

  /** Encoded field bytes as they are (a length and a value written before). */
  private bytes(field: Uint8Array): this {
    this.room(field.length);
    const buf = this.buf;
    const at = this.off;
    for (let i = 0; i < field.length; i++) buf[at + i] = field[i]!;
    this.off = at + field.length;
    return this;
  }

  /** A safe integer as a big-endian int64 at `at` (room made by the caller); the offset after it. */
  private int64(value: number, at: number): number {
    const high = Math.floor(value / 2 ** 32);
    at = this.buf.writeInt32BE(high, at);
    return this.buf.writeUInt32BE(value - high * 2 ** 32, at);
  }

  private room(bytes: number): void {
    if (this.off + bytes <= this.buf.length) return;
    const grown = Buffer.allocUnsafe(Math.max(this.buf.length * 2, this.off + bytes));
    this.buf.copy(grown, 0, 0, this.off);
    this.buf = grown;
  }
}

/** Base-10000 digit `g` (0 = most significant) of the decimal digits of `s` from `start`, the first digit holding `lead` of them. */
function digit(s: string, start: number, lead: number, g: number): number {
  const from = g === 0 ? start : start + lead + (g - 1) * 4;
  const to = g === 0 ? start + lead : from + 4;
  let n = 0;
  for (let i = from; i < to; i++) n = n * 10 + (s.charCodeAt(i) - 48);
  return n;
}

/** The data of a copyRows query: chunks of BinaryRows, produced as the COPY consumes them. */
class CopySource {
  constructor(private readonly chunks: Iterable<Uint8Array> | AsyncIterable<Uint8Array>) {}

  /** The COPY data: the header, the chunks, the trailer. */
  async *data(): AsyncGenerator<Uint8Array> {
    yield HEADER;
    for await (const chunk of this.chunks) if (chunk.length) yield chunk;
    yield TRAILER;
  }
}

/**
 * Inserts rows into `table` on `q`'s connection: the chunks (BinaryRows of the rows, in the order of `columns`)
 * are read one after the other while the database inserts the ones before (an iterable that builds each chunk
 * when asked lets the process and the database work at the same time).
 */
export async function copyRows(
  q: Pick<Queryable<unknown>, 'executeQuery'>,
  table: string,
  columns: readonly string[],
  chunks: Iterable<Uint8Array> | AsyncIterable<Uint8Array>,
): Promise<void> {
  const statement = `COPY ${table} (${columns.join(', ')}) FROM STDIN WITH (FORMAT binary)`;
  if (!COPY_FROM_STDIN.test(statement)) throw new Error(`copyRows: not a plain table and column list: ${statement}`);
  await q.executeQuery(CompiledQuery.raw(statement, [new CopySource(chunks)]));
}

/** For the drivers: the data source of a copyRows query, or undefined for every other query. */
export function copySource(sql: string, parameters: readonly unknown[]): CopySource | undefined {
  return parameters.length === 1 && parameters[0] instanceof CopySource && COPY_FROM_STDIN.test(sql) ? parameters[0] : undefined;
}

/**
 * The time a COPY may take on node-postgres. A pool's statement limit (30 s by default) guards a request against a
 * server gone mid-query; a COPY is bulk work whose length grows with its rows (a settlement's million payouts
 * take 12-17 s of a 2-core machine's database alone), and the process feeds it, so it gets a longer one.
 */
export const COPY_TIMEOUT_MS = 10 * 60_000;

/** node-postgres: streams the data into the COPY on `client`; answers as a query result would. */
export async function copyIntoClient(client: pg.PoolClient, sql: string, source: CopySource, timeoutMs: number) {
  // node-postgres reads a per-query limit from the submitted object before the pool's own
  const stream = client.query(Object.assign(copyFrom(sql), { query_timeout: timeoutMs }));
  const fed = pipeline(Readable.from(source.data(), { objectMode: false }), stream);
  // a pipeline settles only once its source has stopped too, and a source awaiting what never comes cannot be
  // stopped: the COPY's own failure (its time limit) answers at once, the source ends when it can
  const failed = new Promise<never>((_, reject) => stream.once('error', reject));
  fed.catch(() => undefined);
  failed.catch(() => undefined);
  await Promise.race([fed, failed]);
  return { command: 'COPY', rowCount: stream.rowCount, rows: [] };
}

/**
 * PGlite: the same COPY reading the whole data from a blob (PGlite's `/dev/blob`). PGlite runs in this process
 * and reads no stream, so the chunks are all built first and held twice for a moment (the chunks and the blob).
 */
export async function copyIntoPglite(client: PGlite, sql: string, source: CopySource) {
  const parts: Uint8Array<ArrayBuffer>[] = [];
  for await (const chunk of source.data()) parts.push(chunk as Uint8Array<ArrayBuffer>);
  return client.query(sql.replace(/FROM STDIN /, "FROM '/dev/blob' "), [], { blob: new Blob(parts) });
}
