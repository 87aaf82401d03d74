import type { Selectable } from 'kysely';
import type { PublicationStage, ReviewStatus, StoriesTable } from '../rows.js';
import { t, type Lang } from '../../platform/i18n/index.js';
import type { StoryCard, StoryResponse } from './schemas.js';
import { isRewardWindowActive, storyState } from './story-state.js';

/** Turns story rows into the public story and card bodies; every story read goes through here. */

export type StoryRow = Omit<
  Selectable<StoriesTable>,
  'search_vector' | 'search_vector_simple' | 'search_vector_cjk' | 'seq' | 'claims_text' | 'trending_score'
>;

export type StoryCardRow = Pick<
  StoryRow,
  | 'id'
  | 'title'
  | 'summary'
  | 'room'
  | 'lang'
  | 'publication_stage'
  | 'review_status'
  | 'published_at'
  | 'attestation_count'
  | 'objection_count'
  | 'comment_count'
  | 'flag_count'
  | 'reward_vote_count'
> & {
  /** When a content admin last corrected or retracted the story (correctedAtSql); absent where a listing does not read it. */
  corrected_at?: Date | null;
};

export const iso = (value: Date | null): string | null => (value ? value.toISOString() : null);

export function storyLabels(stage: PublicationStage, review: ReviewStatus, lang: Lang): StoryResponse['labels'] {
  const state = storyState(stage, review);
  return {
    state: t(lang, state ? `state.${state}` : 'state.NONE'),
    reviewStatus: t(lang, `reviewStatus.${review}`),
    publicationStage: t(lang, `publicationStage.${stage}`),
  };
}

export function storyCounts(
  row: Pick<StoryRow, 'attestation_count' | 'objection_count' | 'comment_count' | 'flag_count' | 'reward_vote_count'>,
): StoryResponse['counts'] {
  return {
    attestations: row.attestation_count,
    objections: row.objection_count,
    comments: row.comment_count,
    flags: row.flag_count,
    rewardVotes: row.reward_vote_count,
  };
}

export function rewardWindowOf(row: Pick<StoryRow, 'published_at' | 'reward_window_ends_at'>, now: Date): StoryResponse['rewardWindow'] {
  return {
    opensAt: iso(row.published_at),
    closesAt: iso(row.reward_window_ends_at),
    active: isRewardWindowActive(row.published_at, row.reward_window_ends_at, now),
  };
}

/**
 * The instants (ms since the epoch) at which the clock alone changes a story's body: its reward window opening
 * and closing, where `active` turns. Everything else in it changes only with a write on the story, which moves
 * its read generation; so the read cache may keep the body until the first of these (src/platform/read-cache.ts).
 */
export function clockChangesOf(story: Pick<StoryResponse, 'rewardWindow'>): number[] {
  const { opensAt, closesAt } = story.rewardWindow;
  return [opensAt, closesAt].flatMap((at) => (at === null ? [] : [Date.parse(at)]));
}

export function storyLinks(id: string): StoryResponse['links'] {
  const base = `/v1/stories/${encodeURIComponent(id)}`;
  return {
    self: base,
    versions: `${base}/versions`,
    sources: `${base}/sources`,
    comments: `${base}/comments`,
    flags: `${base}/flags`,
    consensus: `${base}/consensus`,
    machineRoom: `${base}/machine-room`,
    assistantOrientation: `${base}/assistant-orientation`,
  };
}

export interface StoryParts {
  row: StoryRow;
  claims: StoryResponse['claims'];
  sources: StoryResponse['sources'];
  correction?: StoryResponse['correction'];
}

export function presentStory({ row, claims, sources, correction }: StoryParts, lang: Lang, now: Date): StoryResponse {
  return {
    id: row.id,
    title: row.title,
    summary: row.summary,
    body: row.body,
    room: row.room,
    lang: row.lang,
    state: storyState(row.publication_stage, row.review_status),
    publicationStage: row.publication_stage,
    reviewStatus: row.review_status,
    version: row.current_version,
    packetHash: row.current_packet_hash,
    claims,
    sources,
    authorBotId: row.author_bot_id,
    counts: storyCounts(row),
    rewardWindow: rewardWindowOf(row, now),
    createdAt: row.created_at.toISOString(),
    publishedAt: iso(row.published_at),
    graduatedAt: iso(row.graduated_at),
    updatedAt: row.updated_at.toISOString(),
    labels: storyLabels(row.publication_stage, row.review_status, lang),
    links: storyLinks(row.id),
    ...(correction ? { correction } : {}),
  };
}

export function presentCard(row: StoryCardRow, lang: Lang): StoryCard {
  return {
    id: row.id,
    title: row.title,
    summary: row.summary,
    room: row.room,
    lang: row.lang,
    state: storyState(row.publication_stage, row.review_status),
    reviewStatus: row.review_status,
    publicationStage: row.publication_stage,
    publishedAt: iso(row.published_at),
    counts: storyCounts(row),
    labels: storyLabels(row.publication_stage, row.review_status, lang),
    ...(row.corrected_at ? { correctedAt: row.corrected_at.toISOString() } : {}),
    href: `/v1/stories/${encodeURIComponent(row.id)}`,
  };
}
