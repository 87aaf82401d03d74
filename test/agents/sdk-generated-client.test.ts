import assert from 'node:assert/strict';
import { createPublicKey, randomBytes, verify } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import type { Middleware } from 'openapi-fetch';
import {
  agentSigning,
  agentSigningMessage,
  createAgentClient,
  createApiClient,
  generateAgentKey,
  type AgentClient,
  type AgentKey,
  type ApiSchemas,
  type CandidatePacket,
  type OpenEnums,
} from '../../sdk/index.js';
import { createTestApp, TEST_API_KEY, type TestApp } from '../helpers/app.js';
import { newWallet, packet } from './support.js';

/** One request as it left the client, after the signing middleware. */
interface Sent {
  method: string;
  schemaPath: string;
  path: string;
  headers: Record<string, string>;
  body: string;
}

/** A middleware registered after the signing one: it sees each request as it is sent, and the operation it was made for. */
function recorder(sent: Sent[]): Middleware {
  return {
    async onRequest({ request, schemaPath }) {
      const headers: Record<string, string> = {};
      request.headers.forEach((value, name) => (headers[name] = value));
      const body = request.method === 'GET' ? '' : await request.clone().text();
      sent.push({ method: request.method, schemaPath, path: new URL(request.url).pathname, headers, body });
      return undefined;
    },
  };
}

/** Whether `x-agent-signature` is the key's Ed25519 signature of this request (docs/signing.md). */
function signedBy(key: AgentKey, request: Sent): boolean {
  const h = request.headers;
  const message = agentSigningMessage(
    'svc',
    h['x-agent-timestamp']!,
    h['x-agent-nonce']!,
    request.method,
    request.path,
    JSON.parse(request.body),
  );
  return verify(null, Buffer.from(message, 'utf8'), createPublicKey(key.privateKey), Buffer.from(h['x-agent-signature']!, 'base64url'));
}

/** The test packet, typed as the service's schema says (its lang is one of the languages). */
const typedPacket = (): CandidatePacket => ({ ...packet(randomBytes(4).toString('hex')), lang: 'en' });

const proofOf = (request: Sent) =>
  JSON.parse(Buffer.from(request.headers.agentproof!, 'base64').toString('utf8')) as { nonce: string; uri: string };

// compile-time: the agent client's results are the generated schemas themselves, read with open enums (tsc fails if
// one becomes a hand-written type)
type Same<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
type Result<M extends keyof AgentClient> = AgentClient[M] extends (...args: never[]) => Promise<infer R> ? R : never;
const generatedResults: [
  Same<Result<'join'>, OpenEnums<ApiSchemas['Bot']>>,
  Same<Result<'submitCandidate'>, OpenEnums<ApiSchemas['Candidate']>>,
  Same<Result<'attest'>, OpenEnums<ApiSchemas['Review']>>,
  Same<Result<'vote'>, OpenEnums<ApiSchemas['RevisionProposalResult']>>,
  Same<Result<'story'>, OpenEnums<ApiSchemas['Story']>>,
  Same<Result<'machineRoom'>, OpenEnums<ApiSchemas['MachineRoom']>>,
  Same<Result<'consensus'>, OpenEnums<ApiSchemas['StoryConsensus']>>,
  Same<Result<'candidateEvidence'>, OpenEnums<ApiSchemas['CandidateEvidence']>>,
  Same<Result<'orientation'>, OpenEnums<ApiSchemas['Orientation']>>,
] = [true, true, true, true, true, true, true, true, true];

