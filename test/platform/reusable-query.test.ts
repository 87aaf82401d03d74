import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { sql, type Kysely } from 'kysely';
import { reusablePageQuery, reusableQuery } from '../../src/platform/db/reusable-query.js';
import { openDatabase, type Db } from '../../src/platform/db/database.js';
import { markPrepared, preparedName } from '../../src/platform/db/prepared-statements.js';
import { withTestDatabase } from '../helpers/app.js';
import { needsPostgres } from '../helpers/needs.js';
import type { DB } from '../../src/tables.js';

/** The tests of named statements: PGlite has none, and they read pg_prepared_statements of one connection. */
const onPostgres = { skip: needsPostgres('PGlite runs every statement unnamed') };

describe('reusable queries', () => {
  test("a statement built once runs with each call's own values, its constants kept", () =>
    withTestDatabase(async ({ database: { db } }) => {
      const build = (q: Db<DB>, a: string, b: string) =>
        q.selectNoFrom((eb) => [eb.val(a).as('a'), eb.val(7).as('c'), eb.val(b).as('b'), eb.val(a).as('again')]);
      const reused = reusableQuery(build);
      await fc.assert(
        fc.asyncProperty(
          fc.string().map((s) => s.replace(/\0/g, '')),
          fc.string().map((s) => s.replace(/\0/g, '')),
          async (a, b) => {
            assert.deepEqual(await reused(db, a, b), await build(db, a, b).execute());
          },
        ),
        { numRuns: 30 },
      );
    }));

  test('a page query runs the first-page statement without a cursor and the other with one, as built per request', () =>
    withTestDatabase(async ({ database: { db } }) => {
      // the numbers 1..9 after the cursor (exclusive), at most `limit`: the two shapes differ by their WHERE
      const build = (q: Db<DB>, after: number | null, limit: number) => {
        let query = q.selectFrom(sql<{ n: number }>`(select generate_series(1, 9) as n)`.as('s')).select(sql<number>`n`.as('n'));
        if (after !== null) query = query.where(sql<number>`n`, '>', after);
        return query.orderBy('n').limit(limit);
      };
      const page = reusablePageQuery(build);
      await fc.assert(
        fc.asyncProperty(fc.option(fc.integer({ min: 0, max: 9 }), { nil: null }), fc.integer({ min: 1, max: 9 }), async (after, limit) => {
          assert.deepEqual(await page(db, after, limit), await build(db, after, limit).execute());
        }),
        { numRuns: 30 },
      );
    }));

  test('a parameter that does not reach the statement as a value of its own is refused', () =>
    withTestDatabase(async ({ database: { db } }) => {
      const unused = reusableQuery((q: Db<DB>, a: string) => q.selectNoFrom((eb) => [eb.val(a.length).as('n')]));
      await assert.rejects(unused(db, 'x'), /parameter 0 does not reach the statement/);
    }));

  test('on PostgreSQL a reusable statement goes by name: each connection parses it once, then only runs it', onPostgres, () =>
    withTestDatabase(async ({ ownerUrl }) => {
      const build = (q: Db<DB>, id: string) => q.selectNoFrom((eb) => [eb.val(id).as('id'), eb.val(3).as('n')]);
      const reused = reusableQuery(build);
      // one connection each (poolMax 1), straight to the server: pg_prepared_statements is per session
      const named = await openDatabase<DB>({ databaseUrl: ownerUrl!, dataDir: '', poolMax: 1 });
      const unnamed = await openDatabase<DB>({ databaseUrl: ownerUrl!, dataDir: '', poolMax: 1, preparedStatements: false });
      try {
        const prepared = (db: Db<DB>) =>
          sql<{ name: string; statement: string; runs: number }>`
            select name, statement, (generic_plans + custom_plans)::int as runs from pg_prepared_statements`
            .execute(db)
            .then((r) => r.rows);
        for (let i = 0; i < 10; i += 1) {
          assert.deepEqual(await reused(named.db, `story-${i}`), await build(named.db, `story-${i}`).execute());
          assert.deepEqual(await reused(unnamed.db, `story-${i}`), await build(unnamed.db, `story-${i}`).execute());
        }
        const [statement, ...others] = await prepared(named.db);
        assert.equal(others.length, 0);
        assert.match(statement!.name, /^rq_[0-9a-f]{24}$/);
        assert.equal(preparedName(statement!.statement), statement!.name, 'the text names itself');
        assert.equal(statement!.runs, 10, 'parsed once, run ten times by name');
        assert.deepEqual(await prepared(unnamed.db), [], 'with prepared statements off nothing is kept');
      } finally {
        await named.close();
        await unnamed.close();
      }
    }),
  );

  test('a marked text names the same statement on every instance, and no other text has its name', () => {
    const a = markPrepared('select 1');
    assert.equal(preparedName(a), preparedName(markPrepared('select 1')));
    assert.notEqual(preparedName(a), preparedName(markPrepared('select 2')));
    assert.equal(preparedName('select 1'), undefined);
    assert.equal(preparedName('/* prepared rq_x'), undefined);
  });

  test('a named statement whose result changed type under it (a migration while running) is answered unnamed', onPostgres, () =>
    withTestDatabase(async ({ ownerUrl, owner: { db: owner } }) => {
      await sql`create table prepared_probe (id text primary key, n int)`.execute(owner);
      await sql`insert into prepared_probe values ('a', 1)`.execute(owner);
      const named = await openDatabase<DB>({ databaseUrl: ownerUrl!, dataDir: '', poolMax: 1 });
      try {
        const reused = reusableQuery((q: Db<DB>, id: string) =>
          (q as unknown as Kysely<{ prepared_probe: { id: string; n: unknown } }>)
            .selectFrom('prepared_probe')
            .select('n')
            .where('id', '=', id),
        );
        assert.deepEqual(await reused(named.db, 'a'), [{ n: 1 }]);
        await sql`alter table prepared_probe alter column n type text using n::text`.execute(owner);
        assert.deepEqual(await reused(named.db, 'a'), [{ n: '1' }], 'answered, from the new column type');
        assert.deepEqual(await reused(named.db, 'a'), [{ n: '1' }], 'and again, unnamed on that connection');
      } finally {
        await named.close();
      }
    }),
  );
});
