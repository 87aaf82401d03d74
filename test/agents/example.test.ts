import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { createTestApp, TEST_OPS_TOKEN, type TestApp } from '../helpers/app.js';

const repo = fileURLToPath(new URL('../..', import.meta.url));

describe('examples/newsroom-agent.ts against the service', () => {
  const walletKey = generatePrivateKey();
  let t: TestApp;
  let url: string;
  before(async () => {
    t = await createTestApp({ AGENTBOOK_STATIC: JSON.stringify({ [privateKeyToAccount(walletKey).address]: 'human-of-the-example' }) });
    url = await t.listen();
  });
  after(() => t.close());

  test('takes a story from candidate to a verified attestation, an accepted revision and an attestation of the revised packet', async () => {
    const env = {
      ...process.env,
      NEWSROOM_URL: url,
      NEWSROOM_OPERATIONS_TOKEN: TEST_OPS_TOKEN,
      NEWSROOM_AGENT_WALLET_KEY: walletKey,
      NEWSROOM_PROOF_ORIGIN: t.config.worldAgentkitResourceOrigins[0]!,
    };
    const { code, stdout, stderr } = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
      const child = spawn('npx', ['tsx', 'examples/newsroom-agent.ts'], { cwd: repo, env });
      let out = '';
      let err = '';
      child.stdout.on('data', (d: Buffer) => (out += d.toString()));
      child.stderr.on('data', (d: Buffer) => (err += d.toString()));
      child.on('close', (c) => resolve({ code: c ?? -1, stdout: out, stderr: err }));
    });
    assert.equal(code, 0, stderr);
    const steps = stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown> & { step: string });
    const step = (name: string) => steps.find((s) => s.step === name)!;
    assert.equal(step('candidate').stage, 'CANDIDATE');
    assert.equal(step('published').decision, 'ALLOW');
    assert.equal(step('verified').trustTier, 'VERIFIED');
    assert.equal(step('attested').verified, true);
    assert.equal(step('attested').weight, 2);
    const done = step('done');
    assert.equal(done.version, 2);
    assert.equal(done.attestedHash, done.packetHash);
    assert.notEqual(done.packetHash, step('candidate').hash);

    // the service agrees: the revised packet is current and carries the fact-checker's verified attestation
    const room = (await t.app.inject({ method: 'GET', url: `/v1/stories/${String(done.storyId)}/machine-room` })).json() as {
      attestations: { verified: boolean; weight: number }[];
    };
    assert.deepEqual(
      room.attestations.map((a) => [a.verified, a.weight]),
      [[true, 2]],
    );
  });
});
