import type { Interactions } from '../../src/governance/integrity/interactions.js';
import { seededRandom } from '../../src/governance/integrity/seeded-random.js';

/**
 * A simulated newsroom: honest bots and readers with skewed activity and popularity, and planted collusion
 * of several shapes. Everything is drawn from one seeded generator, so a seed always gives the same newsroom.
 */
export interface PlantedGroup {
  shape: 'pair' | 'ring' | 'camouflaged-ring' | 'reader-ring';
  members: string[];
}

export interface NewsroomPlan {
  seed: number;
  noise: number;
  /** share of honest activity inside one's own room */
  beat: number;
  bots: string[];
  readers: string[];
  stories: { id: string; authorBotId: string; room: string }[];
  proposals: { id: string; storyId: string; proposerBotId: string; room: string }[];
  data: Interactions;
  planted: PlantedGroup[];
}

export function planNewsroom(seed: number): NewsroomPlan {
  const rand = seededRandom(seed * 7919 + 17);
  const int = (lo: number, hi: number) => lo + Math.floor(rand() * (hi - lo + 1));
  const pick = <T>(list: T[]) => list[Math.floor(rand() * list.length)]!;
  const chance = (p: number) => rand() < p;
  const tag = `s${seed}`;
  // noise: how much honest activity surrounds the cartels, and how much cartels mix with it
  const noise = 0.5 + rand();

  const honestBots = Array.from({ length: int(60, 140) }, (_, i) => `bot_${tag}_h${i}`);
  const readers = Array.from({ length: int(60, 160) }, (_, i) => `reader_${tag}_${i}`);
  const planted: PlantedGroup[] = [];
  const group = (shape: PlantedGroup['shape'], size: number, prefix: string) => {
    const members = Array.from({ length: size }, (_, i) => `${prefix}_${tag}_${planted.length}_${i}`);
    planted.push({ shape, members });
    return members;
  };
  const pairs = Array.from({ length: int(1, 2) }, () => group('pair', 2, 'bot'));
  const rings = Array.from({ length: int(1, 2) }, () => group('ring', int(3, 7), 'bot'));
  const camouflaged = group('camouflaged-ring', int(4, 6), 'bot');
  const readerBots = group('ring', int(3, 4), 'bot');
  const readerRing = group('reader-ring', int(4, 10), 'reader');
  const cartelBots = [...pairs, ...rings, camouflaged, readerBots];
  const bots = [...honestBots, ...cartelBots.flat()];

  // stories: every bot writes a few; popularity is heavy-tailed (a few stories draw crowds)
  const stories: NewsroomPlan['stories'] = [];
  const popularity: number[] = [];
  const cartelBotSet = new Set(cartelBots.flat());
  // rooms: every bot and reader has a beat; honest ones review and vote mostly inside it (topical overlap
  // that is not collusion)
  const ROOMS = ['world', 'politics', 'business', 'science', 'sports'];
  const beat = 0.5 + rand() * 0.3;
  const homeRoom = new Map<string, string>();
  const roomOf = (who: string) => {
    if (!homeRoom.has(who)) homeRoom.set(who, pick(ROOMS));
    return homeRoom.get(who)!;
  };
  for (const bot of bots) {
    for (let i = cartelBotSet.has(bot) ? int(3, 8) : int(2, 7); i > 0; i--) {
      stories.push({ id: `st_${tag}_${stories.length}`, authorBotId: bot, room: roomOf(bot) });
      popularity.push(1 / Math.pow(rand() + 0.02, 1.2));
    }
  }
  const totalPopularity = popularity.reduce((a, b) => a + b, 0);
  const popularStory = () => {
    let x = rand() * totalPopularity;
    for (let i = 0; i < stories.length; i++) {
      x -= popularity[i]!;
      if (x <= 0) return stories[i]!;
    }
    return stories[stories.length - 1]!;
  };
  /** A popular story, inside `who`'s beat with probability `beat`. */
  const storyFor = (who: string) => {
    if (!chance(beat)) return popularStory();
    const room = roomOf(who);
    for (;;) {
      const s = popularStory();
      if (s.room === room) return s;
    }
  };
  const storiesOf = new Map<string, NewsroomPlan['stories']>();
  for (const s of stories) storiesOf.set(s.authorBotId, [...(storiesOf.get(s.authorBotId) ?? []), s]);

  const data: Interactions = { reviews: [], revisionVotes: [], rewardVotes: [], flags: [] };
  const reviewed = new Set<string>();
  const review = (botId: string, story: { id: string; authorBotId: string; room: string }, kind: 'ATTESTATION' | 'OBJECTION') => {
    const key = `${botId}|${story.id}`;
    if (story.authorBotId === botId || reviewed.has(key)) return;
    reviewed.add(key);
    data.reviews.push({ botId, storyId: story.id, authorBotId: story.authorBotId, room: story.room, kind });
  };
  const voted = new Set<string>();
  const rewardVote = (actorId: string, story: { id: string; authorBotId: string; room: string }, vote: 'UP' | 'DOWN') => {
    const key = `${actorId}|${story.id}`;
    if (voted.has(key)) return;
    voted.add(key);
    data.rewardVotes.push({ actorId, storyId: story.id, authorBotId: story.authorBotId, room: story.room, vote });
  };
  const flagged = new Set<string>();
  const flag = (actorId: string, story: { id: string; authorBotId: string; room: string }) => {
    const key = `${actorId}|${story.id}`;
    if (flagged.has(key)) return;
    flagged.add(key);
    data.flags.push({ actorId, storyId: story.id, authorBotId: story.authorBotId, room: story.room });
  };

  // honest bots: busy ones and quiet ones, reviewing what is popular, mostly attesting
  for (const bot of [...honestBots, ...cartelBots.flat()]) {
    const honestReviews = cartelBots.flat().includes(bot) ? int(0, 3) : Math.round(int(5, 60) * noise);
    for (let i = 0; i < honestReviews; i++) review(bot, storyFor(bot), chance(0.85) ? 'ATTESTATION' : 'OBJECTION');
  }
  // honest readers: up-vote popular stories, sometimes down-vote, rarely flag
  for (const reader of readers) {
    for (let i = Math.round(int(3, 40) * noise); i > 0; i--) rewardVote(reader, storyFor(reader), chance(0.8) ? 'UP' : 'DOWN');
    for (let i = int(0, 3); i > 0; i--) flag(reader, storyFor(reader));
  }
  // revision proposals: honest bots propose, a few random bots vote
  const proposals: NewsroomPlan['proposals'] = [];
  const proposalVotes = new Set<string>();
  const voteOn = (botId: string, proposal: NewsroomPlan['proposals'][number], vote: 'ACCEPT' | 'REJECT') => {
    const key = `${botId}|${proposal.id}`;
    if (proposal.proposerBotId === botId || proposalVotes.has(key)) return;
    proposalVotes.add(key);
    data.revisionVotes.push({
      botId,
      proposalId: proposal.id,
      proposerBotId: proposal.proposerBotId,
      storyId: proposal.storyId,
      room: proposal.room,
      vote,
    });
  };
  const propose = (botId: string) => {
    const story = storyFor(botId);
    const proposal = { id: `rp_${tag}_${proposals.length}`, storyId: story.id, proposerBotId: botId, room: story.room };
    proposals.push(proposal);
    return proposal;
  };
  for (let i = Math.round(bots.length * 0.6 * noise); i > 0; i--) {
    const proposal = propose(pick(honestBots));
    for (let v = int(1, 4); v > 0; v--) voteOn(pick(honestBots), proposal, chance(0.6) ? 'ACCEPT' : 'REJECT');
  }

  // planted: bots attesting each other's stories (all or most of them), voting each other's revisions through,
  // objecting in lock-step to outsiders' stories
  const cartel = (members: string[], outsideShare: number) => {
    for (const bot of members) {
      for (const other of members) {
        if (other === bot) continue;
        for (const s of storiesOf.get(other) ?? []) if (chance(0.9)) review(bot, s, 'ATTESTATION');
      }
    }
    if (members.length >= 3) {
      for (const bot of members) {
        const proposal = propose(bot);
        for (const other of members) if (chance(0.9)) voteOn(other, proposal, 'ACCEPT');
      }
      for (let t = int(1, 3); t > 0; t--) {
        const target = popularStory();
        if (members.includes(target.authorBotId)) continue;
        for (const bot of members) if (chance(0.85)) review(bot, target, 'OBJECTION');
      }
    }
    // camouflage: attestations of outsiders' stories, as honest bots make them
    for (const bot of members) {
      const inside = data.reviews.filter((r) => r.botId === bot).length;
      for (let i = Math.round((inside * outsideShare) / (1 - outsideShare)); i > 0; i--) review(bot, popularStory(), 'ATTESTATION');
    }
  };
  for (const pair of pairs) cartel(pair, 0.1);
  for (const ring of rings) cartel(ring, 0.1);
  cartel(camouflaged, 0.2 + rand() * 0.15);
  cartel(readerBots, 0.1);
  // the reader ring: up-votes every story of its bot group, and flags outsiders' stories together
  const groupStories = readerBots.flatMap((b) => storiesOf.get(b) ?? []);
  for (const reader of readerRing) {
    for (const s of groupStories) if (chance(0.9)) rewardVote(reader, s, 'UP');
    for (let i = int(0, 4); i > 0; i--) rewardVote(reader, popularStory(), 'UP');
  }
  for (let t = int(2, 4); t > 0; t--) {
    const target = popularStory();
    if (readerBots.includes(target.authorBotId)) continue;
    for (const reader of readerRing) if (chance(0.85)) flag(reader, target);
  }
  return { seed, noise, beat, bots, readers: [...readers, ...readerRing], stories, proposals, data, planted };
}
