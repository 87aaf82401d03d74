import { sql } from 'kysely';
import { BinaryRows, copyRows } from '../../platform/db/bulk/copy-in.js';
import type { Queryable, Tx } from '../../platform/db/database.js';
import type { RewardsTables } from '../tables.js';
import type { PayoutRole, PayoutStatus, SettlementsTable } from '../rows.js';
import { payoutsOf, payoutsOfPerson } from '../payout-scope-repository.js';
import type { BotOwners } from './contributions.js';
import type { PayoutHolder } from './payout-rows.js';
import type { Insertable } from 'kysely';

/** SQL of settlements, the stories they settled and their payouts. */

const RUN_LOCK_KEY = 0x52_45_57_02; // 'REW' 2: one settlement run at a time

/** Serializes runs until commit; the settled_stories primary key is what guarantees "at most once". */
export async function lockSettlementRuns(tx: Tx<RewardsTables>): Promise<void> {
  await sql`SELECT pg_advisory_xact_lock(${sql.lit(RUN_LOCK_KEY)})`.execute(tx);
}

/** The people who can be paid: recipient id, wallet state and freeze, by linked human. */
export async function recipientsByHuman(db: Queryable<RewardsTables>) {
  const rows = await db.selectFrom('reward_recipients').select(['id', 'linked_human_id', 'wallet_verified_at', 'frozen_at']).execute();
  return new Map(rows.map((r) => [r.linked_human_id, r]));
}

export async function frozenStoryIds(db: Queryable<RewardsTables>): Promise<Set<string>> {
  const rows = await db.selectFrom('reward_story_freezes').select('story_id').execute();
  return new Set(rows.map((r) => r.story_id));
}

/** The settlement row without its inputs and payout count: completeSettlement must follow in the same transaction. */
export async function insertSettlement(tx: Tx<RewardsTables>, row: Insertable<SettlementsTable>): Promise<void> {
  await tx.insertInto('settlements').values(row).execute();
}

/**
 * Completes a run's settlement row: the number of payouts it wrote and the inputs it was computed from
 * (published-inputs.ts); a settlement cannot commit without its inputs (settlements_inputs_required).
 */
export async function completeSettlement(
  tx: Tx<RewardsTables>,
  settlementId: string,
  payoutCount: number,
  inputsGzip: Uint8Array,
): Promise<void> {
  await tx.updateTable('settlements').set({ payout_count: payoutCount, inputs_gzip: inputsGzip }).where('id', '=', settlementId).execute();
}

/** A settled story and the block of payout seq its run reserved for its payouts (null bounds: none). */
export interface StoryPayoutRange {
  storyId: string;
  first: string | null;
  last: string | null;
}

/** Marks the stories settled; a story some other settlement holds fails the primary key (and the run). */
export async function insertSettledStories(
  tx: Tx<RewardsTables>,
  settlementId: string,
  stories: readonly StoryPayoutRange[],
): Promise<void> {
  await sql`
    insert into settled_stories (story_id, settlement_id, payout_seq_first, payout_seq_last)
    select story_id, ${settlementId}, first, last
    from unnest(${stories.map((s) => s.storyId)}::text[], ${stories.map((s) => s.first)}::bigint[], ${stories.map((s) => s.last)}::bigint[])
      as t(story_id, first, last)`.execute(tx);
}

/**
 * Reserves `count` consecutive values of the payouts' sequence for one run's payouts and returns the first (null
 * for none). Runs hold the settlement lock and nothing else draws payout seqs, so the block is the run's alone;
 * were it not, the payouts' primary key (seq) would refuse the second writer of a value and its run would roll back.
 */
export async function reservePayoutSeqs(tx: Tx<RewardsTables>, count: number): Promise<bigint | null> {
  if (count === 0) return null;
  const { rows } = await sql<{ first: string }>`
    SELECT setval(pg_get_serial_sequence('payouts', 'seq'), nextval(pg_get_serial_sequence('payouts', 'seq')) + ${count - 1}) - ${count - 1} AS first`.execute(
    tx,
  );
  return BigInt(rows[0]!.first);
}

export interface NewPayout {
  /** A safe integer (the run's block of seq counts from a number: payout-rows.ts). */
  seq: number;
  id: string;
  story_id: string;
  role: PayoutRole;
  beneficiary_kind: 'BOT' | 'HUMAN';
  beneficiary_id: string;
  linked_human_id: string | null;
  recipient_id: string | null;
  weight: string;
  amount_base: string;
  status: PayoutStatus;
  status_reason: string | null;
}

const PAYOUT_COLUMNS = [
  'seq',
  'id',
  'settlement_id',
  'story_id',
  'role',
  'beneficiary_kind',
  'beneficiary_id',
  'bot_id',
  'linked_human_id',
  'recipient_id',
  'weight',
  'amount_base',
  'status',
  'status_reason',
  'created_at',
  'updated_at',
] as const;

/**
 * Inserts payouts of a settlement with one binary COPY (platform/db/bulk/copy-in.ts: about two thirds of the database's
 * work of the `INSERT … SELECT FROM unnest(…)` of one array per column used before, measured on 100,000 payouts,
 * and less again without values to parse from text). The batches are encoded one at a time as the COPY reads
 * them, so the database inserts the first while the later ones are built.
 */
