import { CompiledQuery, type Compilable, type RawBuilder } from 'kysely';
import type { Queryable } from './database.js';
import { markPrepared } from './prepared-statements.js';

/** What a reusable statement's `build` answers. */
type Statement<R> = Compilable<R> | RawBuilder<R>;

/**
 * A statement built with the query builder once and run many times with new values: the first call builds it
 * with a placeholder for each parameter and keeps the compiled SQL; every call then runs that SQL with its own
 * values. Building a statement costs tens of µs of CPU per request (about 125 µs for the story detail's one
 * query, about 25 µs for the preference merge), which a hot path pays on every request.
 *
 * `build` answers a query builder's statement or a `sql` template (for SQL the builder does not write, such as one
 * statement of several data-modifying CTEs). It must use no value but its parameters and constants (no clock, no
 * configuration that can change): the values it sees on its first call are the ones every later call runs with.
 * Each parameter must reach the statement as a value of its own (not inside a list, whose length would be fixed by
 * the first call); an array passes as one value (`unnest(${ids}::text[])`), whatever its length. Both drivers
 * compile PostgreSQL's SQL, so one compiled text serves them all.
 *
 * The text is marked as a named statement (platform/db/prepared-statements.ts): on node-postgres with prepared
 * statements on, each connection parses it once and PostgreSQL keeps its plan, instead of planning it again on
 * every call.
 */
export function reusableQuery<T, P extends unknown[], R>(build: (db: Queryable<T>, ...params: P) => Statement<R>) {
  let compiled: { sql: string; slots: ({ param: number } | { value: unknown })[] } | undefined;
  return async (db: Queryable<T>, ...params: P): Promise<R[]> => {
    compiled ??= compile(db, build, params.length);
    const values = compiled.slots.map((slot) => ('param' in slot ? params[slot.param] : slot.value));
    return (await db.executeQuery<R>(CompiledQuery.raw(compiled.sql, values))).rows;
  };
}

/**
 * A reusable statement of a keyset page, whose cursor is either absent (the first page) or a value: two statements,
 * one per shape (`build` gets null for the first page, the cursor's placeholder for the other), each built once on
 * first use; a call runs the one its cursor asks for.
 */
export function reusablePageQuery<T, C, P extends unknown[], R>(build: (db: Queryable<T>, cursor: C | null, ...params: P) => Statement<R>) {
  const first = reusableQuery((db: Queryable<T>, ...params: P) => build(db, null, ...params));
  const after = reusableQuery((db: Queryable<T>, cursor: C, ...params: P) => build(db, cursor, ...params));
  return (db: Queryable<T>, cursor: C | null, ...params: P): Promise<R[]> =>
    cursor === null ? first(db, ...params) : after(db, cursor, ...params);
}

/** Text no parameter can hold (PostgreSQL text cannot hold NUL), naming parameter `i`. */
const placeholder = (i: number) => `\u0000reusable-query-parameter-${i}`;

function compile<T, P extends unknown[], R>(db: Queryable<T>, build: (db: Queryable<T>, ...params: P) => Statement<R>, count: number) {
  const names = Array.from({ length: count }, (_, i) => placeholder(i));
  const statement = build(db, ...(names as P));
  // a `sql` template compiles against the database it will run on; a builder's statement knows it already
  const { sql, parameters } = 'isRawBuilder' in statement ? statement.compile(db) : statement.compile();
  const slots = parameters.map((value) => {
    const param = typeof value === 'string' ? names.indexOf(value) : -1;
    return param >= 0 ? { param } : { value };
  });
  const unused = names.findIndex((_, i) => !slots.some((s) => 'param' in s && s.param === i));
  if (unused >= 0) throw new Error(`reusableQuery: parameter ${unused} does not reach the statement as a value of its own`);
  return { sql: markPrepared(sql), slots };
}
