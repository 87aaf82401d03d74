import type { Db, Tx } from '../../platform/db/database.js';
import type { NewsroomTables } from '../tables.js';
import { recordFirstSources } from '../stories/story-lock.js';
import { claimsText, type Packet } from '../common/packet.js';

export interface CandidateRow {
  hash: string;
  story_id: string;
  bot_id: string;
  verified: boolean;
  submitted_at: Date;
}

export async function findCandidate(db: Db<NewsroomTables>, hash: string): Promise<CandidateRow | null> {
  return (await db.selectFrom('candidates').selectAll().where('hash', '=', hash).executeTakeFirst()) ?? null;
}

export async function findStatus(db: Db<NewsroomTables>, hash: string) {
  const row = await db
    .selectFrom('candidates as c')
    .innerJoin('stories as s', 's.id', 'c.story_id')
    .select([
      'c.hash',
      'c.story_id',
      'c.bot_id',
      'c.verified',
      'c.submitted_at',
      's.publication_stage',
      's.review_status',
      's.moderation_status',
      's.current_packet_hash',
      's.published_at',
    ])
    .select((eb) =>
      eb
        .selectFrom('safety_traces as t')
        .select('t.decision')
        .whereRef('t.story_id', '=', 'c.story_id')
        .whereRef('t.packet_hash', '=', 'c.hash')
        .orderBy('t.scanned_at', 'desc')
        .limit(1)
        .as('safety_decision'),
    )
    .where('c.hash', '=', hash)
    .executeTakeFirst();
  return row ?? null;
}

export async function latestTrace(db: Db<NewsroomTables>, storyId: string, hash: string) {
  return (
    (await db
      .selectFrom('safety_traces')
      .selectAll()
      .where('story_id', '=', storyId)
      .where('packet_hash', '=', hash)
      .orderBy('scanned_at', 'desc')
      .limit(1)
      .executeTakeFirst()) ?? null
  );
}

export async function sources(db: Db<NewsroomTables>, storyId: string) {
  return db
    .selectFrom('story_sources')
    .select(['id', 'url', 'title', 'publisher', 'status'])
    .where('story_id', '=', storyId)
    .where('active', '=', true)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

export async function reviews(db: Db<NewsroomTables>, storyId: string, hash: string) {
  return db
    .selectFrom('agent_reviews')
    .select(['id', 'bot_id', 'kind', 'weight', 'verified', 'claim_ids', 'created_at'])
    .where('story_id', '=', storyId)
    .where('packet_hash', '=', hash)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

/**
 * Creates the story, its first version, its sources and the candidate inside the caller's transaction.
 * Returns null when another request inserted the same packet first (the primary key on the hash decides):
 * the caller then rolls the transaction back.
 */
export async function insertCandidate(
  tx: Tx<NewsroomTables>,
  input: { storyId: string; botId: string; verified: boolean; packet: Packet; hash: string; at: Date },
): Promise<CandidateRow | null> {
  const { packet } = input;
  await tx
    .insertInto('stories')
    .values({
      id: input.storyId,
      author_bot_id: input.botId,
      room: packet.room,
      lang: packet.lang,
      title: packet.title,
      summary: packet.summary,
      body: packet.body,
      claims_text: claimsText(packet),
      current_packet_hash: input.hash,
      created_at: input.at,
      updated_at: input.at,
      published_at: null,
      graduated_at: null,
      reward_window_ends_at: null,
    })
    .execute();
  await tx
    .insertInto('story_versions')
    .values({
      story_id: input.storyId,
      version: 1,
      packet_hash: input.hash,
      packet: JSON.stringify(packet),
      proposal_id: null,
      created_by: input.botId,
      created_at: input.at,
    })
    .execute();
  await recordFirstSources(tx, input.storyId, packet);
  const row = await tx
    .insertInto('candidates')
    .values({ hash: input.hash, story_id: input.storyId, bot_id: input.botId, verified: input.verified, submitted_at: input.at })
    .onConflict((oc) => oc.column('hash').doNothing())
    .returningAll()
    .executeTakeFirst();
  return row ?? null;
}
