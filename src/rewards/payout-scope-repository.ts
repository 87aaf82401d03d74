import { sql, type RawBuilder } from 'kysely';
import type { Queryable } from '../platform/db/database.js';
import type { RewardsTables } from './tables.js';

/**
 * SQL conditions over the rewards' payout tables (payouts, payout_holders, settlements, settled_stories), shared
 * by the repositories of the rewards modules: a context-level repository. The readers' data export takes
 * payoutsOfReader too, a documented link (docs/architecture.md, "Who owns which tables").
 */

/**
 * The payouts of one settlement or of one settled story: the block of seq its run reserved, recorded on the
 * settlement or on the story's settled_stories row. A run's block holds its payouts only, and within it each
 * story's payouts lie in a block of their own (migrations/0006_rewards.sql), so the range alone is the scope.
 * `key` is a value or an SQL reference; `alias` names the payouts of the surrounding query.
 */
export function payoutsOf(scope: 'settlement' | 'story', key: unknown, alias = 'payouts'): RawBuilder<boolean> {
  const [table, keyColumn] = scope === 'settlement' ? ['settlements', 'id'] : ['settled_stories', 'story_id'];
  const bound = (column: string) =>
    sql`(select ${sql.ref(`b.${column}`)} from ${sql.table(table)} b where ${sql.ref(`b.${keyColumn}`)} = ${key})`;
  return sql<boolean>`(${sql.ref(`${alias}.seq`)} between ${bound('payout_seq_first')} and ${bound('payout_seq_last')})`;
}

/**
 * The payout whose id is `id` (a value or an SQL reference), by the seq its id names (`po-` and the seq): found
 * through the primary key. A payout's id is exactly its seq's (migrations/0006_rewards.sql, payouts_id_of_seq),
 * so the seq alone is the payout; any other text names none. `alias` names the payouts of the surrounding query.
 */
export function payoutById(id: unknown, alias = 'payouts'): RawBuilder<boolean> {
  return sql<boolean>`(${sql.ref(`${alias}.seq`)} = payout_seq_of(${id}))`;
}

/**
 * The seqs of the payouts of one bot or of one linked human, as a set for `seq in (...)`: the seqs the runs
 * recorded for that person in payout_holders, and for a linked human the payouts that became theirs after their
 * run (`reassigned`, found by a partial index). A payout that moved to another person stays in its run's row of
 * the first: the person's column is checked as well (payoutsOfPerson).
 */
export function personSeqs(kind: 'BOT' | 'HUMAN', id: unknown): RawBuilder<unknown> {
  const recorded = recordedSeqs(kind, sql`${id}`);
  return kind === 'BOT'
    ? recorded
    : sql`${recorded} union all select m.seq from payouts m where m.linked_human_id = ${id} and m.reassigned`;
}

/** The seqs of the payouts of the bots `botIds` (an SQL subquery of bot ids), as a set for `seq in (...)`. */
export function botsSeqs(botIds: RawBuilder<unknown>): RawBuilder<unknown> {
  return recordedSeqs('BOT', botIds);
}

/** The seqs the runs recorded in payout_holders for the persons of one kind whose ids `ids` lists. */
function recordedSeqs(kind: 'BOT' | 'HUMAN', ids: RawBuilder<unknown>): RawBuilder<unknown> {
  return sql`select unnest(h.seqs) from payout_holders h where h.holder_kind = ${kind} and h.holder_id in (${ids})`;
}

/** The payouts of one bot or of one linked human: `alias` names the payouts of the surrounding query. */
export function payoutsOfPerson(kind: 'BOT' | 'HUMAN', id: unknown, alias = 'payouts'): RawBuilder<boolean> {
  const column = sql.ref(`${alias}.${kind === 'BOT' ? 'bot_id' : 'linked_human_id'}`);
  return sql<boolean>`(${column} = ${id} and ${sql.ref(`${alias}.seq`)} in (${personSeqs(kind, id)}))`;
}

/**
 * The payouts that belong to a reader: by their linked human (theirs and their bots', personSeqs), or paid to them
 * as a flagger by actor id (a HUMAN payout whose beneficiary is the actor: an unbound flagger's, found by the partial
 * index payouts_human_beneficiary). Each part is found through an index, never by reading every payout.
 */
export function payoutsOfReader(actorId: string, linkedHumanId: string | null | undefined, alias = 'payouts'): RawBuilder<boolean> {
  const ref = (column: string) => sql.ref(`${alias}.${column}`);
  const asFlagger = sql`select f.seq from payouts f where f.beneficiary_kind = 'HUMAN' and f.beneficiary_id = ${actorId}`;
  const seqs = linkedHumanId ? sql`${personSeqs('HUMAN', linkedHumanId)} union all ${asFlagger}` : asFlagger;
  const owner = linkedHumanId ? sql`${ref('linked_human_id')} = ${linkedHumanId} or ` : sql``;
  return sql<boolean>`(${ref('seq')} in (${seqs})
    and (${owner}(${ref('beneficiary_kind')} = 'HUMAN' and ${ref('beneficiary_id')} = ${actorId})))`;
}

/** The payouts that belong to a reader, with their run's token decimals, oldest first (their data export): by linked human (theirs and their bots'), or as an unbound flagger by actor id. */
export async function readerPayoutRows(db: Queryable<RewardsTables>, actorId: string, linkedHumanId: string | null) {
  return db
    .selectFrom('payouts as p')
    .innerJoin('settlements as s', 's.id', 'p.settlement_id')
    .select([
      'p.id',
      'p.settlement_id',
      'p.story_id',
      'p.role',
      'p.beneficiary_kind',
      'p.beneficiary_id',
      'p.bot_id',
      'p.amount_base',
      's.token_decimals',
      'p.status',
      'p.status_reason',
      'p.created_at',
      'p.updated_at',
    ])
    .where(payoutsOfReader(actorId, linkedHumanId, 'p'))
    .orderBy('p.seq')
    .execute();
}
