import { gzipSync } from 'node:zlib';
import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { createServiceClient, type ServiceResponse } from '../../sdk/index.js';
import type { Db } from '../../src/platform/db/database.js';
import { createTestApp, TEST_SECRET, type Env, type TestDatabase } from '../helpers/app.js';
import { bindActor } from '../helpers/identity.js';
import { HOUR_MS, newsroomFactory, type SeededStory } from '../helpers/newsroom-factory.js';
import type { Json } from '../helpers/json.js';
import type { DB } from '../../src/tables.js';

/** The people of the rewards tests: a rewards admin, readers at each tier, and bot owners. */
export const PEOPLE = {
  treasurer: { actorId: 'treasurer', linkedHumanId: 'h_treasurer', tier: 'L3' },
  alice: { actorId: 'alice', linkedHumanId: 'h_alice', tier: 'L3' },
  bob: { actorId: 'bob', linkedHumanId: 'h_bob', tier: 'L2' },
  carol: { actorId: 'carol', linkedHumanId: 'h_carol', tier: 'L3' },
} as const;
export type Person = keyof typeof PEOPLE;

export const REWARDS_ENV: Env = {
  REWARDS_ADMIN_IDS: 'h_treasurer',
  // one admin runs any pool in these tests; test/settlements/second-approval.test.ts tests the threshold
  SETTLEMENT_SECOND_APPROVAL_ABOVE_ORBS: '1000000000000000000000000000000000000000',
  RATE_LIMIT_HUMAN_WRITES_PER_MINUTE: '100000',
  RATE_LIMIT_PUBLIC_READS_PER_MINUTE: '100000',
};

/** A listening app with the people bound, an SDK client signing as them, and a row factory. */
export async function rewardsApp(env: Env = {}, shared?: TestDatabase) {
  const t = await createTestApp({ ...REWARDS_ENV, ...env }, shared);
  if (!shared) for (const p of Object.values(PEOPLE)) await bindActor(t.db.database, p.actorId, p.linkedHumanId, p.tier);
  const client = createServiceClient({ baseUrl: await t.listen() });
  const db = t.db.database.db;
  return {
    t,
    db,
    client,
    f: newsroomFactory(db, Date.now()),
    post<T = Json>(who: Person, path: string, body: Json = {}): Promise<ServiceResponse<T>> {
      const { actorId, linkedHumanId } = PEOPLE[who];
      return client.humanWrite<T>(TEST_SECRET, path, { actorId, linkedHumanId, verified: true, ...body });
    },
    get<T = Json>(who: Person, path: string, query: Record<string, string | undefined> = {}): Promise<ServiceResponse<T>> {
      const { actorId, linkedHumanId } = PEOPLE[who];
      return client.humanRead<T>(TEST_SECRET, path, { actorId, linkedHumanId, verified: 'true', ...query });
    },
  };
}
export type RewardsApp = Awaited<ReturnType<typeof rewardsApp>>;

/** A bot row, optionally owned by (verified for) a linked human. */
export async function bot(db: Db<DB>, linkedHumanId: string | null = null): Promise<string> {
  const botId = `bot_${randomBytes(16).toString('hex')}`;
  await db
    .insertInto('bots')
    .values({
      bot_id: botId,
      name: `Bot ${botId.slice(4, 10)}`,
      description: null,
      operator_contact: null,
      source: 'SELF_SERVE',
      trust_tier: linkedHumanId ? 'VERIFIED' : 'UNVERIFIED',
      linked_human_id: linkedHumanId,
      // a VERIFIED bot carries the AgentKit binding it was verified with (bots_verified_binding)
      wallet_address: linkedHumanId ? `0x${randomBytes(20).toString('hex')}` : null,
      wallet_chain_id: linkedHumanId ? 'eip155:480' : null,
      verified_at: linkedHumanId ? new Date() : null,
      permissions: [],
    })
    .execute();
  return botId;
}

/** A story published 4 days ago whose 72 h reward window has closed. */
export async function closedStory(r: RewardsApp, overrides: Parameters<RewardsApp['f']['story']>[0] = {}): Promise<SeededStory> {
  const publishedAt = new Date(Date.now() - 96 * HOUR_MS);
  return r.f.story({ publishedAt, rewardWindowEndsAt: new Date(publishedAt.getTime() + 72 * HOUR_MS), ...overrides });
}

export async function review(
  db: Db<DB>,
  story: SeededStory,
  botId: string,
  kind: 'ATTESTATION' | 'OBJECTION',
  weight = 1,
  packetHash = story.packetHash,
) {
  await db
    .insertInto('agent_reviews')
    .values({
      id: `ar_${randomBytes(6).toString('hex')}`,
      story_id: story.id,
      packet_hash: packetHash,
      bot_id: botId,
      verified: weight > 1,
      kind,
      weight,
      confidence: null,
      note: null,
      evidence: '[]',
    })
    .execute();
}

export async function rewardVote(db: Db<DB>, storyId: string, actorId: string, vote: 'UP' | 'DOWN', weight: number) {
  await db
    .insertInto('reward_votes')
    .values({
      id: `rv_${randomBytes(6).toString('hex')}`,
      story_id: storyId,
      actor_id: actorId,
      verified: weight > 1,
      linked_human_id: null,
      vote,
      weight,
      verified_action_id: null,
    })
    .execute();
}

