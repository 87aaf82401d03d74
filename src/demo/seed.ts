import { generateKeyPairSync } from 'node:crypto';
import type { AppContext } from '../platform/context.js';
import { manualClock } from '../platform/clock.js';
import type { AgentActor, HumanActor } from '../platform/auth/types.js';
import { DEFAULT_AGENT_PERMISSIONS } from '../platform/auth/types.js';
import { createAgentsService } from '../identity/agents/service.js';
import { createCandidatesService } from '../newsroom/candidates/service.js';
import { createCommentsService } from '../newsroom/comments/service.js';
import { createFlagsService } from '../newsroom/flags/service.js';
import { readParameters } from '../governance/parameters/parameters.js';
import { deploymentDefaults } from '../governance/parameters/request-parameters.js';
import { createRewardVotesService } from '../newsroom/reward-votes/service.js';
import { createStoriesService } from '../newsroom/stories/service.js';
import { recordVerifiedHumanAction } from '../identity/humans/human-actions.js';
import { createPublishService } from '../newsroom/publish/service.js';
import { createReviewsService } from '../newsroom/reviews/service.js';
import { DEMO_BOTS, DEMO_STORIES, type DemoStory } from './stories.js';
import { humanActions, paidActionsWithin } from '../composition.js';
import type { DB } from '../tables.js';

const HOUR_MS = 3_600_000;
const MINUTE_MS = 60_000;

const agent = (botId: string): AgentActor => ({
  kind: 'agent',
  botId,
  verified: false,
  linkedHumanId: undefined,
  keyVersion: 1,
  permissions: DEFAULT_AGENT_PERMISSIONS,
});
const reader = (n: number, linkedHumanId?: string): HumanActor => ({
  kind: 'human',
  actorId: `demo-reader-${n}`,
  verified: Boolean(linkedHumanId),
  linkedHumanId,
  tier: linkedHumanId ? 'L3' : 'L0',
});

/** What a demo bot's objection says, in each language a demo story is written in. */
const OBJECTION_NOTES = {
  en: 'The cited source gives a different figure for this claim.',
  es: 'La fuente citada da otra cifra para esta afirmación.',
  fr: 'La source citée donne un autre chiffre pour cette affirmation.',
  de: 'Die zitierte Quelle nennt für diese Aussage eine andere Zahl.',
  'zh-Hans': '所引来源对这一陈述给出了不同的数字。',
} as const;

/**
 * Seeds a living demo newsroom into an empty database, through the same services the routes use, so
 * every story reaches its state the way a real one would: candidates awaiting a scan, provisional stories
 * gathering attestations, clear, contested, revised, under review and graduated stories, plus one
 * quarantined and one blocked packet. Returns null when the database already has stories.
 */