export async function insertPayouts(
  tx: Tx<RewardsTables>,
  settlementId: string,
  at: Date,
  batches: Iterable<readonly NewPayout[]>,
): Promise<void> {
  function* chunks() {
    for (const batch of batches) yield encodePayouts(settlementId, at, batch);
  }
  await copyRows(tx, 'payouts', PAYOUT_COLUMNS, chunks());
}

/**
 * The run's payouts by person (payout_holders): one binary COPY, sent after the payouts' and fed once `holders`
 * resolves (when the payouts have all been built), a chunk of persons at a time.
 */
export async function insertPayoutHolders(
  tx: Tx<RewardsTables>,
  settlementId: string,
  holders: Promise<readonly PayoutHolder[]>,
): Promise<void> {
  holders.catch(() => undefined); // awaited below once the COPY reads it; a failure before that must not go unhandled
  async function* chunks() {
    const list = await holders;
    for (let i = 0; i < list.length; i += HOLDER_CHUNK) {
      const rows = new BinaryRows(HOLDER_CHUNK * 64);
      for (const h of list.slice(i, i + HOLDER_CHUNK)) {
        rows.row(HOLDER_COLUMNS.length).text(h.kind).text(h.id).text(settlementId).int8Array(h.seqs);
      }
      yield rows.finish();
    }
  }
  await copyRows(tx, 'payout_holders', HOLDER_COLUMNS, chunks());
}

/** Persons encoded at a time while the database inserts those before. */
const HOLDER_CHUNK = 1_000;

const HOLDER_COLUMNS = ['holder_kind', 'holder_id', 'settlement_id', 'seqs'] as const;

function encodePayouts(settlementId: string, at: Date, payouts: readonly NewPayout[]): Buffer {
  const rows = new BinaryRows(payouts.length * 320);
  for (const p of payouts) {
    rows
      .row(PAYOUT_COLUMNS.length)
      .int8(p.seq)
      .text(p.id)
      .text(settlementId)
      .text(p.story_id)
      .text(p.role)
      .text(p.beneficiary_kind)
      .text(p.beneficiary_id)
      .text(p.beneficiary_kind === 'BOT' ? p.beneficiary_id : null)
      .text(p.linked_human_id)
      .text(p.recipient_id)
      .numeric(p.weight)
      .numeric(p.amount_base)
      .text(p.status)
      .text(p.status_reason)
      .timestamptz(at)
      .timestamptz(at);
  }
  return rows.finish();
}

const SUMMARY = [
  'id',
  'seq',
  'policy_version',
  'pool_base',
  'escrow_base',
  'paid_base',
  'token_decimals',
  'windows_closed_before',
  'story_count',
  'contribution_count',
  'payout_count',
  'role_totals',
  'created_by',
  'created_at',
] as const;

export async function listSettlements(db: Queryable<RewardsTables>, limit: number, beforeSeq?: string) {
  let query = db.selectFrom('settlements').select(SUMMARY).orderBy('seq', 'desc').limit(limit);
  if (beforeSeq) query = query.where('seq', '<', beforeSeq);
  return query.execute();
}

export async function findSettlement(db: Queryable<RewardsTables>, id: string) {
  return (
    (await db
      .selectFrom('settlements')
      .select([...SUMMARY, 'inputs_gzip'])
      .where('id', '=', id)
      .executeTakeFirst()) ?? null
  );
}

export async function findSettlementSummary(db: Queryable<RewardsTables>, id: string) {
  return (await db.selectFrom('settlements').select(SUMMARY).where('id', '=', id).executeTakeFirst()) ?? null;
}

export async function settledStoryIds(db: Queryable<RewardsTables>, settlementId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('settled_stories')
    .select('story_id')
    .where('settlement_id', '=', settlementId)
    .orderBy('story_id')
    .execute();
  return rows.map((r) => r.story_id);
}

export interface PayoutFilters {
  settlementId?: string | undefined;
  botId?: string | undefined;
  storyId?: string | undefined;
  role?: PayoutRole | undefined;
  status?: PayoutStatus | undefined;
  linkedHumanId?: string | undefined;
  recipientId?: string | undefined;
}

export async function listPayouts(db: Queryable<RewardsTables>, filters: PayoutFilters, limit: number, afterSeq?: string) {
  let query = db.selectFrom('payouts').selectAll().orderBy('seq', 'asc').limit(limit);
  if (filters.settlementId) query = query.where(payoutsOf('settlement', filters.settlementId));
  if (filters.storyId) query = query.where(payoutsOf('story', filters.storyId));
  if (filters.botId) query = query.where(payoutsOfPerson('BOT', filters.botId));
  if (filters.role) query = query.where('role', '=', filters.role);
  if (filters.status) query = query.where('status', '=', filters.status);
  if (filters.linkedHumanId) query = query.where(payoutsOfPerson('HUMAN', filters.linkedHumanId));
  if (filters.recipientId) query = query.where('recipient_id', '=', filters.recipientId);
  if (afterSeq) query = query.where('seq', '>', afterSeq);
  return query.execute();
}

/** Each bot's owner now, by bot id: read once per settlement, a row per bot. */
export async function botPayoutOwners(db: Queryable<RewardsTables>): Promise<BotOwners> {
  const rows = await db.selectFrom('bot_payout_owners').select(['bot_id', 'linked_human_id']).execute();
  return new Map(rows.map((r) => [r.bot_id, { botId: r.bot_id, owner: r.linked_human_id }]));
}
