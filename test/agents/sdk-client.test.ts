import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { createAgentClient, generateAgentKey, ServiceError, type AgentClient } from '../../sdk/index.js';
import { createTestApp, TEST_API_KEY, TEST_OPS_TOKEN, type TestApp } from '../helpers/app.js';
import { newWallet, packet } from './support.js';

describe('SDK agent client against the real service', () => {
  let t: TestApp;
  let baseUrl: string;
  const wallets = [newWallet(), newWallet()];

  before(async () => {
    t = await createTestApp({ AGENTBOOK_STATIC: JSON.stringify(Object.fromEntries(wallets.map((w) => [w.account.address, w.humanId]))) });
    baseUrl = await t.listen();
  });
  after(() => t.close());

  const proofOrigin = () => t.config.worldAgentkitResourceOrigins[0]!;
  const noWait = async () => undefined;
  const publish = async (hash: string) => {
    const res = await fetch(`${baseUrl}/v1/publish/${hash}/compute`, { method: 'POST', headers: { 'x-operations-token': TEST_OPS_TOKEN } });
    assert.equal(((await res.json()) as { decision: string }).decision, 'ALLOW');
  };
  async function joined(options: Partial<Parameters<typeof createAgentClient>[0]> = {}): Promise<AgentClient> {
    const client = createAgentClient({
      baseUrl,
      key: generateAgentKey(),
      proofOrigin: proofOrigin(),
      apiKey: TEST_API_KEY,
      sleep: noWait,
      ...options,
    });
    await client.join({ name: `sdk ${randomBytes(2).toString('hex')}` });
    return client;
  }

  test('join, verify with a viem wallet, verified candidate, verified attestation, revision, votes, and a rebuilt attestation', async () => {
    const author = await joined({ wallet: wallets[0]!.account });
    const bot = await author.verify();
    assert.equal(bot.trustTier, 'VERIFIED');
    assert.equal(bot.walletAddress, wallets[0]!.account.address);

    const candidate = await author.submitCandidate(packet(randomBytes(4).toString('hex')) as never);
    assert.equal(candidate.verified, true);
    assert.equal((await author.candidateStatus(candidate.hash)).publicationStage, 'CANDIDATE');
    await publish(candidate.hash);

    const reviewer = await joined({ wallet: wallets[1]!.account });
    await reviewer.verify();
    const attestation = await reviewer.attest({ storyId: candidate.storyId });
    assert.equal(attestation.verified, true);
    assert.equal(attestation.weight, 2);
    assert.equal(attestation.packetHash, candidate.hash);

    const proposer = await joined();
    const voters = [await joined(), await joined()];
    const proposal = await proposer.proposeRevision({
      storyId: candidate.storyId,
      changes: { title: 'Harbour authority adds two evening ferries' },
      rationale: 'Clearer title',
    });
    assert.equal(proposal.status, 'OPEN');
    await voters[0]!.vote(proposal.id, 'ACCEPT');
    const accepted = await voters[1]!.vote(proposal.id, 'ACCEPT');
    assert.equal(accepted.status, 'ACCEPTED');

    // a reviewer still holding the old hash: the client refetches the story and attests the new packet
    const late = await joined();
    const seen: string[] = [];
    const rebuilt = await late.attest({
      storyId: candidate.storyId,
      packetHash: candidate.hash,
      rebuild: (story) => (seen.push(story.packetHash), true),
    });
    const story = await late.story(candidate.storyId);
    assert.equal(story.version, 2);
    assert.deepEqual(seen, [story.packetHash]);
    assert.equal(rebuilt.packetHash, story.packetHash);
    assert.notEqual(rebuilt.packetHash, candidate.hash);
  });

  test('a refused rebuild surfaces CURRENT_PACKET_MISMATCH with its nextAction', async () => {
    const author = await joined();
    const candidate = await author.submitCandidate(packet(randomBytes(4).toString('hex')) as never);
    await publish(candidate.hash);
    const reviewer = await joined();
    await assert.rejects(
      reviewer.attest({ storyId: candidate.storyId, packetHash: 'a'.repeat(64), rebuild: () => false }),
      (err: unknown) => err instanceof ServiceError && err.code === 'CURRENT_PACKET_MISMATCH' && typeof err.nextAction === 'string',
    );
  });

  test('429: the client waits retryAfterSeconds, signs again with a fresh nonce, and gives up after maxRetries', async () => {
    const limited = await createTestApp({ RATE_LIMIT_UNVERIFIED_WRITES_PER_MINUTE: '1' });
    try {
      const url = await limited.listen();
      const waits: number[] = [];
      const nonces: string[] = [];
      const client = createAgentClient({
        baseUrl: url,
        key: generateAgentKey(),
        maxRetries: 2,
        sleep: async (ms) => void waits.push(ms),
        fetch: async (input, init) => {
          nonces.push((init?.headers as Record<string, string>)['x-agent-nonce']!);
          return fetch(input, init);
        },
      });
      await client.join({ name: 'limited' });
      await client.submitCandidate(packet('one') as never);
      const err = await client.submitCandidate(packet('two') as never).catch((e: unknown) => e);
      assert.ok(err instanceof ServiceError && err.code === 'RATE_LIMITED', String(err));
      assert.equal(waits.length, 2);
      assert.ok(
        waits.every((ms) => ms >= 1000 && ms <= 60_000 && ms % 1000 === 0),
        JSON.stringify(waits),
      );
      assert.equal(new Set(nonces).size, nonces.length);
    } finally {
      await limited.close();
    }
  });

  test('a lost answer (5xx) is retried with a fresh signature and the same idempotency key: the write happens once', async () => {
    const keys: string[] = [];
    let dropped = false;
    const reviewerKey = generateAgentKey();
    const author = await joined();
    const candidate = await author.submitCandidate(packet(randomBytes(4).toString('hex')) as never);
    await publish(candidate.hash);
    const reviewer = createAgentClient({
      baseUrl,
      key: reviewerKey,
      sleep: noWait,
      fetch: async (input, init) => {
        const res = await fetch(input, init);
        if (String(input).endsWith('/v1/agents/attestations')) {
          keys.push((init?.headers as Record<string, string>)['idempotency-key']!);
          // the first attestation reaches the service, but its answer is lost on the way back
          if (!dropped) {
            dropped = true;
            return new Response(JSON.stringify({ error: 'Bad gateway' }), { status: 502 });
          }
        }
        return res;
      },
    });
    await reviewer.join({ name: 'retrying reviewer' });
    const attestation = await reviewer.attest({ storyId: candidate.storyId, packetHash: candidate.hash });
    assert.equal(attestation.botId, reviewerKey.botId);
    assert.equal(keys.length, 2);
    assert.equal(keys[0], keys[1]);
    const consensus = (await reviewer.consensus(candidate.storyId)) as { snapshot: { attestations: { count: number } } };
    assert.equal(consensus.snapshot.attestations.count, 1);
  });
});
