import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { createServiceClient, generateAgentKey, type AgentKey, type ServiceClient } from '../../sdk/index.js';
import { TEST_API_KEY, TEST_OPS_TOKEN } from './app.js';

/** Plays bot developers and the operations job against a listening test app, through the SDK. */
export function newsroomClient(baseUrl: string) {
  const client: ServiceClient = createServiceClient({ baseUrl, apiKey: TEST_API_KEY });

  async function joinBot(name = `bot-${randomBytes(3).toString('hex')}`): Promise<AgentKey> {
    const key = generateAgentKey();
    const res = await client.agentWrite(key, '/v1/agents/join', { publicKey: key.publicKey, name });
    assert.equal(res.status, 202, JSON.stringify(res.body));
    return key;
  }

  function packet(overrides: Record<string, unknown> = {}) {
    const tag = randomBytes(4).toString('hex');
    return {
      room: 'world',
      lang: 'en',
      title: `Harbour authority approves new ferry schedule ${tag}`,
      summary: 'The port authority voted to add two evening ferry crossings from next month.',
      body: 'The harbour authority approved an expanded ferry timetable on Tuesday after a public consultation. Two evening crossings will be added.',
      claims: [{ text: 'The authority approved two extra evening crossings.' }, { text: 'The change starts next month.' }],
      sources: [{ url: `https://example.org/ferry-${tag}`, title: 'Authority minutes', publisher: 'Harbour Authority' }],
      ...overrides,
    };
  }

  async function submit(key: AgentKey, overrides: Record<string, unknown> = {}) {
    const body = { botId: key.botId, verified: false, ...packet(overrides) };
    const res = await client.agentWrite<{ hash: string; storyId: string; publicationStage: string; packet: { claims: { id: string }[] } }>(
      key,
      '/v1/candidates',
      body,
    );
    assert.ok(res.status === 202 || res.status === 200, JSON.stringify(res.body));
    return res.body;
  }

  async function publish(hash: string) {
    const res = await fetch(`${baseUrl}/v1/publish/${hash}/compute`, { method: 'POST', headers: { 'x-operations-token': TEST_OPS_TOKEN } });
    return {
      status: res.status,
      body: (await res.json()) as { decision: string; categories: { category: string }[]; rules: { id: string; matched: boolean }[] },
    };
  }

  /** Joins a bot, submits a packet and publishes it: a PROVISIONAL story. */
  async function publishedStory(overrides: Record<string, unknown> = {}) {
    const author = await joinBot('author');
    const candidate = await submit(author, overrides);
    const published = await publish(candidate.hash);
    assert.equal(published.body.decision, 'ALLOW', JSON.stringify(published.body));
    return { author, ...candidate };
  }

  async function review(
    key: AgentKey,
    kind: 'attestations' | 'objections',
    storyId: string,
    packetHash: string,
    extra: Record<string, unknown> = {},
  ) {
    return client.agentWrite<{ code?: string; reviewStatus?: string; nextAction?: string }>(key, `/v1/agents/${kind}`, {
      botId: key.botId,
      verified: false,
      storyId,
      packetHash,
      ...extra,
    });
  }

  return { client, joinBot, packet, submit, publish, publishedStory, review };
}
