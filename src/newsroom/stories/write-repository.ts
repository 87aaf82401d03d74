import { sql } from 'kysely';
import type { Queryable, Tx } from '../../platform/db/database.js';
import type { NewsroomTables } from '../tables.js';
import type { ModerationStatus, PublicationStage, ReviewStatus } from '../rows.js';
import { newId } from '../../platform/ids.js';
import { claimsText, type Packet } from '../common/packet.js';

/** SQL of the writes to a story and its versions and sources. Row locks take a transaction (`Tx`). */

/**
 * Locks a story row (SELECT … FOR UPDATE) for the rest of the transaction, or null when there is none.
 * Every write that changes a story or its consensus takes this lock first, so concurrent writes on one
 * story serialize across every instance while writes on different stories run in parallel.
 */
export async function lockStoryRow(tx: Tx<NewsroomTables>, storyId: string) {
  const row = await tx
    .selectFrom('stories')
    .select([
      'id',
      'title',
      'author_bot_id',
      'room',
      'lang',
      'current_version',
      'current_packet_hash',
      'publication_stage',
      'review_status',
      'moderation_status',
      'comment_count',
      'published_at',
      'graduated_at',
      'reward_window_ends_at',
    ])
    .where('id', '=', storyId)
    .forUpdate()
    .executeTakeFirst();
  return row ?? null;
}

export type LockedStory = NonNullable<Awaited<ReturnType<typeof lockStoryRow>>>;

/** The packet of a story version. */
export async function packetOfVersion(db: Queryable<NewsroomTables>, storyId: string, version: number): Promise<Packet | null> {
  const row = await db
    .selectFrom('story_versions')
    .select('packet')
    .where('story_id', '=', storyId)
    .where('version', '=', version)
    .executeTakeFirst();
  return row ? (row.packet as Packet) : null;
}

/** The packet a story had under `hash`, if it ever had it. */
export async function versionWithHash(
  db: Queryable<NewsroomTables>,
  storyId: string,
  hash: string,
): Promise<{ version: number; packet: Packet } | null> {
  const row = await db
    .selectFrom('story_versions')
    .select(['version', 'packet'])
    .where('story_id', '=', storyId)
    .where('packet_hash', '=', hash)
    .executeTakeFirst();
  return row ? { version: row.version, packet: row.packet as Packet } : null;
}

/** Inserts the active sources of a packet version, keeping earlier rows (their status) for known urls. */
export async function upsertSources(tx: Tx<NewsroomTables>, storyId: string, packet: Packet, version: number): Promise<void> {
  await tx.updateTable('story_sources').set({ active: false }).where('story_id', '=', storyId).execute();
  for (const source of packet.sources) {
    await tx
      .insertInto('story_sources')
      .values({
        id: newId('src'),
        story_id: storyId,
        url: source.url,
        title: source.title ?? null,
        publisher: source.publisher ?? null,
        added_in_version: version,
      })
      .onConflict((oc) =>
        oc.columns(['story_id', 'url']).doUpdateSet({ active: true, title: source.title ?? null, publisher: source.publisher ?? null }),
      )
      .execute();
  }
}

/** Makes `packet` the story's new current version (the version row, the story's text columns, its sources). */
export async function insertCurrentVersion(
  tx: Tx<NewsroomTables>,
  input: { storyId: string; version: number; hash: string; packet: Packet; proposalId: string | null; createdBy: string; at: Date },
): Promise<void> {
  const { storyId, version, hash, packet, at } = input;
  await tx
    .insertInto('story_versions')
    .values({
      story_id: storyId,
      version,
      packet_hash: hash,
      packet: JSON.stringify(packet),
      proposal_id: input.proposalId,
      created_by: input.createdBy,
      created_at: at,
    })
    .execute();
  await tx
    .updateTable('stories')
    .set({
      title: packet.title,
      summary: packet.summary,
      body: packet.body,
      claims_text: claimsText(packet),
      current_version: version,
      current_packet_hash: hash,
      updated_at: at,
    })
    .where('id', '=', storyId)
    .execute();
  await upsertSources(tx, storyId, packet, version);
}

export async function markPublished(tx: Tx<NewsroomTables>, storyId: string, at: Date, rewardWindowEndsAt: Date): Promise<void> {
  await tx
    .updateTable('stories')
    .set({
      publication_stage: 'PROVISIONAL',
      moderation_status: 'ALLOWED',
      published_at: at,
      reward_window_ends_at: rewardWindowEndsAt,
      updated_at: at,
    })
    .where('id', '=', storyId)
    .execute();
}

export async function setModerationStatus(tx: Tx<NewsroomTables>, storyId: string, status: ModerationStatus, at: Date): Promise<void> {
  await tx.updateTable('stories').set({ moderation_status: status, updated_at: at }).where('id', '=', storyId).execute();
}

export async function incrementCommentCount(tx: Tx<NewsroomTables>, storyId: string): Promise<void> {
  await tx
    .updateTable('stories')
    .set({ comment_count: sql`comment_count + 1` })
    .where('id', '=', storyId)
    .execute();
}

export async function decrementCommentCount(tx: Tx<NewsroomTables>, storyId: string): Promise<void> {
  await tx
    .updateTable('stories')
    .set({ comment_count: sql`greatest(comment_count - 1, 0)` })
    .where('id', '=', storyId)
    .execute();
}

/** The columns a consensus recomputation derives. */
export interface StoryConsensusColumns {
  review_status: ReviewStatus;
  publication_stage: PublicationStage;
  graduated_at: Date | null;
  attestation_count: number;
  objection_count: number;
  flag_count: number;
  reward_vote_count: number;
  trending_score: number;
}

export async function updateConsensusColumns(
  tx: Tx<NewsroomTables>,
  storyId: string,
  columns: StoryConsensusColumns,
  at: Date,
): Promise<void> {
  await tx
    .updateTable('stories')
    .set({ ...columns, updated_at: at })
    .where('id', '=', storyId)
    .execute();
}
