import assert from 'node:assert/strict';
import { gzipSync } from 'node:zlib';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { sql } from 'kysely';
import {
  insertPayouts,
  insertSettlement,
  completeSettlement,
  reservePayoutSeqs,
  type NewPayout,
} from '../../src/modules/settlements/repository.js';
import { statementPipeline } from '../../src/platform/db/statement-pipeline.js';
import { copyRows, copyText } from '../../src/platform/db/copy-in.js';
import { createTestDatabase } from '../helpers/app.js';
import { fuzzRuns } from '../helpers/fuzz.js';

/** How payouts are stored: the bulk insert's COPY text and the per-statement settlement key. */

type Payout = Omit<NewPayout, 'seq'>;

function payout(id: string, overrides: Partial<Payout> = {}): Payout {
  return {
    id,
    story_id: 'st_1',
    role: 'WRITER',
    beneficiary_kind: 'BOT',
    beneficiary_id: 'bot_1',
    linked_human_id: null,
    recipient_id: null,
    weight: '3',
    amount_base: '1000000000000000000000000000001',
    status: 'PENDING_RECIPIENT',
    status_reason: null,
    ...overrides,
  };
}

/** The payouts with consecutive seq values from `first` (a block reservePayoutSeqs returned). */
function inBlock(first: bigint | null, payouts: Payout[]): NewPayout[] {
  return payouts.map((p, i) => ({ ...p, seq: (first! + BigInt(i)).toString() }));
}

async function settlement(db: Awaited<ReturnType<typeof createTestDatabase>>['database']['db'], id: string) {
  await sql`
    insert into settlements (id, policy_version, pool_base, escrow_base, paid_base, token_decimals, windows_closed_before,
      story_count, contribution_count, payout_count, role_totals, inputs, created_by, created_at)
    values (${id}, 1, 10, 0, 10, 6, now(), 1, 1, 1, '{}', '{}', 'tester', now())`.execute(db);
}

