import { sql } from 'kysely';
import type { Insertable, Selectable } from 'kysely';
import type { Queryable, Tx } from '../../platform/db/database.js';
import type { NewsroomTables } from '../tables.js';
import type { AgentReviewsTable, RevisionProposalsTable } from '../rows.js';

/** SQL of agent reviews, revision proposals and their votes. */

export type ProposalRow = Selectable<RevisionProposalsTable>;

/** Inserts a review; null when this bot already reviewed this packet (unique bot_id, packet_hash). */
export async function insertReview(tx: Tx<NewsroomTables>, row: Insertable<AgentReviewsTable>) {
  return (
    (await tx
      .insertInto('agent_reviews')
      .values(row)
      .onConflict((oc) => oc.columns(['bot_id', 'packet_hash']).doNothing())
      .returningAll()
      .executeTakeFirst()) ?? null
  );
}

export async function insertProposal(tx: Tx<NewsroomTables>, row: Insertable<RevisionProposalsTable>): Promise<ProposalRow> {
  return tx.insertInto('revision_proposals').values(row).returningAll().executeTakeFirstOrThrow();
}

/** The story a proposal belongs to (read before the story lock is taken). */
export async function proposalStoryId(db: Queryable<NewsroomTables>, proposalId: string): Promise<string | null> {
  return (await db.selectFrom('revision_proposals').select('story_id').where('id', '=', proposalId).executeTakeFirst())?.story_id ?? null;
}

export async function lockProposal(tx: Tx<NewsroomTables>, proposalId: string): Promise<ProposalRow | null> {
  return (await tx.selectFrom('revision_proposals').selectAll().where('id', '=', proposalId).forUpdate().executeTakeFirst()) ?? null;
}

/** Inserts a vote; false when this bot already voted on the proposal (unique proposal_id, bot_id). */
export async function insertVote(
  tx: Tx<NewsroomTables>,
  row: { proposal_id: string; bot_id: string; vote: 'ACCEPT' | 'REJECT'; created_at: Date },
): Promise<boolean> {
  const inserted = await tx
    .insertInto('revision_votes')
    .values(row)
    .onConflict((oc) => oc.columns(['proposal_id', 'bot_id']).doNothing())
    .returning('bot_id')
    .executeTakeFirst();
  return Boolean(inserted);
}

export async function updateProposalTally(
  tx: Tx<NewsroomTables>,
  proposalId: string,
  tally: Pick<ProposalRow, 'accept_votes' | 'reject_votes' | 'status' | 'result_version' | 'resolved_at'>,
): Promise<ProposalRow> {
  return tx.updateTable('revision_proposals').set(tally).where('id', '=', proposalId).returningAll().executeTakeFirstOrThrow();
}

/** Marks every other open proposal of the story STALE (its base packet is no longer current). */
export async function markOtherProposalsStale(tx: Tx<NewsroomTables>, storyId: string, acceptedId: string, at: Date): Promise<void> {
  await tx
    .updateTable('revision_proposals')
    .set({ status: 'STALE', resolved_at: at })
    .where('story_id', '=', storyId)
    .where('status', '=', 'OPEN')
    .where('id', '<>', acceptedId)
    .execute();
}

/** Objections (agent reviews of kind OBJECTION) created in [from, to) (a health signal, by the HealthCounts port). */
export async function countObjections(db: Queryable<NewsroomTables>, from: Date, to: Date): Promise<number> {
  const row = await db
    .selectFrom('agent_reviews')
    .select(sql<number>`count(*)::int`.as('n'))
    .where('kind', '=', 'OBJECTION')
    .where('created_at', '>=', from)
    .where('created_at', '<', to)
    .executeTakeFirstOrThrow();
  return row.n;
}
