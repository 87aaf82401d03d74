/**
 * The interaction data of a cartel analysis: who acted on whose work inside the window. Loaded by the
 * repository, turned into acts by `collectActs`. Bots are named by their bot id, humans by their actor id.
 */
export interface Interactions {
  /** Attestations and objections: the reviewing bot, the story, its author and room. */
  reviews: { botId: string; storyId: string; authorBotId: string; room: string; kind: 'ATTESTATION' | 'OBJECTION' }[];
  /** Votes on revision proposals: the voting bot, the proposal, its proposer, story and room. */
  revisionVotes: {
    botId: string;
    proposalId: string;
    proposerBotId: string;
    storyId: string;
    room: string;
    vote: 'ACCEPT' | 'REJECT';
  }[];
  /** Human reward votes: the reader, the story, its author and room. */
  rewardVotes: { actorId: string; storyId: string; authorBotId: string; room: string; vote: 'UP' | 'DOWN' }[];
  /** Human flags: the reader, the story, its author and room. */
  flags: { actorId: string; storyId: string; authorBotId: string; room: string }[];
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

/** One act of one node (a row of the data): at most one directed target and one co-action object. */
export interface Act {
  node: number;
  /** the room of the story (index into the sorted rooms): chance is computed within each room */
  stratum: number;
  storyId: string;
  proposalId: string | null;
  /** index into DIRECTED_CHANNELS, or -1 */
  directed: number;
  /** the node acted for, or -1 (none, or the actor's own work) */
  target: number;
  /** index into CO_CHANNELS */
  co: number;
  /** the object key of the co-action (story, proposal and vote, ...) */
  object: string;
}

export interface Nodes {
  /** `actor:<id>` / `bot:<id>`, sorted (actors first) */
  keys: string[];
  /** node index of a bot id */
  bots: Map<string, number>;
  /** node index of an actor id */
  actors: Map<string, number>;
}

/** The node of a key: its kind and the id as the answer names it. */
export function nodeOf(key: string): { kind: MemberKind; id: string } {
  return key.startsWith('bot:') ? { kind: 'bot', id: key.slice(4) } : { kind: 'actor', id: key.slice(6) };
}

/** Every node of the data, in one sorted order (the order everything downstream iterates in): actors, then bots. */
function collectNodes(data: Interactions): Nodes {
  const botIds = new Set<string>();
  const actorIds = new Set<string>();
  for (const r of data.reviews) botIds.add(r.botId).add(r.authorBotId);
  for (const v of data.revisionVotes) botIds.add(v.botId).add(v.proposerBotId);
  for (const v of data.rewardVotes) {
    actorIds.add(v.actorId);
    botIds.add(v.authorBotId);
  }
  for (const f of data.flags) actorIds.add(f.actorId);
  const byCodeUnit = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  const actorList = [...actorIds].sort(byCodeUnit);
  const botList = [...botIds].sort(byCodeUnit);
  return {
    keys: [...actorList.map((id) => `actor:${id}`), ...botList.map((id) => `bot:${id}`)],
    actors: new Map(actorList.map((id, i) => [id, i])),
    bots: new Map(botList.map((id, i) => [id, actorList.length + i])),
  };
}

/** The data as nodes and acts, and the rooms (strata). Acts on one's own work have no directed target. */
export function collectActs(data: Interactions): { nodes: Nodes; acts: Act[]; strata: number } {
  const nodes = collectNodes(data);
  const bot = (id: string) => nodes.bots.get(id)!;
  const actor = (id: string) => nodes.actors.get(id)!;
  const rooms = [...new Set([...data.reviews, ...data.revisionVotes, ...data.rewardVotes, ...data.flags].map((row) => row.room))].sort();
  const roomIndex = new Map(rooms.map((room, i) => [room, i]));
  const stratum = (room: string) => roomIndex.get(room)!;
  const acts: Act[] = [];
  const ATTESTS = 0;
  const ACCEPTS = 1;
  const REWARDS = 2;
  for (const r of data.reviews) {
    const node = bot(r.botId);
    const author = bot(r.authorBotId);
    const attest = r.kind === 'ATTESTATION';
    acts.push({
      node,
      stratum: stratum(r.room),
      storyId: r.storyId,
      proposalId: null,
      directed: attest && author !== node ? ATTESTS : -1,
      target: attest && author !== node ? author : -1,
      co: attest ? 0 : 1,
      object: r.storyId,
    });
  }
  for (const v of data.revisionVotes) {
    const node = bot(v.botId);
    const proposer = bot(v.proposerBotId);
    const accept = v.vote === 'ACCEPT' && proposer !== node;
    acts.push({
      node,
      stratum: stratum(v.room),
      storyId: v.storyId,
      proposalId: v.proposalId,
      directed: accept ? ACCEPTS : -1,
      target: accept ? proposer : -1,
      co: 2,
      object: `${v.proposalId}:${v.vote}`,
    });
  }
  for (const v of data.rewardVotes) {
    const node = actor(v.actorId);
    const up = v.vote === 'UP';
    acts.push({
      node,
      stratum: stratum(v.room),
      storyId: v.storyId,
      proposalId: null,
      directed: up ? REWARDS : -1,
      target: up ? bot(v.authorBotId) : -1,
      co: 3,
      object: `${v.storyId}:${v.vote}`,
    });
  }
  // one flag per reader per story counts (a reader may flag several claims of one story)
  const seenFlags = new Set<string>();
  for (const f of data.flags) {
    const key = `${f.actorId}\u0000${f.storyId}`;
    if (seenFlags.has(key)) continue;
    seenFlags.add(key);
    acts.push({
      node: actor(f.actorId),
      stratum: stratum(f.room),
      storyId: f.storyId,
      proposalId: null,
      directed: -1,
      target: -1,
      co: 4,
      object: f.storyId,
    });
  }
  return { nodes, acts, strata: rooms.length };
}
