import type { ColumnType } from 'kysely';

/** The column types the row types of every context share (each context declares its rows in src/<context>/rows.ts). */

export type CreatedAt = ColumnType<Date, Date | string | undefined, never>;

export type UpdatedAt = ColumnType<Date, Date | string | undefined, Date | string>;

/**
 * A PostgreSQL int8 as the drivers hand it over: a decimal string (both drivers are set so), never a JS number,
 * which loses precision past 2^53. Money columns are numeric(78,0), also strings, read with BigInt().
 */
export type Int8 = string;

/** A column written once and never updated (audit rows: the database refuses an update too, migrations/0001_platform.sql). */
export type Frozen<T> = ColumnType<T, T, never>;

/**
 * An owner's list of its table names (`as const`), checked against its row types: the list itself when it names
 * every table of `D`, otherwise a type that names the tables missing, so the assignment fails to compile.
 */
export type TableNames<D, L extends readonly (keyof D)[]> = [Exclude<keyof D, L[number]>] extends [never]
  ? L
  : { missing: Exclude<keyof D, L[number]> };
