import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { CompiledQuery } from 'kysely';
import type pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import type { Queryable } from './database.js';

/**
 * Bulk inserts with `COPY … FROM STDIN` (text format), through a Kysely transaction like any other statement.
 * PostgreSQL takes rows this way for about two thirds of the work of an `INSERT … SELECT FROM unnest(…)` of the
 * same rows (no array literals to parse, no function scan), which matters for the 100,000 payouts of a large
 * settlement run. Kysely has no COPY, so the statement and its data travel as one raw compiled query whose only
 * parameter is the data; both drivers of database.ts recognize that query (`copyData`) and hand it to
 * node-postgres' COPY stream (pg-copy-streams) or to PGlite's `/dev/blob`.
 */

const COPY_FROM_STDIN = /^COPY [a-z_]+ \([a-z_, ]+\) FROM STDIN$/;

/** A value as COPY's text format writes it: `\N` for null, backslash, tab, newline and return escaped. */
function field(value: string | null): string {
  if (value === null) return '\\N';
  return /[\\\t\n\r]/.test(value)
    ? value.replace(/[\\\t\n\r]/g, (c) => (c === '\\' ? '\\\\' : c === '\t' ? '\\t' : c === '\n' ? '\\n' : '\\r'))
    : value;
}

/** Rows in COPY's text format: one line per row, fields separated by tabs. */
export function copyText(rows: readonly (readonly (string | null)[])[]): string {
  let out = '';
  for (const row of rows) out += `${row.map(field).join('\t')}\n`;
  return out;
}

/** Inserts `data` (copyText of the rows, in the order of `columns`) into `table` on `q`'s connection. */
export async function copyRows(q: Queryable, table: string, columns: readonly string[], data: string): Promise<void> {
  const statement = `COPY ${table} (${columns.join(', ')}) FROM STDIN`;
  if (!COPY_FROM_STDIN.test(statement)) throw new Error(`copyRows: not a plain table and column list: ${statement}`);
  if (!data) return;
  await q.executeQuery(CompiledQuery.raw(statement, [data]));
}

/** For the drivers: the data of a copyRows query, or undefined for every other query. */
export function copyData(sql: string, parameters: readonly unknown[]): string | undefined {
  return parameters.length === 1 && typeof parameters[0] === 'string' && COPY_FROM_STDIN.test(sql) ? parameters[0] : undefined;
}

/** node-postgres: streams the data into the COPY on `client`; answers as a query result would. */
export async function copyIntoClient(client: pg.PoolClient, sql: string, data: string) {
  const stream = client.query(copyFrom(sql));
  await pipeline(Readable.from([Buffer.from(data, 'utf8')]), stream);
  return { command: 'COPY', rowCount: stream.rowCount, rows: [] };
}

/** PGlite: the same COPY reading the data from a blob (PGlite's `/dev/blob`). */
export function pgliteCopyStatement(sql: string): string {
  return sql.replace(/FROM STDIN$/, "FROM '/dev/blob'");
}
