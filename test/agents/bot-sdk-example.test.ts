import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { agentKeySeed, createAgentClient, generateAgentKey } from '../../sdk/index.js';
import { createTestApp, TEST_OPS_TOKEN, type TestApp } from '../helpers/app.js';
import { freePort } from '../helpers/service-process.js';
import { packet } from './support.js';

const repo = fileURLToPath(new URL('../..', import.meta.url));
const example = readFileSync(`${repo}/examples/bot-sdk.ts`, 'utf8');

// spelled in parts: the test build rewrites anything that reads like a relative import in the compiled code
const LOCAL_SDK = ['..', 'sdk', 'index.js'].join('/');

/** The page's TypeScript blocks, with the package import as the repository's example spells it. */
function typescriptBlocks(markdown: string): string[] {
  return [...markdown.matchAll(/^```ts\n([\s\S]*?)\n```$/gm)].map((m) =>
    m[1]!.replaceAll("from '@newsroom/agent-sdk'", `from '${LOCAL_SDK}'`),
  );
}

describe('docs/bot-developers.md, the SDK walkthrough: examples/bot-sdk.ts', () => {
  test('every TypeScript block of the page is a part of the example, in order (so each one compiles in it)', () => {
    const blocks = typescriptBlocks(readFileSync(`${repo}/docs/bot-developers.md`, 'utf8'));
    assert.ok(blocks.length >= 4, `the page has its SDK blocks (${blocks.length})`);
    let from = 0;
    for (const block of blocks) {
      const at = example.indexOf(block, from);
      assert.ok(at >= 0, `not in examples/bot-sdk.ts (or out of order):\n${block}`);
      from = at + block.length;
    }
  });

  let t: TestApp;
  let url: string;
  const walletKey = generatePrivateKey();
  before(async () => {
    const port = await freePort();
    url = `http://127.0.0.1:${port}`;
    t = await createTestApp({
      PUBLIC_BASE_URL: url,
      AGENTBOOK_STATIC: JSON.stringify({ [privateKeyToAccount(walletKey).address]: 'human-of-the-sdk-example' }),
    });
    await t.app.listen({ port, host: '127.0.0.1' });
  });
  after(() => t.close());

  test('runs against the service: typed calls signed by the middleware, a typed refusal, and the agent client on the same bot', async () => {
    // another bot's story, published
    const reporter = createAgentClient({ baseUrl: url, key: generateAgentKey() });
    await reporter.join({ name: 'reporter' });
    const candidate = await reporter.submitCandidate({ ...packet(randomBytes(4).toString('hex')), lang: 'en' });
    const published = await fetch(`${url}/v1/publish/${candidate.hash}/compute`, {
      method: 'POST',
      headers: { 'x-operations-token': TEST_OPS_TOKEN },
    });
    assert.equal(((await published.json()) as { decision: string }).decision, 'ALLOW');

    const key = generateAgentKey();
    const env = { ...process.env, NEWSROOM_URL: url, BOT_SEED: agentKeySeed(key), BOT_WALLET_KEY: walletKey, STORY_ID: candidate.storyId };
    const { code, stdout, stderr } = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
      const child = spawn('npx', ['tsx', 'examples/bot-sdk.ts'], { cwd: repo, env });
      let out = '';
      let err = '';
      child.stdout.on('data', (d: Buffer) => (out += d.toString()));
      child.stderr.on('data', (d: Buffer) => (err += d.toString()));
      child.on('close', (c) => resolve({ code: c ?? -1, stdout: out, stderr: err }));
    });
    assert.equal(code, 0, stderr);
    const lines = stdout.trim().split('\n');
    assert.equal(
      lines.find((l) => l.startsWith('verified ')),
      `verified ${key.botId} VERIFIED`,
    );
    assert.equal(
      lines.find((l) => l.startsWith('attested ')),
      'attested 2',
    );
    // the same refusal read twice: from the typed `error`, then as the agent client's ServiceError
    const refusals = lines.filter((l) => l.startsWith('refused '));
    assert.equal(refusals.length, 2, stdout);
    assert.ok(
      refusals.every((l) => l.startsWith('refused 409 REVIEW_ALREADY_RECORDED ')),
      stdout,
    );
    assert.match(stdout, /^proposed \S+ OPEN$/m);
    assert.match(stdout, /^machine room 1 1 1$/m);

    // the service agrees: the bot is verified, its attestation weighs 2, and its proposal is open
    const room = (await t.app.inject({ method: 'GET', url: `/v1/stories/${candidate.storyId}/machine-room` })).json() as {
      attestations: { botId: string; verified: boolean; weight: number }[];
      revisionProposals: { proposerBotId?: string; status: string }[];
    };
    assert.deepEqual(
      room.attestations.map((a) => [a.botId, a.verified, a.weight]),
      [[key.botId, true, 2]],
    );
    assert.deepEqual(
      room.revisionProposals.map((p) => p.status),
      ['OPEN'],
    );
  });
});
