/**
 * The interaction data of a cartel analysis: who acted on whose work inside the window, row by row. The
 * repository reads the rows in batches and the stories they name after them; `ActCollector` (acts.ts) turns
 * them into acts as they come. Bots are named by their bot id, humans by their actor id.
 */

/** An attestation or objection: the reviewing bot and the story. */
export interface ReviewRow {
  botId: string;
  storyId: string;
  kind: 'ATTESTATION' | 'OBJECTION';
}
/** A vote on a revision proposal: the voting bot, the proposal, its proposer and story. */
export interface RevisionVoteRow {
  botId: string;
  proposalId: string;
  proposerBotId: string;
  storyId: string;
  vote: 'ACCEPT' | 'REJECT';
}
/** A human reward vote: the reader and the story. */
export interface RewardVoteRow {
  actorId: string;
  storyId: string;
  vote: 'UP' | 'DOWN';
}
/** A human flag: the reader and the story. */
export interface FlagRow {
  actorId: string;
  storyId: string;
}
/**
 * A story the rows name: its room (every act happens in its story's room) and its author (an attestation or an
 * up-vote is done for the author); null when not known, which only rows held whole can leave (a story that only
 * revision votes name: its author is no node then).
 */
export interface StoryRow {
  id: string;
  authorBotId: string | null;
  room: string;
}

/** The rows of a window held whole, each with its story's room and, where it has one, author (tests, the simulator). */
export interface Interactions {
  reviews: (ReviewRow & { authorBotId: string; room: string })[];
  revisionVotes: (RevisionVoteRow & { room: string })[];
  rewardVotes: (RewardVoteRow & { authorBotId: string; room: string })[];
  flags: (FlagRow & { authorBotId: string; room: string })[];
}

export type MemberKind = 'bot' | 'actor';

/**
 * Directed channels: the actor does something *for* the target (a bot attesting another bot's story, a bot
 * voting ACCEPT on another bot's revision, a reader up-voting a bot's story).
 */
export const DIRECTED_CHANNELS = ['attests', 'acceptsRevision', 'rewards'] as const;
/**
 * Co-action channels: two actors doing the same thing to the same object (both attesting a story, both
 * objecting to it, voting the same way on a revision proposal, reward-voting it the same way, flagging it).
 */
export const CO_CHANNELS = ['coAttests', 'coObjects', 'coVotesRevision', 'coRewards', 'coFlags'] as const;
export type DirectedChannel = (typeof DIRECTED_CHANNELS)[number];
export type CoChannel = (typeof CO_CHANNELS)[number];
export type Channel = DirectedChannel | CoChannel;

/** The node of a key: its kind and the id as the answer names it. */
export function nodeOf(key: string): { kind: MemberKind; id: string } {
  return key.startsWith('bot:') ? { kind: 'bot', id: key.slice(4) } : { kind: 'actor', id: key.slice(6) };
}

/** What reads the window: the rows of each kind, a batch at a time, then the stories they name (acts.ts, ActCollector). */
export interface WindowReader {
  addReviews(rows: readonly ReviewRow[]): void;
  addRevisionVotes(rows: readonly RevisionVoteRow[]): void;
  addRewardVotes(rows: readonly RewardVoteRow[]): void;
  addFlags(rows: readonly FlagRow[]): void;
  storyIds(): readonly string[];
  addStories(rows: readonly StoryRow[]): void;
}
