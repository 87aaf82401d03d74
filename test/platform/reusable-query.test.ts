import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { reusableQuery } from '../../src/platform/db/reusable-query.js';
import type { Db } from '../../src/platform/db/database.js';
import { createTestDatabase } from '../helpers/app.js';

describe('reusable queries', () => {
  test("a statement built once runs with each call's own values, its constants kept", async () => {
    const shared = await createTestDatabase();
    const db = shared.database.db;
    try {
      const build = (q: Db, a: string, b: string) =>
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
    } finally {
      await shared.drop();
    }
  });

  test('a parameter that does not reach the statement as a value of its own is refused', async () => {
    const shared = await createTestDatabase();
    const db = shared.database.db;
    try {
      const unused = reusableQuery((q: Db, a: string) => q.selectNoFrom((eb) => [eb.val(a.length).as('n')]));
      await assert.rejects(unused(db, 'x'), /parameter 0 does not reach the statement/);
    } finally {
      await shared.drop();
    }
  });
});
