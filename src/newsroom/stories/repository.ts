import { sql } from 'kysely';
import { jsonArrayFrom } from 'kysely/helpers/postgres';
import type { Db } from '../../platform/db/database.js';
import type { NewsroomTables } from '../tables.js';
import { reusableQuery } from '../../platform/db/reusable-query.js';
import type { StoryRow } from './presenter.js';

/** SQL of the story reads. Returns rows or null; visibility decisions stay in the service and policy. */

const STORY_COLUMNS = [
  'stories.id',
  'stories.author_bot_id',
  'stories.room',
  'stories.lang',
  'stories.title',
  'stories.summary',
  'stories.body',
  'stories.current_version',
  'stories.current_packet_hash',
  'stories.publication_stage',
  'stories.review_status',
  'stories.moderation_status',
  'stories.attestation_count',
  'stories.objection_count',
  'stories.comment_count',
  'stories.flag_count',
  'stories.reward_vote_count',
  'stories.created_at',
  'stories.published_at',
  'stories.graduated_at',
  'stories.reward_window_ends_at',
  'stories.updated_at',
] as const;

export type ActiveSource = {
  id: string;
  url: string;
  title: string | null;
  publisher: string | null;
  status: string;
  /** The moderation status of the source's host (source_statuses; UNRATED without a row). */
  sourceStatus: string;
};

/** The moderation status of a story source's host, UNRATED when no content admin rated it. */
const sourceStatus = sql<string>`coalesce(r.status, 'UNRATED')`.as('sourceStatus');

/** The stories' columns, joined to their current version `v` (a left join: no row when the version is missing). */
const withCurrentVersion = (db: Db<NewsroomTables>) =>
  db
    .selectFrom('stories')
    .leftJoin('story_versions as v', (join) =>
      join.onRef('v.story_id', '=', 'stories.id').onRef('v.version', '=', 'stories.current_version'),
    )
    .select(STORY_COLUMNS);

/** The story row, for the reads that show its evidence but not its packet (the access check of every story read). */
export async function findStory(db: Db<NewsroomTables>, id: string): Promise<StoryRow | null> {
  return (await storyById(db, id))[0] ?? null;
}

/** The story row with the packet of its current version (null when the version row is missing). */
export async function findStoryWithPacket(db: Db<NewsroomTables>, id: string): Promise<(StoryRow & { packet: unknown }) | null> {
  return (await storyWithPacketById(db, id))[0] ?? null;
}

// the story reads of a cache miss: built once (platform/db/reusable-query.ts)
const storyById = reusableQuery((db: Db<NewsroomTables>, id: string) =>
  db.selectFrom('stories').select(STORY_COLUMNS).where('stories.id', '=', id),
);
const storyWithPacketById = reusableQuery((db: Db<NewsroomTables>, id: string) =>
  withCurrentVersion(db).where('stories.id', '=', id).select('v.packet'),
);

/** The latest story_corrections row of a story, as jsonb (its created_at a timestamp text). */
export interface LatestCorrection {
  kind: 'CORRECTION' | 'RETRACTION';
  version: number;
  note: string;
  created_at: string;
}

export type StoryWithSources = StoryRow & {
  claims: { id: string; text: string }[] | null;
  citedUrls: string[] | null;
  sources: ActiveSource[];
  latestCorrection: LatestCorrection | null;
};

/**
 * The story details of `ids` in one round trip (the misses that arrive together share it): for each story found,
 * its row, the claims of its current packet and the URLs its packet cites in order (not the whole packet: its
 * title, summary and body are the row's own), its active sources in citation-insertion order, and its latest
 * correction or retraction (an index probe on story_corrections_story; null when none). claims and
 * citedUrls are null when the version row is missing. Rows come in no particular order; an unknown id has none.
 */
export const findStoriesWithSources: (db: Db<NewsroomTables>, ids: string[]) => Promise<StoryWithSources[]> = reusableQuery(
  (db: Db<NewsroomTables>, ids: string[]) =>
    withCurrentVersion(db)
      .where(sql<boolean>`stories.id = any(${ids}::text[])`)
      .select((eb) => [
        sql<{ id: string; text: string }[] | null>`v.packet -> 'claims'`.as('claims'),
        sql<string[] | null>`jsonb_path_query_array(v.packet, '$.sources[*].url')`.as('citedUrls'),
        jsonArrayFrom(
          eb
            .selectFrom('story_sources as s')
            .leftJoin('source_statuses as r', 'r.host', 's.host')
            .select(['s.id', 's.url', 's.title', 's.publisher', 's.status', sourceStatus])
            .whereRef('s.story_id', '=', 'stories.id')
            .where('s.active', '=', true)
            .orderBy('s.created_at')
            .orderBy('s.url'),
        ).as('sources'),
        sql<LatestCorrection | null>`(
        select jsonb_build_object('kind', c.kind, 'version', c.version, 'note', c.note, 'created_at', c.created_at)
        from story_corrections c where c.story_id = stories.id order by c.created_at desc, c.id desc limit 1)`.as('latestCorrection'),
      ]),
);

// The evidence reads of a story (its page, versions, sources, consensus and machine room): each built once and run
// as a named statement (platform/db/reusable-query.ts), like the detail above.

export const allSources = reusableQuery((db: Db<NewsroomTables>, storyId: string) =>
  db
    .selectFrom('story_sources as s')
    .leftJoin('source_statuses as r', 'r.host', 's.host')
    .select(['s.id', 's.url', 's.title', 's.publisher', 's.status', 's.active', 's.added_in_version', 's.created_at', sourceStatus])
    .where('s.story_id', '=', storyId)
    .orderBy('s.added_in_version')
    .orderBy('s.created_at')
    .orderBy('s.url'),
);