export async function flag(db: Db<DB>, storyId: string, actorId: string, linkedHumanId: string | null) {
  await db
    .insertInto('flags')
    .values({
      id: `fl_${randomBytes(6).toString('hex')}`,
      story_id: storyId,
      actor_id: actorId,
      verified: true,
      linked_human_id: linkedHumanId,
      severity: 'HIGH',
      claim_id: null,
      reason: 'fabricated quote',
      verified_action_id: null,
    })
    .execute();
}

/** Counts rows of the rewards tables (to show that something wrote nothing). */
export async function rewardRowCounts(db: Db<DB>) {
  const { rows } = await sql<{ settlements: number; settled: number; payouts: number }>`
    select (select count(*) from settlements)::int as settlements, (select count(*) from settled_stories)::int as settled,
      (select count(*) from payouts)::int as payouts`.execute(db);
  return rows[0]!;
}

/**
 * The worked example of docs/rewards.md: one graduated story, author A (two independent source hosts),
 * attesters B (verified, weight 2) and C (weight 1), an objector D whose objection was not upheld, and reward
 * votes UP L3 (3) + UP L2 (2) + DOWN (1) = 4.
 */
export async function workedExample(r: RewardsApp, owners: { a?: string | null } = {}) {
  const a = await bot(r.db, owners.a ?? null);
  const [b, c, d] = [await bot(r.db), await bot(r.db), await bot(r.db)];
  const story = await closedStory(r, {
    authorBotId: a,
    stage: 'GRADUATED',
    review: 'CLEAR',
    graduatedAt: new Date(Date.now() - 90 * HOUR_MS),
    createdAt: new Date(Date.now() - 100 * HOUR_MS),
    sources: [
      { url: 'https://www.harbour.example/minutes', title: 'Minutes' },
      { url: 'https://harbour.example/vote', title: 'Vote record' },
      { url: 'https://gazette.example/ferries', title: 'Gazette' },
    ],
  });
  await review(r.db, story, b, 'ATTESTATION', 2);
  await review(r.db, story, c, 'ATTESTATION', 1);
  await review(r.db, story, d, 'OBJECTION', 1);
  await rewardVote(r.db, story.id, 'voter-l3', 'UP', 3);
  await rewardVote(r.db, story.id, 'voter-l2', 'UP', 2);
  await rewardVote(r.db, story.id, 'voter-l0', 'DOWN', 1);
  return { story, a, b, c, d };
}

/** Makes `who` a recipient with accepted terms and a wallet bound through the real challenge (viem signs it). */
export async function bindWallet(r: RewardsApp, who: Person): Promise<string> {
  const { generatePrivateKey, privateKeyToAccount } = await import('viem/accounts');
  const terms = await r.post(who, '/v1/rewards/recipient', { acceptTerms: true, termsVersion: '2026-11' });
  if (terms.status !== 202) throw new Error(`terms: ${terms.status} ${JSON.stringify(terms.body)}`);
  const wallet = privateKeyToAccount(generatePrivateKey());
  const challenge = await r.post(who, '/v1/rewards/wallets/challenge', { address: wallet.address, chainId: 1 });
  const verify = await r.post(who, '/v1/rewards/wallets/verify', {
    challengeId: challenge.body.challengeId,
    signature: await wallet.signMessage({ message: challenge.body.message }),
  });
  if (verify.status !== 202) throw new Error(`verify: ${verify.status} ${JSON.stringify(verify.body)}`);
  return terms.body.id as string;
}

/**
 * A settlement row written directly (tests of payout storage and of migrations): a pool of 10 base units, inputs
 * `{}`, `payoutCount` payouts, and the block of payout seq `[first, last]` its run reserved when given.
 */
export async function insertSettlementRow(db: Db<DB>, id: string, options: { payoutCount?: number; seqs?: [number, number] } = {}) {
  const count = options.payoutCount ?? 1;
  const [first, last] = options.seqs ?? [null, null];
  await sql`
    insert into settlements (id, policy_version, pool_base, escrow_base, paid_base, token_decimals, windows_closed_before,
      story_count, contribution_count, payout_count, role_totals, inputs_gzip, created_by, created_at, payout_seq_first, payout_seq_last)
    values (${id}, 1, 10, 4, 6, 6, now(), 1, ${count}, ${count}, '{}', ${gzipSync('{}')}, 'tester', now(), ${first}, ${last})`.execute(db);
}

/** Graduated stories st_1..st_n by bot_writer, written as rows (for tests of what the database itself keeps). */
export async function insertStoryRows(db: Db<DB>, n: number) {
  await sql`
    insert into stories (id, author_bot_id, room, lang, title, summary, body, current_packet_hash, publication_stage,
      review_status, moderation_status, created_at, published_at, updated_at)
    select 'st_' || s, 'bot_writer', 'world', 'en', 'Story ' || s, 'Summary', 'Body', md5('p' || s), 'GRADUATED', 'CLEAR', 'ALLOWED',
      now(), now(), now()
    from generate_series(1, ${n}::int) s`.execute(db);
}
