import assert from 'node:assert/strict';
import { gzipSync } from 'node:zlib';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { DB } from '../../src/tables.js';
import {
  insertPayouts,
  insertSettlement,
  completeSettlement,
  reservePayoutSeqs,
  type NewPayout,
} from '../../src/rewards/settlements/repository.js';
import { statementPipeline } from '../../src/platform/db/bulk/statement-pipeline.js';
import { BinaryRows, copyRows } from '../../src/platform/db/bulk/copy-in.js';
import { createTestDatabase } from '../helpers/app.js';
import { fuzzRuns } from '../helpers/fuzz.js';
import { insertSettlementRow } from './support.js';

/** How payouts are stored: the bulk insert's COPY text and the per-statement settlement key. */

type Payout = Omit<NewPayout, 'seq' | 'id'>;

function payout(overrides: Partial<Payout> = {}): Payout {
  return {
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

/** The payouts with consecutive seq values from `first` (a block reservePayoutSeqs returned), each with the id a run gives it. */
function inBlock(first: bigint | null, payouts: Payout[]): NewPayout[] {
  return payouts.map((p, i) => ({ ...p, seq: Number(first!) + i, id: `po-${Number(first!) + i}` }));
}

/** A payout row written by hand with the next seq and its id, in settlement `settlementId`. */
const insertOne = (db: Kysely<DB>, settlementId: string, id: RawBuilder<unknown> = sql`'po-' || s`) =>
  sql`insert into payouts (id, seq, settlement_id, story_id, role, beneficiary_kind, beneficiary_id, weight, amount_base, status,
    created_at, updated_at)
    select ${id}, s, ${settlementId}, 'st_1', 'WRITER', 'BOT', 'bot_1', 1, 1, 'PAYABLE', now(), now()
    from nextval(pg_get_serial_sequence('payouts', 'seq')) s`.execute(db);

describe('payout storage', () => {
  test('binary COPY reads back as the very values it was built from (text, int4, int8, int8[], numeric, timestamptz, bytea, NULL)', async () => {
    const shared = await createTestDatabase();
    const db = shared.owner.db; // a table of its own: the runtime role may create none
    try {
      await sql`create table copy_probe (i bigint, n bigint, m bigint, a text, b text, c numeric(78, 0), d timestamptz, k integer, j bytea, s bigint[])`.execute(
        db,
      );
      const text = fc.oneof(
        fc.string(),
        fc.string({ unit: 'binary' }),
        // past the short-ASCII path: long texts, ASCII and not
        fc.string({ minLength: 60, maxLength: 200 }),
        fc.string({ unit: 'binary', minLength: 60, maxLength: 200 }),
        fc.constantFrom('\\N', 'NULL', '', ' ', '\t', '\\', 'a\tb', '\n', '\r\n', '.', '\\.', 'é', '🙂'),
      );
      const cell = fc.option(text, { nil: null }).map((v) => (v === null ? null : v.replace(/\0/g, ''))); // text holds no NUL
      const integer = fc.oneof(
        fc.bigInt({ min: -(10n ** 78n - 1n), max: 10n ** 78n - 1n }),
        fc.bigInt({ min: -100_000n, max: 100_000n }),
        fc.constantFrom(0n, 10_000n, 10n ** 8n, 10n ** 20n, -(10n ** 12n), 10n ** 77n, 10n ** 78n - 1n),
      );
      const time = fc.date({ min: new Date('0001-01-01T00:00:00Z'), max: new Date('9999-12-31T23:59:59Z'), noInvalidDate: true });
      // any bytes, and proofs' lengths (32-byte hashes one after the other)
      const bytes = fc.oneof(fc.uint8Array({ maxLength: 300 }), fc.uint8Array({ minLength: 32 * 17, maxLength: 32 * 17 }));
      const row = fc.record({
        n: fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }),
        // int8 from a number: any safe integer, and around the high word's edges
        m: fc.oneof(
          fc.maxSafeInteger(),
          fc.integer({ min: -(2 ** 33), max: 2 ** 33 }),
          fc.constantFrom(-1, 0, 2 ** 32 - 1, 2 ** 32, -(2 ** 32)),
        ),
        a: cell,
        b: cell,
        c: integer,
        d: time,
        k: fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }),
        j: bytes,
        // seqs: empty, small, and past 2^32 (the high word), up to the largest safe integer
        s: fc.array(fc.oneof(fc.nat(1000), fc.integer({ min: 2 ** 32 - 2, max: 2 ** 32 + 2 }), fc.maxSafeNat()), { maxLength: 40 }),
      });
      await fc.assert(
        fc.asyncProperty(fc.array(row, { maxLength: 20 }), async (rows) => {
          await sql`truncate copy_probe`.execute(db);
          const data = new BinaryRows(16);
          rows.forEach((r, i) =>
            data
              .row(10)
              .int8(i)
              .int8(r.n)
              .int8(r.m)
              .text(r.a)
              .text(r.b)
              .numeric(r.c.toString())
              .timestamptz(r.d)
              .int4(r.k)
              .bytea(r.j)
              .int8Array(r.s),
          );
          await db
            .transaction()
            .execute((tx) => copyRows(tx, 'copy_probe', ['i', 'n', 'm', 'a', 'b', 'c', 'd', 'k', 'j', 's'], [data.finish()]));
          // the time as milliseconds since 1970, read as text (the drivers' own date parsing differs for early years)
          const { rows: stored } = await sql<{
            n: string;
            m: string;
            a: string | null;
            b: string | null;
            c: string;
            d: string;
            k: number;
            j: string;
            s: string;
          }>`
            select n::text, m::text, a, b, c::text, (extract(epoch from d) * 1000)::bigint::text as d, k, encode(j, 'hex') as j, s::text as s from copy_probe order by i`.execute(
            db,
          );
          assert.deepEqual(
            stored.map((r) => [r.n, r.m, r.a, r.b, r.c, r.d, r.k, r.j, r.s]),
            rows.map((r) => [
              r.n.toString(),
              String(r.m),
              r.a,
              r.b,
              r.c.toString(),
              String(r.d.getTime()),
              r.k,
              Buffer.from(r.j).toString('hex'),
              `{${r.s.join(',')}}`,
            ]),
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
      await insertSettlementRow(db, 'se_a');
      const rows = await db.transaction().execute(async (tx) => {
        const rows = inBlock(await reservePayoutSeqs(tx, 3), [
          payout(),
          payout({
            role: 'RISK',
            beneficiary_kind: 'HUMAN',
            beneficiary_id: 'actor "q" \\ x',
            linked_human_id: 'h_1',
            recipient_id: 'rcp_1',
          }),
          payout({ status: 'FROZEN', status_reason: 'STORY_FROZEN', story_id: 'st_2', weight: '1' }),
        ]);
        await insertPayouts(tx, 'se_a', new Date('2026-11-23T00:00:00Z'), [rows]);
        return rows;
      });
      const stored = await db
        .selectFrom('payouts')
        .select(['id', 'settlement_id', 'story_id', 'role', 'beneficiary_kind', 'beneficiary_id', 'bot_id', 'linked_human_id'])
        .select(['recipient_id', 'weight', 'amount_base', 'status', 'status_reason'])
        .orderBy('seq')
        .execute();
      assert.deepEqual(
        stored,
        rows.map(({ seq: _seq, ...p }) => ({
          ...p,
          settlement_id: 'se_a',
          bot_id: p.beneficiary_kind === 'BOT' ? p.beneficiary_id : null,
        })),
      );
      const [first] = rows;

      // a payout's id is exactly `po-` and its seq: any other id is refused
      await insertSettlementRow(db, 'se_b');
      for (const id of [sql`'po_' || s`, sql`'po-' || (s + 1)`, sql`'po-0' || s`, sql`'x'`]) {
        await assert.rejects(insertOne(db, 'se_b', id), /payouts_id_of_seq/);
      }

      // the settlement key holds like a foreign key: no payout of an unknown settlement, none moved, none orphaned
      await assert.rejects(
        db
          .transaction()
          .execute(async (tx) => insertPayouts(tx, 'se_missing', new Date(), [inBlock(await reservePayoutSeqs(tx, 1), [payout()])])),
        /settlement that does not exist/,
      );
      await assert.rejects(insertOne(db, 'se_missing'), /settlement that does not exist/);
      await assert.rejects(sql`update payouts set settlement_id = 'se_b' where id = ${first!.id}`.execute(db), /stays in its settlement/);
      // the runtime role may not delete a settlement at all (test/platform/db-privileges.test.ts); the owner is
      // kept from orphaning payouts
      await assert.rejects(sql`delete from settlements where id = 'se_a'`.execute(shared.owner.db), /has payouts/);
      await assert.rejects(sql`update settlements set id = 'se_c' where id = 'se_a'`.execute(db), /has payouts/);
      await sql`delete from settlements where id = 'se_b'`.execute(shared.owner.db); // no payouts: nothing to keep
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
      const piped = await db.transaction().execute(async (tx) => {
        await insertSettlement(tx, row('se_piped'));
        const [p1, p2] = inBlock(await reservePayoutSeqs(tx, 2), [payout(), payout()]);
        const writes = statementPipeline();
        await writes.send(insertPayouts(tx, 'se_piped', new Date(), [[p1!]]));
        await writes.send(insertPayouts(tx, 'se_piped', new Date(), [[p2!]]));
        await writes.send(completeSettlement(tx, 'se_piped', 2, gzipSync(JSON.stringify({ contributions: [] }))));
        await writes.done();
        return [p1!.id, p2!.id];
      });
      const stored = await db.selectFrom('payouts').select('id').where('settlement_id', '=', 'se_piped').orderBy('seq').execute();
      assert.deepEqual(
        stored.map((p) => p.id),
        piped,
      );
      // a failing batch fails the pipeline with its own error, and the transaction leaves nothing behind
      await assert.rejects(
        db.transaction().execute(async (tx) => {
          await insertSettlement(tx, row('se_broken'));
          const [b1] = inBlock(await reservePayoutSeqs(tx, 1), [payout()]);
          const writes = statementPipeline();
          await writes.send(insertPayouts(tx, 'se_broken', new Date(), [[b1!]]));
          await writes.send(insertPayouts(tx, 'se_broken', new Date(), [[b1!]])); // the same payout again
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

  test('one COPY streams its batches as they are built; a batch that fails to build aborts it and the connection goes on', async () => {
    const shared = await createTestDatabase();
    const db = shared.database.db;
    try {
      await insertSettlementRow(db, 'se_s');
      const built: number[] = [];
      // five batches of 700, each built only when the COPY asks for it
      await db.transaction().execute(async (tx) => {
        const first = (await reservePayoutSeqs(tx, 3_500))!;
        function* batches() {
          for (let b = 0; b < 5; b++) {
            built.push(b);
            yield inBlock(
              first + BigInt(b * 700),
              Array.from({ length: 700 }, () => payout({ story_id: `st_${b}` })),
            );
          }
        }
        await insertPayouts(tx, 'se_s', new Date(), batches());
      });
      assert.deepEqual(built, [0, 1, 2, 3, 4]);
      const stored = await db
        .selectFrom('payouts')
        .select(['story_id', (eb) => eb.fn.countAll<string>().as('n')])
        .where('settlement_id', '=', 'se_s')
        .groupBy('story_id')
        .orderBy('story_id')
        .execute();
      assert.deepEqual(
        stored.map((r) => [r.story_id, Number(r.n)]),
        [0, 1, 2, 3, 4].map((b) => [`st_${b}`, 700]),
      );

      // the same payout in two batches of one COPY: refused, nothing of it stays
      await assert.rejects(
        db.transaction().execute(async (tx) => {
          const [a] = inBlock(await reservePayoutSeqs(tx, 1), [payout()]);
          await insertPayouts(tx, 'se_s', new Date(), [[a!], [a!]]);
        }),
        /duplicate key/,
      );
      // a batch whose building throws halfway: the COPY is abandoned with that error, the transaction rolls back,
      // and the pool's connection serves the next transaction
      await assert.rejects(
        db.transaction().execute(async (tx) => {
          const first = (await reservePayoutSeqs(tx, 2))!;
          function* failing() {
            yield inBlock(first, [payout()]);
            throw new Error('the division broke');
          }
          await insertPayouts(tx, 'se_s', new Date(), failing());
        }),
        /the division broke/,
      );
      for (let i = 0; i < 3; i++) {
        const n = await db.transaction().execute(async (tx) => {
          const { rows } = await sql<{ n: number }>`select count(*)::int as n from payouts`.execute(tx);
          return rows[0]!.n;
        });
        assert.equal(n, 3_500);
      }
    } finally {
      await shared.drop();
    }
  });
});
