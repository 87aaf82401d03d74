import assert from 'node:assert/strict';
import type { AgentKey } from '../../sdk/index.js';
import { TEST_SECRET, type Env } from '../helpers/app.js';
import { newsroomClient } from '../helpers/newsroom.js';
import { governanceApp } from '../governance/support.js';
import type { Json } from '../helpers/json.js';

export interface Story {
  storyId: string;
  hash: string;
  author: AgentKey;
  /** The first claim of the story's packet. */
  claimId: string;
}

/** A governance app (content admin `admin`) whose newsroom is played through the SDK: bots, stories, reviews, readers. */
export async function integrityApp(env: Env = {}) {
  const g = await governanceApp({
    RATE_LIMIT_UNVERIFIED_WRITES_PER_MINUTE: '100000',
    RATE_LIMIT_VERIFIED_WRITES_PER_MINUTE: '100000',
    // the planted readers up-vote more stories a day than the paid-action budget of an unverified reader allows
    REWARDS_DAILY_PAID_ACTIONS_L0: '1000',
    ...env,
  });
  const n = newsroomClient(g.t.baseUrl);
  return {
    g,
    n,
    /** `count` bots, joined. */
    async bots(count: number): Promise<AgentKey[]> {
      const keys: AgentKey[] = [];
      for (let i = 0; i < count; i++) keys.push(await n.joinBot());
      return keys;
    },
    /** `count` published stories by `author`. */
    async stories(author: AgentKey, count: number): Promise<Story[]> {
      const out: Story[] = [];
      for (let i = 0; i < count; i++) {
        const candidate = await n.submit(author);
        const published = await n.publish(candidate.hash);
        assert.equal(published.body.decision, 'ALLOW', JSON.stringify(published.body));
        out.push({ storyId: candidate.storyId, hash: candidate.hash, author, claimId: candidate.packet.claims[0]!.id });
      }
      return out;
    },
    async attest(bot: AgentKey, story: Story) {
      const res = await n.review(bot, 'attestations', story.storyId, story.hash);
      assert.equal(res.status, 202, JSON.stringify(res.body));
      return res.body as Json;
    },
    async object(bot: AgentKey, story: Story) {
      const res = await n.review(bot, 'objections', story.storyId, story.hash, { note: 'The sources do not support the claims.' });
      assert.equal(res.status, 202, JSON.stringify(res.body));
    },
    /** An up-vote by a (pseudonymous, unverified) reader. */
    async upvote(actorId: string, story: Story) {
      const res = await g.client.humanWrite(TEST_SECRET, `/v1/stories/${story.storyId}/reward-votes`, {
        actorId,
        verified: false,
        vote: 'UP',
      });
      assert.equal(res.status, 202, JSON.stringify(res.body));
    },
    async analyze(body: Json = {}) {
      return g.post<Json>('admin', '/v1/admin/governance/cartel/analyze', body);
    },
  };
}
export type IntegrityApp = Awaited<ReturnType<typeof integrityApp>>;

/**
 * A small newsroom played through signed requests: a ring of three bots attesting each other's stories (and a
 * little else), four readers up-voting exactly the ring's stories, and honest bots and readers around a popular
 * story that every honest bot attests and every honest reader up-votes.
 */
export async function plantedNewsroom(ia: IntegrityApp) {
  const ring = await ia.bots(3);
  const honest = await ia.bots(6);
  const ringStories = new Map<AgentKey, Story[]>();
  for (const bot of ring) ringStories.set(bot, await ia.stories(bot, 3));
  const honestStories = new Map<AgentKey, Story[]>();
  for (const [i, bot] of honest.entries()) honestStories.set(bot, await ia.stories(bot, i === 0 ? 3 : 2));
  const popular = honestStories.get(honest[0]!)!;
  // the ring: every member attests every story of the others
  for (const bot of ring) for (const other of ring) if (other !== bot) for (const s of ringStories.get(other)!) await ia.attest(bot, s);
  // honest bots: all attest the popular author's stories, and a spread of others (one of them a ring story)
  for (const [i, bot] of honest.entries()) {
    if (i === 0) continue;
    for (const s of popular) await ia.attest(bot, s);
    await ia.attest(bot, honestStories.get(honest[(i + 1) % 6] === honest[0] ? honest[1]! : honest[(i + 1) % 6]!)![0]!);
    await ia.attest(bot, honestStories.get(honest[(i + 3) % 6] === bot || i + 3 === 6 ? honest[2]! : honest[(i + 3) % 6]!)![1]!);
  }
  await ia.attest(honest[0]!, ringStories.get(ring[0]!)![0]!);
  await ia.attest(honest[0]!, honestStories.get(honest[4]!)![0]!);
  await ia.object(honest[0]!, honestStories.get(honest[5]!)![1]!);
  // the reader ring up-votes every ring story; honest readers up-vote the popular story and two others each
  const readerRing = ['ring-reader-0', 'ring-reader-1', 'ring-reader-2', 'ring-reader-3'];
  for (const reader of readerRing) for (const stories of ringStories.values()) for (const s of stories) await ia.upvote(reader, s);
  const others = [...honestStories.values()].flat().filter((s) => !popular.includes(s));
  for (let r = 0; r < 6; r++) {
    await ia.upvote(`honest-reader-${r}`, popular[0]!);
    await ia.upvote(`honest-reader-${r}`, others[r]!);
    await ia.upvote(`honest-reader-${r}`, others[(r + 6) % others.length]!);
  }
  return { ring, honest, ringStories, readerRing, popular };
}
