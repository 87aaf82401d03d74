import { Interner } from '../../platform/interner.js';
import type { FlagRow, Interactions, ReviewRow, RevisionVoteRow, RewardVoteRow, StoryRow } from './interactions.js';

/**
 * The acts of a window, one typed column per field: act i is the i-th row that counts, in the order the rows
 * were handed to the collector (reviews, then revision votes, reward votes and flags). About 26 bytes an act
 * where a row object with its strings took several hundred; ids are interned (nodes, rooms, stories,
 * proposals are integers).
 */
export interface Acts {
  length: number;
  /** the acting node */
  node: Int32Array;
  /** the room of the story (index into the sorted rooms): chance is computed within each room */
  stratum: Int32Array;
  /** the story (index into `storyIds`) */
  story: Int32Array;
  /** the revision proposal (index into `proposalIds`), or -1 */
  proposal: Int32Array;
  /** index into DIRECTED_CHANNELS, or -1 */
  directed: Int8Array;
  /** the node acted for, or -1 (none, or the actor's own work) */
  target: Int32Array;
  /** index into CO_CHANNELS */
  co: Int8Array;
  /** the object of the co-action within its channel: a story, a story and vote, a proposal and vote */
  object: Int32Array;
}

export interface CollectedActs {
  /** `actor:<id>` / `bot:<id>`, sorted (actors first): node i is keys[i], the order everything downstream iterates in */
  keys: string[];
  acts: Acts;
  /** how many rooms (strata) */
  strata: number;
  storyIds: string[];
  proposalIds: string[];
  /** per co-action channel, how many object ids it may use (objects are 0 … count − 1) */
  objectCounts: number[];
}

const byCodeUnit = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** For each interned id, its rank once the values are sorted (code-unit order), plus `offset`. */
function ranks(values: string[], offset: number): Int32Array {
  const order = values.map((_, i) => i).sort((x, y) => byCodeUnit(values[x]!, values[y]!));
  const rank = new Int32Array(values.length);
  order.forEach((id, r) => (rank[id] = offset + r));
  return rank;
}

const ATTESTS = 0;
const ACCEPTS = 1;
const REWARDS = 2;
const [CO_ATTESTS, CO_OBJECTS, CO_VOTES_REVISION, CO_REWARDS, CO_FLAGS] = [0, 1, 2, 3, 4];
/** A target not known until the stories are: the author of the act's story. */
const STORY_AUTHOR = -2;

const doubled = <T extends Int32Array | Int8Array>(column: T): T => {
  const next = new (column.constructor as new (n: number) => T)(column.length * 2);
  next.set(column);
  return next;
};

/**
 * Turns rows into acts as they come, batch by batch, holding only the acts: a batch can be dropped once added.
 * Hand it the reviews first, then the revision votes, the reward votes and the flags (the order of the acts),
 * then the stories they name (`storyIds`): the room of each act and the author an attestation or up-vote is done
 * for are filled in from those. Nodes are numbered as met and renumbered in sorted order by `finish`. Acts on
 * one's own work have no directed target; one flag per reader per story counts (a reader may flag several
 * claims of one story).
 */
export class ActCollector {
  private readonly bots = new Interner();
  private readonly actors = new Interner();
  private readonly stories = new Interner();
  private readonly proposals = new Interner();
  /** per story: 1 when its author is a node (it has reviews or reward votes) */
  private authorIsNode = new Int8Array(1 << 10);
  private readonly storyRows = new Map<number, StoryRow>();
  /** the stories each reader has flagged (by interned ids) */
  private readonly flagged = new Map<number, Set<number>>();
  private length = 0;
  // node and target hold provisional ids until `finish`: 2 · bot or 2 · actor + 1
  private node = new Int32Array(1 << 12);
  private story = new Int32Array(1 << 12);
  private proposal = new Int32Array(1 << 12);
  private directed = new Int8Array(1 << 12);
  private target = new Int32Array(1 << 12);
  private co = new Int8Array(1 << 12);
  private object = new Int32Array(1 << 12);