export const versions = reusableQuery((db: Db<NewsroomTables>, storyId: string) =>
  db
    .selectFrom('story_versions')
    .select(['version', 'packet_hash', 'packet', 'proposal_id', 'created_by', 'created_at'])
    .where('story_id', '=', storyId)
    .orderBy('version'),
);

/** The correction notes and retraction reasons of a story (story_corrections), oldest first. */
export const notices = reusableQuery((db: Db<NewsroomTables>, storyId: string) =>
  db
    .selectFrom('story_corrections')
    .select(['kind', 'version', 'note', 'created_at'])
    .where('story_id', '=', storyId)
    .orderBy('created_at'),
);

/**
 * Of these stories, those whose snapshot took weight off attestations from inside the author's flagged cluster
 * (the consensus's cluster discount): the stories that carry the collusion mark.
 */
export async function collusionMarked(db: Db<NewsroomTables>, storyIds: readonly string[]): Promise<string[]> {
  if (storyIds.length === 0) return [];
  const rows = await db
    .selectFrom('consensus_snapshots')
    .select('story_id')
    .where('story_id', 'in', [...storyIds])
    .where(sql<boolean>`(snapshot #>> '{clusterDiscount,applied}') = 'true' AND (snapshot #>> '{clusterDiscount,attestations}')::int > 0`)
    .execute();
  return rows.map((r) => r.story_id);
}

export async function consensus(db: Db<NewsroomTables>, storyId: string) {
  return (await consensusOf(db, storyId))[0] ?? null;
}

const consensusOf = reusableQuery((db: Db<NewsroomTables>, storyId: string) =>
  db.selectFrom('consensus_snapshots').select(['packet_hash', 'snapshot', 'computed_at']).where('story_id', '=', storyId),
);

export const reviewsOf = reusableQuery((db: Db<NewsroomTables>, storyId: string, packetHash: string) =>
  db
    .selectFrom('agent_reviews')
    .select(['id', 'bot_id', 'verified', 'kind', 'weight', 'confidence', 'note', 'claim_ids', 'evidence', 'created_at'])
    .where('story_id', '=', storyId)
    .where('packet_hash', '=', packetHash)
    .orderBy('created_at')
    .orderBy('id'),
);

/** Attestation and objection counts on every packet of the story except `packetHash`. */
export async function reviewCountsExcept(
  db: Db<NewsroomTables>,
  storyId: string,
  packetHash: string,
): Promise<{ attestations: number; objections: number }> {
  // an aggregate without GROUP BY answers one row
  const [row = { attestations: 0, objections: 0 }] = await reviewCountsExceptOf(db, storyId, packetHash);
  return row;
}

const reviewCountsExceptOf = reusableQuery((db: Db<NewsroomTables>, storyId: string, packetHash: string) =>
  db
    .selectFrom('agent_reviews')
    .select([
      sql<number>`count(*) filter (where kind = 'ATTESTATION')::int`.as('attestations'),
      sql<number>`count(*) filter (where kind = 'OBJECTION')::int`.as('objections'),
    ])
    .where('story_id', '=', storyId)
    .where('packet_hash', '<>', packetHash),
);

export const proposals = reusableQuery((db: Db<NewsroomTables>, storyId: string) =>
  db
    .selectFrom('revision_proposals')
    .select([
      'id',
      'bot_id',
      'status',
      'base_packet_hash',
      'changes',
      'rationale',
      'accept_votes',
      'reject_votes',
      'result_version',
      'created_at',
      'resolved_at',
    ])
    .where('story_id', '=', storyId)
    .orderBy('created_at')
    .orderBy('id'),
);

export async function latestTrace(db: Db<NewsroomTables>, storyId: string, packetHash: string) {
  return (await latestTraceOf(db, storyId, packetHash))[0] ?? null;
}

const latestTraceOf = reusableQuery((db: Db<NewsroomTables>, storyId: string, packetHash: string) =>
  db
    .selectFrom('safety_traces')
    .select(['packet_hash', 'decision', 'categories', 'rules', 'scanned_at'])
    .where('story_id', '=', storyId)
    .where('packet_hash', '=', packetHash)
    .orderBy('scanned_at', 'desc')
    .orderBy('id', 'desc')
    .limit(1),
);

/** Whether the database holds any story at all (the demo seeds an empty one only). */
export async function anyStory(db: Db<NewsroomTables>): Promise<boolean> {
  return (await db.selectFrom('stories').select('id').limit(1).executeTakeFirst()) !== undefined;
}

/** A story by id with what decides whether readers may act on it (published, visible), or null. */
export async function findStoryForAction(db: Db<NewsroomTables>, storyId: string) {
  return (
    (await db
      .selectFrom('stories')
      .select(['id', 'publication_stage', 'moderation_status'])
      .where('id', '=', storyId)
      .executeTakeFirst()) ?? null
  );
}

/** Stories whose current packet has a claim with this id (index story_versions_claims), with what decides access. */
export async function findStoriesOfCurrentClaim(db: Db<NewsroomTables>, claimId: string) {
  return db
    .selectFrom('story_versions as v')
    .innerJoin('stories as s', (join) => join.onRef('s.id', '=', 'v.story_id').onRef('s.current_version', '=', 'v.version'))
    .select(['s.id', 's.publication_stage', 's.moderation_status'])
    .where(sql<boolean>`v.packet -> 'claims' @> ${JSON.stringify([{ id: claimId }])}::jsonb`)
    .limit(20)
    .execute();
}
