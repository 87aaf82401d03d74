import { sql, type Insertable } from 'kysely';
import { BinaryRows, copyRows } from '../../platform/db/bulk/copy-in.js';
import type { Db, Queryable, Tx } from '../../platform/db/database.js';
import type { RewardsTables } from '../tables.js';
import type { ClaimBatchesTable } from '../rows.js';
import type { Distribution, PayableShare } from './merkle.js';

/** Rows encoded at a time for a COPY (the database inserts one chunk while the next is encoded). */
const CHUNK = 5000;
/**
 * Rows per COPY statement: a batch of any size is written in statements of seconds each, well inside the pool's
 * 30 s query timeout (one COPY of 200,000 payouts, foreign keys checked at its end, overran it on the busy 2-core
 * machine). Several statements cost the database what one does.
 */
const STATEMENT_ROWS = 20_000;

export async function listBatches(db: Db<RewardsTables>, afterSeq: string | null, limit: number) {
  let q = db
    .selectFrom('claim_batches')
    .selectAll()
    .orderBy('seq', 'desc')
    .limit(limit + 1);
  if (afterSeq) q = q.where('seq', '<', afterSeq);
  return q.execute();
}

export async function countBatches(db: Db<RewardsTables>) {
  const row = await db
    .selectFrom('claim_batches')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function findBatch(db: Db<RewardsTables> | Tx<RewardsTables>, id: string) {
  return (await db.selectFrom('claim_batches').selectAll().where('id', '=', id).executeTakeFirst()) ?? null;
}

export async function lockBatch(tx: Tx<RewardsTables>, id: string) {
  return (await tx.selectFrom('claim_batches').selectAll().where('id', '=', id).forUpdate().executeTakeFirst()) ?? null;
}

/** A payable payout waiting for a batch, with the linked human its recipient is (the console names them). */
export type UnbatchedShare = PayableShare & { linkedHumanId: string };

function unbatchedPayableQuery(q: Queryable<RewardsTables>) {
  return q
    .selectFrom('payouts as p')
    .innerJoin('reward_recipients as r', 'r.id', 'p.recipient_id')
    .select(['p.id', 'p.recipient_id', 'p.amount_base', 'r.wallet_address', 'r.linked_human_id'])
    .where('p.status', '=', 'PAYABLE')
    .where('r.wallet_address', 'is not', null)
    .where('r.frozen_at', 'is', null)
    .where((eb) =>
      eb.not(eb.exists(eb.selectFrom('claim_batch_payouts as c').select(sql.lit(1).as('one')).whereRef('c.payout_id', '=', 'p.id'))),
    )
    .orderBy('p.seq');
}

type UnbatchedRow = {
  id: string;
  recipient_id: string | null;
  amount_base: string;
  wallet_address: string | null;
  linked_human_id: string;
};

const unbatchedShare = (r: UnbatchedRow): UnbatchedShare => ({
  payoutId: r.id,
  recipientId: r.recipient_id!,
  wallet: r.wallet_address!,
  amountBase: BigInt(r.amount_base),
  linkedHumanId: r.linked_human_id,
});

/**
 * The payable payouts that no batch carries yet, with the wallet their recipient bound, locked so a
 * concurrent finalize waits (and then fails on claim_batch_payouts' key rather than batching them twice).
 */
export async function lockUnbatchedPayable(tx: Tx<RewardsTables>): Promise<UnbatchedShare[]> {
  return (await unbatchedPayableQuery(tx).forUpdate('p').execute()).map(unbatchedShare);
}

/** The same payouts read without a lock: what a finalize would batch now (a preview, which must not hold anyone up). */
export async function readUnbatchedPayable(q: Queryable<RewardsTables>): Promise<UnbatchedShare[]> {
  return (await unbatchedPayableQuery(q).execute()).map(unbatchedShare);
}

const LEAF_COLUMNS = ['batch_id', 'leaf_index', 'wallet_address', 'amount_base', 'proof'] as const;
const BATCH_PAYOUT_COLUMNS = ['payout_id', 'batch_id', 'leaf_index', 'recipient_id'] as const;

/**
 * Writes the batch, its leaves (the manifest, with proofs) and the payouts it carries, leaves and payouts with
 * binary COPY (platform/db/bulk/copy-in.ts).
 */
export async function insertBatch(
  tx: Tx<RewardsTables>,
  batch: Insertable<ClaimBatchesTable>,
  d: Distribution,
  shares: readonly PayableShare[],
) {
  await tx.insertInto('claim_batches').values(batch).execute();
  const leafBytes = 100 + (d.leaves[0]?.proof.length ?? 0);
  for (const [, leaves] of statements(d.leaves)) {
    const rows = encoded(leaves, leafBytes, (r, l) =>
      r.row(LEAF_COLUMNS.length).text(batch.id).int4(l.index).text(l.wallet).numeric(l.amountBase.toString()).bytea(l.proof),
    );
    await copyRows(tx, 'claim_batch_leaves', LEAF_COLUMNS, rows);
  }
  for (const [from, payouts] of statements(shares)) {
    const rows = encoded(payouts, 80, (r, s, i) =>
      r
        .row(BATCH_PAYOUT_COLUMNS.length)
        .text(s.payoutId)
        .text(batch.id)
        .int4(d.leafOfShare[from + i]!)
        .text(s.recipientId),
    );
    await copyRows(tx, 'claim_batch_payouts', BATCH_PAYOUT_COLUMNS, rows);
  }
}

/** The items in runs of STATEMENT_ROWS, one COPY statement each, with the index of each run's first item. */
function* statements<T>(items: readonly T[]): Generator<[number, readonly T[]]> {
  for (let i = 0; i < items.length; i += STATEMENT_ROWS) yield [i, items.slice(i, i + STATEMENT_ROWS)];
}

/**
 * The items as BinaryRows of CHUNK rows each, each chunk encoded when the COPY asks for it; `write` gets each
 * item with its index in `items`.
 */
function* encoded<T>(
  items: readonly T[],
  bytesPerRow: number,
  write: (rows: BinaryRows, item: T, index: number) => void,
): Generator<Buffer> {
  for (let i = 0; i < items.length; i += CHUNK) {
    const end = Math.min(i + CHUNK, items.length);
    const rows = new BinaryRows((end - i) * bytesPerRow);
    for (let k = i; k < end; k++) write(rows, items[k]!, k);
    yield rows.finish();
  }
}

/** The leaf of a recipient's payouts in a batch, or null when the batch carries none of them. */
export async function leafOfRecipient(db: Db<RewardsTables>, batchId: string, recipientId: string) {
  return (
    (await db
      .selectFrom('claim_batch_leaves as l')
      .selectAll('l')
      .where('l.batch_id', '=', batchId)
      .where((eb) =>
        eb.exists(
          eb
            .selectFrom('claim_batch_payouts as c')
            .select(sql.lit(1).as('one'))
            .whereRef('c.batch_id', '=', 'l.batch_id')
            .whereRef('c.leaf_index', '=', 'l.leaf_index')
            .where('c.recipient_id', '=', recipientId),
        ),
      )
      .executeTakeFirst()) ?? null
  );
}

export async function findReceipt(db: Db<RewardsTables>, batchId: string, leafIndex: number) {
  return (
    (await db
      .selectFrom('claim_receipts')
      .selectAll()
      .where('batch_id', '=', batchId)
      .where('leaf_index', '=', leafIndex)
      .executeTakeFirst()) ?? null
  );
}

export async function insertReceipt(
  tx: Tx<RewardsTables>,
  r: { batchId: string; leafIndex: number; txHash: string; blockNumber: bigint; confirmations: number; by: string; at: Date },
) {
  await tx
    .insertInto('claim_receipts')
    .values({
      batch_id: r.batchId,
      leaf_index: r.leafIndex,
      tx_hash: r.txHash,
      block_number: r.blockNumber.toString(),
      confirmations: r.confirmations,
      submitted_by: r.by,
      created_at: r.at,
    })
    .execute();
}

export async function claimedCount(db: Db<RewardsTables>, batchId: string) {
  const row = await db
    .selectFrom('claim_receipts')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('batch_id', '=', batchId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Records an on-chain freeze or unfreeze transaction: each transaction is evidence once only (its key). */
export async function insertEvidence(
  tx: Tx<RewardsTables>,
  e: { txHash: string; batchId: string; kind: 'FREEZE' | 'UNFREEZE'; blockNumber: bigint; at: Date },
) {
  await tx
    .insertInto('claim_batch_evidence')
    .values({ tx_hash: e.txHash, batch_id: e.batchId, kind: e.kind, block_number: e.blockNumber.toString(), created_at: e.at })
    .execute();
}

export async function setBatchFrozen(
  tx: Tx<RewardsTables>,
  id: string,
  f: { at: Date; reason: string; by: string; txHash: string | null },
) {
  await tx
    .updateTable('claim_batches')
    .set({ status: 'FROZEN', frozen_at: f.at, frozen_reason: f.reason, frozen_by: f.by, freeze_tx_hash: f.txHash, updated_at: f.at })
    .where('id', '=', id)
    .execute();
}

export async function setBatchUnfrozen(tx: Tx<RewardsTables>, id: string, at: Date) {
  await tx
    .updateTable('claim_batches')
    .set({ status: 'ACTIVE', frozen_at: null, frozen_reason: null, frozen_by: null, freeze_tx_hash: null, updated_at: at })
    .where('id', '=', id)
    .execute();
}