  private bot(id: string): number {
    return 2 * this.bots.of(id);
  }

  private actor(id: string): number {
    return 2 * this.actors.of(id) + 1;
  }

  private storyOf(id: string, authorIsNode: boolean): number {
    const story = this.stories.of(id);
    if (story >= this.authorIsNode.length) this.authorIsNode = doubled(this.authorIsNode);
    if (authorIsNode) this.authorIsNode[story] = 1;
    return story;
  }

  private push(node: number, story: number, proposal: number, directed: number, target: number, co: number, object: number) {
    if (this.length === this.node.length) {
      this.node = doubled(this.node);
      this.story = doubled(this.story);
      this.proposal = doubled(this.proposal);
      this.directed = doubled(this.directed);
      this.target = doubled(this.target);
      this.co = doubled(this.co);
      this.object = doubled(this.object);
    }
    const i = this.length++;
    this.node[i] = node;
    this.story[i] = story;
    this.proposal[i] = proposal;
    this.directed[i] = directed;
    this.target[i] = target;
    this.co[i] = co;
    this.object[i] = object;
  }

  addReviews(rows: readonly ReviewRow[]): void {
    for (const r of rows) {
      const attest = r.kind === 'ATTESTATION';
      const story = this.storyOf(r.storyId, true);
      // an attestation of one's own story has no target: `finish` drops it once the author is known
      this.push(this.bot(r.botId), story, -1, attest ? ATTESTS : -1, attest ? STORY_AUTHOR : -1, attest ? CO_ATTESTS : CO_OBJECTS, story);
    }
  }

  addRevisionVotes(rows: readonly RevisionVoteRow[]): void {
    for (const v of rows) {
      const node = this.bot(v.botId);
      const proposer = this.bot(v.proposerBotId);
      const accept = v.vote === 'ACCEPT';
      const directed = accept && proposer !== node;
      const proposal = this.proposals.of(v.proposalId);
      // the object is the proposal and the vote: voting the same way
      const object = 2 * proposal + (accept ? 0 : 1);
      this.push(
        node,
        this.storyOf(v.storyId, false),
        proposal,
        directed ? ACCEPTS : -1,
        directed ? proposer : -1,
        CO_VOTES_REVISION,
        object,
      );
    }
  }

  addRewardVotes(rows: readonly RewardVoteRow[]): void {
    for (const v of rows) {
      const up = v.vote === 'UP';
      const story = this.storyOf(v.storyId, true);
      this.push(this.actor(v.actorId), story, -1, up ? REWARDS : -1, up ? STORY_AUTHOR : -1, CO_REWARDS, 2 * story + (up ? 0 : 1));
    }
  }

  addFlags(rows: readonly FlagRow[]): void {
    for (const f of rows) {
      const node = this.actor(f.actorId);
      const story = this.storyOf(f.storyId, false);
      const seen = this.flagged.get(node) ?? new Set<number>();
      this.flagged.set(node, seen);
      if (seen.has(story)) continue;
      seen.add(story);
      this.push(node, story, -1, -1, -1, CO_FLAGS, story);
    }
  }

  /** The stories the rows named so far: their rows are wanted before `finish`. */
  storyIds(): readonly string[] {
    return this.stories.list;
  }

  /** The author and room of stories (others than those `storyIds` names are ignored). */
  addStories(rows: readonly StoryRow[]): void {
    for (const s of rows) {
      const story = this.stories.find(s.id);
      if (story >= 0 && !this.storyRows.has(story)) this.storyRows.set(story, s);
    }
  }

