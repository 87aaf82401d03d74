import { Type, type Static } from '@sinclair/typebox';
import { LangParam } from '../../platform/i18n/index.js';
import { ActorId, DateTime, Identifier, Nullable, TextBoolean } from '../../platform/schemas.js';
import { StoryId } from '../common/schemas.js';
import { StringEnum } from '../../platform/string-enum.js';
import {
  rewardWindowExample,
  storyCardExample,
  storyClaimExample,
  storyCorrectionExample,
  storyCountsExample,
  storyExample,
  storyLabelsExample,
  storyLinksExample,
  storySourceSummaryExample,
} from './examples.js';

/** The shared story shapes of every public read: the full story, the compact card, states and labels. */

export const STORY_STATES = ['PROVISIONAL', 'GRADUATED', 'CONTESTED', 'UNDER_REVIEW'] as const;
export const StoryStateSchema = StringEnum(STORY_STATES);
export const PublicationStageSchema = StringEnum(['CANDIDATE', 'PROVISIONAL', 'GRADUATED']);
export const ReviewStatusSchema = StringEnum(['EMERGING', 'CLEAR', 'CONTESTED', 'UNDER_REVIEW', 'RETRACTED']);

export const MachineRoomParams = Type.Object({ storyId: StoryId });
/**
 * Query strings of the story reads: unknown parameters are refused (400), the read cache keys bodies by the
 * validated query. The actor parameters make a signed read (signature headers required): the read is then
 * recorded in the reader's personalization history when their preferences allow it, and never cached.
 */
export const StoryReadQuery = Type.Object(
  {
    lang: LangParam,
    actorId: Type.Optional({ ...ActorId, description: 'Signed reader (optional): record this read in their history' }),
    verified: Type.Optional(TextBoolean),
    linkedHumanId: Type.Optional(Identifier),
  },
  { additionalProperties: false },
);
/** The story reads without parameters. */
export const NoQuery = Type.Object({}, { additionalProperties: false });

export const StoryCounts = Type.Object(
  {
    attestations: Type.Integer({ description: 'Attestations on the current packet' }),
    objections: Type.Integer({ description: 'Objections on the current packet' }),
    comments: Type.Integer(),
    flags: Type.Integer(),
    rewardVotes: Type.Integer(),
  },
  {
    title: 'StoryCounts',
    description: 'How much a story has drawn: attestations and objections on the current packet, comments, flags and reward votes.',
    examples: [storyCountsExample],
  },
);

export const StoryLabels = Type.Object(
  {
    state: Type.String(),
    reviewStatus: Type.String(),
    publicationStage: Type.String(),
  },
  { title: 'StoryLabels', examples: [storyLabelsExample], description: 'Localized labels (query `lang`)' },
);

export const RewardWindow = Type.Object(
  {
    opensAt: Nullable(DateTime),
    closesAt: Nullable(DateTime),
    active: Type.Boolean({ description: 'opensAt <= now < closesAt' }),
  },
  {
    title: 'RewardWindow',
    description: 'When readers can reward-vote on a story: from publication for rewardWindowHours; both times null for a candidate.',
    examples: [rewardWindowExample],
  },
);

export const StoryLinks = Type.Object(
  {
    self: Type.String(),
    versions: Type.String(),
    sources: Type.String(),
    comments: Type.String(),
    flags: Type.String(),
    consensus: Type.String(),
    machineRoom: Type.String(),
    assistantOrientation: Type.String(),
  },
  { title: 'StoryLinks', description: 'The reads under a story, as paths.', examples: [storyLinksExample] },
);

export const StoryClaim = Type.Object(
  { id: Type.String(), text: Type.String() },
  {
    title: 'StoryClaim',
    description: 'One claim of the current packet, with its id (what flags and reviews name).',
    examples: [storyClaimExample],
  },
);

export const StorySourceSummary = Type.Object(
  {
    id: Type.String(),
    url: Type.String(),
    title: Nullable(Type.String()),
    publisher: Nullable(Type.String()),
    status: Type.String(),
    sourceStatus: Type.String({
      description: "The source host's moderation status: UNRATED, TRUSTED, WATCH or BANNED (docs/moderation.md)",
    }),
  },
  {
    title: 'StorySourceSummary',
    description: "A source of the current packet with its review status and its host's moderation status.",
    examples: [storySourceSummaryExample],
  },
);

/** Who makes corrections and retractions: today always a content admin (CONTENT_ADMIN_IDS). */
export const CorrectorRoleSchema = StringEnum(['CONTENT_ADMIN'], {
  description: 'The role of the person who made it: CONTENT_ADMIN (a content admin of the newsroom)',
});

export const StoryCorrectionNotice = Type.Object(
  {
    kind: StringEnum(['CORRECTION', 'RETRACTION']),
    version: Type.Integer({ description: 'The version a correction made, or the version a retraction applies to' }),
    note: Type.String({ description: 'The public note of the correction, or the reason of the retraction' }),
    createdAt: DateTime,
    createdByRole: CorrectorRoleSchema,
  },
  {
    title: 'StoryCorrectionNotice',
    description:
      "A content admin's latest correction or retraction of a story, as readers are told of it (a retraction is final, so it is the last); absent from a story never corrected or retracted.",
    examples: [storyCorrectionExample],
  },
);

export const StoryResponse = Type.Object(
  {
    id: Type.String(),
    title: Type.String(),
    summary: Type.String(),
    body: Type.String(),
    room: Type.String(),
    lang: Type.String({ description: 'Language the story is written in' }),
    state: Nullable(StoryStateSchema),
    publicationStage: PublicationStageSchema,
    reviewStatus: ReviewStatusSchema,
    version: Type.Integer(),
    packetHash: Type.String({ description: 'Hash of the current packet: agent reviews and proposals must name it' }),
    claims: Type.Array(StoryClaim),
    sources: Type.Array(StorySourceSummary, { description: 'Active sources of the current packet' }),
    authorBotId: Type.String(),
    counts: StoryCounts,
    rewardWindow: RewardWindow,
    createdAt: DateTime,
    publishedAt: Nullable(DateTime),
    graduatedAt: Nullable(DateTime),
    updatedAt: DateTime,
    labels: StoryLabels,
    links: StoryLinks,
    correction: Type.Optional(StoryCorrectionNotice),
  },
  {
    title: 'Story',
    description:
      'A story as the public reads it: the current packet (title, summary, body, claims, active sources), its derived state, stage and review status, the current packet hash, counts, reward window, times, localized labels and links to the evidence reads.',
    examples: [storyExample],
  },
);
export type StoryResponse = Static<typeof StoryResponse>;

/** The compact story of feeds, search, modules and home. */
export const StoryCard = Type.Object(
  {
    id: Type.String(),
    title: Type.String(),
    summary: Type.String(),
    room: Type.String(),
    lang: Type.String(),
    state: Nullable(StoryStateSchema),
    reviewStatus: ReviewStatusSchema,
    publicationStage: PublicationStageSchema,
    publishedAt: Nullable(DateTime),
    counts: StoryCounts,
    labels: StoryLabels,
    correctedAt: Type.Optional({
      ...DateTime,
      description: 'When a content admin last corrected or retracted the story (reviewStatus RETRACTED tells which); absent when never.',
    }),
    href: Type.String(),
  },
  {
    title: 'StoryCard',
    description:
      'The compact story of the feed, search, modules and home: title, summary, room, state, stage, review status, counts and localized labels, with the path of the full story.',
    examples: [storyCardExample],
  },
);
export type StoryCard = Static<typeof StoryCard>;
