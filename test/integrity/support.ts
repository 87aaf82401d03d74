import assert from 'node:assert/strict';
import type { AgentKey } from '../../sdk/index.js';
import { TEST_SECRET } from '../helpers/app.js';
import { newsroomClient } from '../helpers/newsroom.js';
import { governanceApp, type GovernanceApp } from '../governance/support.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

export interface Story {
  storyId: string;
  hash: string;
  author: AgentKey;
}

/** A governance app (content admin `admin`) whose newsroom is played through the SDK: bots, stories, reviews, readers. */
export async function integrityApp() {
  // the planted reader ring casts more reward votes in one day than the paid-action budget allows a person
  const g = await governanceApp({
    RATE_LIMIT_UNVERIFIED_WRITES_PER_MINUTE: '100000',
    RATE_LIMIT_VERIFIED_WRITES_PER_MINUTE: '100000',
    REWARDS_DAILY_PAID_ACTIONS_L0: '100000',
    REWARDS_DAILY_PAID_ACTIONS_L2: '100000',
    REWARDS_DAILY_PAID_ACTIONS_L3: '100000',
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
        out.push({ storyId: candidate.storyId, hash: candidate.hash, author });
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
export type { GovernanceApp };