  /** The acts, with nodes numbered in sorted order (actors, then bots) and rooms in sorted order. */
  finish(): CollectedActs {
    const storyCount = this.stories.list.length;
    const rooms = new Interner();
    const storyRoom = new Int32Array(storyCount);
    const storyAuthor = new Int32Array(storyCount).fill(-1);
    for (let s = 0; s < storyCount; s++) {
      const row = this.storyRows.get(s);
      if (!row) throw new Error(`the story ${this.stories.list[s]} of an act was not read`);
      storyRoom[s] = rooms.of(row.room);
      if (this.authorIsNode[s] !== 1) continue;
      if (row.authorBotId === null) throw new Error(`the author of the story ${row.id} was not read`);
      storyAuthor[s] = this.bot(row.authorBotId);
    }
    const actorRank = ranks(this.actors.list, 0);
    const botRank = ranks(this.bots.list, this.actors.list.length);
    const renumber = (provisional: number) => (provisional & 1 ? actorRank[provisional >> 1]! : botRank[provisional >> 1]!);
    const roomRank = ranks(rooms.list, 0);
    const n = this.length;
    const node = this.node.subarray(0, n);
    const target = this.target.subarray(0, n);
    const directed = this.directed.subarray(0, n);
    const stratum = new Int32Array(n);
    for (let i = 0; i < n; i++) {
      let t = target[i]!;
      if (t === STORY_AUTHOR) {
        t = storyAuthor[this.story[i]!]!;
        if (t === node[i]) {
          t = -1;
          directed[i] = -1;
        }
      }
      target[i] = t >= 0 ? renumber(t) : -1;
      node[i] = renumber(node[i]!);
      stratum[i] = roomRank[storyRoom[this.story[i]!]!]!;
    }
    const keys = [
      ...[...this.actors.list].sort(byCodeUnit).map((id) => `actor:${id}`),
      ...[...this.bots.list].sort(byCodeUnit).map((id) => `bot:${id}`),
    ];
    return {
      keys,
      acts: {
        length: n,
        node,
        stratum,
        story: this.story.subarray(0, n),
        proposal: this.proposal.subarray(0, n),
        directed,
        target,
        co: this.co.subarray(0, n),
        object: this.object.subarray(0, n),
      },
      strata: rooms.list.length,
      storyIds: this.stories.list,
      proposalIds: this.proposals.list,
      objectCounts: [storyCount, storyCount, 2 * this.proposals.list.length, 2 * storyCount, storyCount],
    };
  }
}

/** The acts of rows held whole (tests, the simulator's plans): the stories' rooms and authors come from the rows. */
export function collectActs(data: Interactions): CollectedActs {
  const collector = new ActCollector();
  collector.addReviews(data.reviews);
  collector.addRevisionVotes(data.revisionVotes);
  collector.addRewardVotes(data.rewardVotes);
  collector.addFlags(data.flags);
  collector.addStories(
    [...data.reviews, ...data.rewardVotes, ...data.flags].map((r) => ({ id: r.storyId, authorBotId: r.authorBotId, room: r.room })),
  );
  collector.addStories(data.revisionVotes.map((v) => ({ id: v.storyId, authorBotId: null, room: v.room })));
  return collector.finish();
}

/**
 * The acts of each node, in act order: node m's are list[start[m] … start[m + 1]). Built from `key` (the acting
 * node, or the target: -1 leaves an act out) by a counting sort, which keeps the order.
 */
export interface ActsByNode {
  start: Int32Array;
  list: Int32Array;
}

export function actsByNode(key: Int32Array, nodeCount: number): ActsByNode {
  const start = new Int32Array(nodeCount + 1);
  for (let i = 0; i < key.length; i++) if (key[i]! >= 0) start[key[i]! + 1]! += 1;
  for (let m = 0; m < nodeCount; m++) start[m + 1]! += start[m]!;
  const next = start.slice(0, nodeCount);
  const list = new Int32Array(start[nodeCount]!);
  for (let i = 0; i < key.length; i++) if (key[i]! >= 0) list[next[key[i]!]!++] = i;
  return { start, list };
}
