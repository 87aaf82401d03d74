import { sql, type RawBuilder } from 'kysely';

/**
 * Keyset pagination over timestamps must compare exactly what the database stores. timestamptz keeps
 * microseconds and a JS Date only milliseconds, so a timestamp sort key travels as PostgreSQL text with
 * microseconds (`2026-11-22T10:00:00.123456Z`) and is cast back with `timestampParam`.
 */
export function sortableTimestamp(column: string): RawBuilder<string> {
  return sql<string>`to_char(${sql.ref(column)} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;
}