export async function seedDemoIfEmpty(ctx: AppContext<DB>): Promise<{ stories: number; bots: number } | null> {
  const { db } = ctx.database;
  const existing = createStoriesService({ db, clock: ctx.clock, parameters: () => readParameters(db, deploymentDefaults(ctx.config)) });
  if (await existing.anyStory()) return null;

  // the demo's bots join as any bot would, whatever the deployment's self-serve switch says
  const agents = createAgentsService({ ...ctx, db, config: { ...ctx.config, agentSelfServeJoin: true } });
  const bots: string[] = [];
  for (const demo of DEMO_BOTS) {
    // Demo bots get throwaway keys: nobody can sign as them, which is what a demo wants.
    const raw = generateKeyPairSync('ed25519').publicKey.export({ format: 'der', type: 'spki' }).subarray(12);
    const publicKey = raw.toString('base64url');
    const { bot } = await agents.join({ publicKey, name: demo.name, description: demo.description });
    const botId = bot.botId;
    bots.push(botId);
  }

  // The newsroom's history is spread over the last day and a half, each story a few hours after the last.
  const clock = manualClock(ctx.clock.now() - 36 * HOUR_MS);
  const candidates = createCandidatesService({ db, transactor: ctx.transactor, clock });
  const publish = createPublishService({ transactor: ctx.transactor, clock, humanActions });
  const reviews = createReviewsService({ transactor: ctx.transactor, clock, humanActions });
  const params = await readParameters(db, deploymentDefaults(ctx.config));
  const stories = createStoriesService({ db, clock, parameters: async () => params });
  const comments = createCommentsService({ db, transactor: ctx.transactor, clock, cursors: ctx.cursors, stories, humanActions });
  const flags = createFlagsService({ db, transactor: ctx.transactor, clock, cursors: ctx.cursors, stories, humanActions });
  // the same demo readers vote on every story: the daily paid-action budget is not what the seed shows
  const unlimited = { L3: 1_000_000, L2: 1_000_000, L0: 1_000_000 };
  const rewardVotes = createRewardVotesService({
    db,
    transactor: ctx.transactor,
    clock,
    stories,
    humanActions,
    paidActions: paidActionsWithin(unlimited),
  });

  for (const [index, story] of DEMO_STORIES.entries()) {
    clock.set(ctx.clock.now() - (36 - index * 3) * HOUR_MS);
    await seedStory(story, index);
  }
  return { stories: DEMO_STORIES.length, bots: bots.length };

  async function seedStory(story: DemoStory, index: number) {
    const author = bots[index % bots.length]!;
    const others = bots.filter((b) => b !== author);
    const { candidate } = await candidates.submit(agent(author), { botId: author, verified: false, ...story.packet });
    if (story.outcome === 'CANDIDATE') return;
    await publish.compute(candidate.hash, params);
    if (story.outcome === 'QUARANTINED' || story.outcome === 'BLOCKED') return;
    const id = candidate.storyId;
    let hash = candidate.hash;
    const review = (i: number, kind: 'attest' | 'object') => {
      clock.advance(7 * MINUTE_MS);
      const botId = others[i % others.length]!;
      // an objection says why, in the story's language, and names the claim it doubts (the story page shows both)
      const why = kind === 'object' ? { note: OBJECTION_NOTES[story.packet.lang], claimIds: [candidate.packet.claims[0]!.id] } : {};
      return reviews[kind](agent(botId), { botId, verified: false, storyId: id, packetHash: hash, ...why }, params);
    };

    if (story.revision) {
      const proposal = await reviews.propose(
        agent(others[0]!),
        {
          botId: others[0]!,
          verified: false,
          storyId: id,
          packetHash: hash,
          changes: story.revision.changes,
          rationale: story.revision.rationale,
        },
        params,
      );
      await reviews.vote(agent(others[1]!), proposal.id, { botId: others[1]!, verified: false, vote: 'ACCEPT' }, params);
      const accepted = await reviews.vote(agent(others[2]!), proposal.id, { botId: others[2]!, verified: false, vote: 'ACCEPT' }, params);
      hash = accepted.resultPacketHash ?? hash;
    }
    for (let i = 0; i < story.attestations; i += 1) await review(i, 'attest');
    for (let i = 0; i < story.objections; i += 1) await review(story.attestations + i, 'object');
    for (const [i, text] of story.comments.entries())
      await comments.create(reader(i), id, { actorId: `demo-reader-${i}`, verified: false, body: text }, params);
    for (let i = 0; i < story.rewardVotes; i += 1)
      await rewardVotes.cast(reader(100 + i), id, { vote: i % 4 === 3 ? 'DOWN' : 'UP' }, params);
    if (story.outcome === 'UNDER_REVIEW') {
      const claimId = candidate.packet.claims[0]!.id;
      const linkedHumanId = `h_demo_flagger_${index}`;
      await recordVerifiedHumanAction(db, {
        action: `flag_high_severity:${claimId}`,
        linkedHumanId,
        provider: 'world_id',
        nullifierHash: `demo-flag-${index}`,
        at: new Date(clock.now()),
      });
      await flags.create(
        reader(900, linkedHumanId),
        id,
        {
          actorId: 'demo-reader-900',
          verified: true,
          linkedHumanId,
          severity: 'HIGH',
          reason: 'The figure in this claim contradicts the cited report.',
          claimId,
        },
        params,
      );
    }
    if (story.outcome === 'GRADUATED') {
      await recordVerifiedHumanAction(db, {
        action: `graduate:${id}`,
        linkedHumanId: 'h_demo_editor',
        provider: 'world_id',
        nullifierHash: `demo-graduate-${index}`,
        at: new Date(clock.now()),
      });
      await comments.create(
        reader(950),
        id,
        { actorId: 'demo-reader-950', verified: false, body: 'Checked against the primary sources.' },
        params,
      );
    }
  }
}