describe('payout storage', () => {
  test('COPY text reads back as the very strings it was built from (tabs, newlines, backslashes, \\N, NULL)', async () => {
    const shared = await createTestDatabase();
    const db = shared.database.db;
    try {
      await sql`create table copy_probe (n integer, a text, b text)`.execute(db);
      const text = fc.oneof(
        fc.string(),
        fc.string({ unit: 'binary' }),
        fc.constantFrom('\\N', 'NULL', '', ' ', '\t', '\\', '\\t', 'a\tb', '\n', '\r\n', '.', '\\.'),
      );
      const cell = fc.option(text, { nil: null }).map((v) => (v === null ? null : v.replace(/\0/g, ''))); // text holds no NUL
      await fc.assert(
        fc.asyncProperty(fc.array(fc.tuple(cell, cell), { maxLength: 20 }), async (pairs) => {
          await sql`truncate copy_probe`.execute(db);
          await db
            .transaction()
            .execute((tx) => copyRows(tx, 'copy_probe', ['n', 'a', 'b'], copyText(pairs.map(([a, b], i) => [String(i), a, b]))));
          const { rows } = await sql<{ a: string | null; b: string | null }>`select a, b from copy_probe order by n`.execute(db);
          assert.deepEqual(
            rows.map((r) => [r.a, r.b]),
            pairs,
          );
        }),
        { numRuns: fuzzRuns(300) },
      );
    } finally {
      await shared.drop();
    }
  });

  test('a run reserves one block of payout seqs: blocks never overlap, and later draws come after them', async () => {
    const shared = await createTestDatabase();
    const db = shared.database.db;
    try {
      const [a, b, none] = await db
        .transaction()
        .execute(async (tx) => [await reservePayoutSeqs(tx, 5), await reservePayoutSeqs(tx, 3), await reservePayoutSeqs(tx, 0)]);
      assert.equal(none, null);
      assert.equal(b! - a!, 5n, 'the second block starts right after the first');
      const { rows } = await sql<{ next: string }>`select nextval(pg_get_serial_sequence('payouts', 'seq'))::text as next`.execute(db);
      assert.equal(BigInt(rows[0]!.next), b! + 3n);
    } finally {
      await shared.drop();
    }
  });

  test('a bulk insert stores every column of every payout exactly, and refuses a settlement that does not exist', async () => {
    const shared = await createTestDatabase();
    const db = shared.database.db;
    try {
      await settlement(db, 'se_a');
      const rows = [
        payout('po_1'),
        payout('po_2', {
          role: 'RISK',
          beneficiary_kind: 'HUMAN',
          beneficiary_id: 'actor "q" \\ x',
          linked_human_id: 'h_1',
          recipient_id: 'rcp_1',
        }),
        payout('po_3', { status: 'FROZEN', status_reason: 'STORY_FROZEN', story_id: 'st_2', weight: '1' }),
      ];
      await db
        .transaction()
        .execute(async (tx) =>
          insertPayouts(tx, 'se_a', new Date('2026-11-23T00:00:00Z'), inBlock(await reservePayoutSeqs(tx, rows.length), rows)),
        );
      const stored = await db
        .selectFrom('payouts')
        .select(['id', 'settlement_id', 'story_id', 'role', 'beneficiary_kind', 'beneficiary_id', 'bot_id', 'linked_human_id'])
        .select(['recipient_id', 'weight', 'amount_base', 'status', 'status_reason'])
        .orderBy('seq')
        .execute();
      assert.deepEqual(
        stored,
        rows.map((p) => ({ ...p, settlement_id: 'se_a', bot_id: p.beneficiary_kind === 'BOT' ? p.beneficiary_id : null })),
      );

      // the settlement key holds like a foreign key: no payout of an unknown settlement, none moved, none orphaned
      await assert.rejects(
        db
          .transaction()
          .execute(async (tx) => insertPayouts(tx, 'se_missing', new Date(), inBlock(await reservePayoutSeqs(tx, 1), [payout('po_4')]))),
        /settlement that does not exist/,
      );
      await assert.rejects(
        sql`insert into payouts (id, settlement_id, story_id, role, beneficiary_kind, beneficiary_id, weight, amount_base, status,
          created_at, updated_at) values ('po_5', 'se_missing', 'st_1', 'WRITER', 'BOT', 'bot_1', 1, 1, 'PAYABLE', now(), now())`.execute(
          db,
        ),
        /settlement that does not exist/,
      );
      await settlement(db, 'se_b');
      await assert.rejects(sql`update payouts set settlement_id = 'se_b' where id = 'po_1'`.execute(db), /stays in its settlement/);
      await assert.rejects(sql`delete from settlements where id = 'se_a'`.execute(db), /has payouts/);
      await assert.rejects(sql`update settlements set id = 'se_c' where id = 'se_a'`.execute(db), /has payouts/);
      await sql`delete from settlements where id = 'se_b'`.execute(db); // no payouts: nothing to keep
      const count = await db
        .selectFrom('payouts')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .executeTakeFirstOrThrow();
      assert.equal(count.n, '3');
    } finally {
      await shared.drop();
    }
  });
  test('a settlement cannot commit without its published inputs; pipelined batches commit or fail together', async () => {
    const shared = await createTestDatabase();
    const db = shared.database.db;
    const row = (id: string) => ({
      id,
      policy_version: 1,
      pool_base: '10',
      escrow_base: '0',
      paid_base: '10',
      token_decimals: 6,
      windows_closed_before: new Date(),
      story_count: 1,
      contribution_count: 2,
      payout_count: 2,
      role_totals: '{}',
      created_by: 'tester',
      created_at: new Date(),
    });
    try {
      await assert.rejects(
        db.transaction().execute((tx) => insertSettlement(tx, row('se_no_inputs'))),
        /commits without its published inputs/,
      );
      // batches and inputs sent without waiting: all stored once the pipeline is done
      await db.transaction().execute(async (tx) => {
        await insertSettlement(tx, row('se_piped'));
        const [p1, p2] = inBlock(await reservePayoutSeqs(tx, 2), [payout('po_p1'), payout('po_p2')]);
        const writes = statementPipeline();
        await writes.send(insertPayouts(tx, 'se_piped', new Date(), [p1!]));
        await writes.send(insertPayouts(tx, 'se_piped', new Date(), [p2!]));
        await writes.send(completeSettlement(tx, 'se_piped', 2, gzipSync(JSON.stringify({ contributions: [] }))));
        await writes.done();
      });
      const piped = await db.selectFrom('payouts').select('id').where('settlement_id', '=', 'se_piped').orderBy('seq').execute();
      assert.deepEqual(
        piped.map((p) => p.id),
        ['po_p1', 'po_p2'],
      );
      // a failing batch fails the pipeline with its own error, and the transaction leaves nothing behind
      await assert.rejects(
        db.transaction().execute(async (tx) => {
          await insertSettlement(tx, row('se_broken'));
          const [b1, again] = inBlock(await reservePayoutSeqs(tx, 2), [payout('po_b1'), payout('po_b1')]); // same id again
          const writes = statementPipeline();
          await writes.send(insertPayouts(tx, 'se_broken', new Date(), [b1!]));
          await writes.send(insertPayouts(tx, 'se_broken', new Date(), [again!]));
          await writes.send(completeSettlement(tx, 'se_broken', 2, gzipSync('{}')));
          await writes.done();
        }),
        /duplicate key/,
      );
      const broken = await db.selectFrom('settlements').select('id').where('id', 'in', ['se_broken', 'se_no_inputs']).execute();
      assert.deepEqual(broken, []);
    } finally {
      await shared.drop();
    }
  });
});
