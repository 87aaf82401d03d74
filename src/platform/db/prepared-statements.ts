import { createHash } from 'node:crypto';

/**
 * Named (prepared) statements for the hot statements that reusableQuery builds once.
 *
 * node-postgres sends a query as an unnamed statement, which PostgreSQL parses and plans again on every
 * execution. For the short lookups of a cache miss, planning is most of the database's work: the story detail's
 * one query ran 6,000 times a second unnamed and 21,000 prepared on a 2-core machine (docs/adr/0026-hot-statements-built-once.md). A named statement is parsed once per connection, and PostgreSQL keeps its plan.
 *
 * A statement asks to be named by the comment that starts its text (`markPrepared`); the driver reads it back
 * (`preparedName`) and sends the query by that name when the database was opened with prepared statements on
 * (DATABASE_PREPARED_STATEMENTS, on by default). The name is a hash of the text, so every instance and
 * connection names one statement alike and two texts never share a name. A pooler that hands one client's
 * statements to different server connections without tracking them (PgBouncer before 1.21, or 1.21 and later
 * without `max_prepared_statements`, in transaction mode) needs the setting off: docs/operators.md,
 * "Behind PgBouncer". PGlite ignores the comment.
 */

const PREFIX = '/* prepared ';
const SUFFIX = ' */ ';

/** `text` with the comment that names it as a prepared statement. */
export function markPrepared(text: string): string {
  const name = `rq_${createHash('sha1').update(text).digest('hex').slice(0, 24)}`;
  return `${PREFIX}${name}${SUFFIX}${text}`;
}

/** The statement name a text was marked with (markPrepared), or undefined for every other query. */
export function preparedName(text: string): string | undefined {
  if (!text.startsWith(PREFIX)) return undefined;
  const end = text.indexOf(SUFFIX, PREFIX.length);
  return end === -1 ? undefined : text.slice(PREFIX.length, end);
}