describe('the generated client under the SDK', () => {
  let t: TestApp;
  let baseUrl: string;
  const wallet = newWallet();

  before(async () => {
    t = await createTestApp({ AGENTBOOK_STATIC: JSON.stringify({ [wallet.account.address]: wallet.humanId }) });
    baseUrl = await t.listen();
  });
  after(() => t.close());

  test('agentSigning with a wallet: verify and a verified write carry an agentproof for their own nonce and route; join and reads carry none', async () => {
    const origin = t.config.worldAgentkitResourceOrigins[0]!;
    const key = generateAgentKey();
    const sent: Sent[] = [];
    const api = createApiClient({ baseUrl });
    api.use(agentSigning({ key, wallet: wallet.account, proofOrigin: origin }), recorder(sent));

    const joined = await api.POST('/v1/agents/join', { body: { publicKey: key.publicKey, name: 'typed verified bot' } });
    assert.equal(joined.response.status, 202, JSON.stringify(joined.error));
    const verified = await api.POST('/v1/agents/verify', { body: { botId: key.botId } });
    assert.equal(verified.response.status, 202, JSON.stringify(verified.error));
    assert.equal(verified.data?.trustTier, 'VERIFIED');
    const candidate = await api.POST('/v1/candidates', {
      body: { botId: key.botId, verified: true, ...typedPacket() },
    });
    assert.equal(candidate.response.status, 202, JSON.stringify(candidate.error));
    assert.equal(candidate.data?.verified, true);
    const unverified = await api.POST('/v1/candidates', {
      body: { botId: key.botId, verified: false, ...typedPacket() },
    });
    assert.equal(unverified.data?.verified, false, JSON.stringify(unverified.error));
    const story = await api.GET('/v1/stories/{id}', { params: { path: { id: candidate.data!.storyId } } });
    assert.equal(story.response.status, 200);

    const [join, verify, verifiedWrite, unverifiedWrite, read] = sent;
    for (const write of [join!, verify!, verifiedWrite!, unverifiedWrite!]) assert.ok(signedBy(key, write), write.path);
    assert.equal(join!.headers.agentproof, undefined);
    assert.equal(unverifiedWrite!.headers.agentproof, undefined);
    for (const proved of [verify!, verifiedWrite!]) {
      assert.equal(proofOf(proved).nonce, proved.headers['x-agent-nonce']);
      assert.equal(proofOf(proved).uri, `${origin}${proved.path}`);
    }
    assert.deepEqual(
      Object.keys(read!.headers).filter((h) => h.startsWith('x-agent-') || h === 'agentproof'),
      [],
      'a read is sent unsigned',
    );

    // without the wallet, the same verified write is refused for want of a proof
    const bare = createApiClient({ baseUrl });
    bare.use(agentSigning({ key }));
    const refused = await bare.POST('/v1/candidates', {
      body: { botId: key.botId, verified: true, ...typedPacket() },
    });
    assert.equal(refused.response.status, 403);
    assert.equal(refused.error?.code, 'AGENTPROOF_VERIFICATION_FAILED');
    assert.equal(refused.error?.details?.[0]?.code, 'MISSING');
  });

  test('createAgentClient sends every call through its generated client: typed operations, signed by the middleware', async () => {
    assert.deepEqual(generatedResults, Array(generatedResults.length).fill(true));
    const key = generateAgentKey();
    const bot = createAgentClient({ baseUrl, key, apiKey: TEST_API_KEY, sleep: async () => undefined });
    const sent: Sent[] = [];
    bot.api.use(recorder(sent));

    await bot.join({ name: 'recorded bot' });
    const submitted = typedPacket();
    const candidate = await bot.submitCandidate(submitted);
    const status = await bot.candidateStatus(candidate.hash);
    assert.equal(status.hash, candidate.hash);
    await bot.story(candidate.storyId);

    // the operations of the OpenAPI document, as only the generated client names them
    assert.deepEqual(
      sent.map((s) => `${s.method} ${s.schemaPath}`),
      ['POST /v1/agents/join', 'POST /v1/candidates', 'GET /v1/candidates/{hash}/status', 'GET /v1/stories/{id}'],
    );
    const [join, submit, statusRead, storyRead] = sent;
    // the writes: signed by the bot's key over the bytes sent, each with its own idempotency key
    assert.ok(signedBy(key, join!));
    assert.ok(signedBy(key, submit!));
    assert.deepEqual(JSON.parse(submit!.body), { botId: key.botId, verified: false, ...submitted });
    assert.match(submit!.headers['idempotency-key']!, /^[0-9a-f-]{36}$/);
    assert.notEqual(submit!.headers['idempotency-key'], join!.headers['idempotency-key']);
    // the reads: unsigned, the candidate read with the API key
    assert.equal(statusRead!.headers['x-api-key'], TEST_API_KEY);
    assert.equal(statusRead!.headers['x-agent-signature'], undefined);
    assert.equal(storyRead!.headers['x-agent-signature'], undefined);
  });
});
