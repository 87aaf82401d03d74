import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { generateAgentKey, signAgentRequest, signKeyProof, type AgentKey } from '../../sdk/index.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { joinBot, joinedBot, packet, post } from './support.js';

const JOIN = '/v1/agents/join';

describe('several signing keys per bot (POST /v1/agents/join with botId)', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
  });
  after(() => t.close());

  const write = (key: AgentKey, botId: string, body: Record<string, unknown>, keyVersion?: number, path = JOIN) =>
    post(
      t.app,
      path,
      { botId, ...body },
      signAgentRequest({ key, method: 'POST', path, body: { botId, ...body }, ...(keyVersion ? { keyVersion } : {}) }),
    );
  const submit = (key: AgentKey, botId: string, keyVersion?: number) =>
    write(key, botId, { verified: false, ...packet(`${botId}-${keyVersion ?? 0}-${Math.random()}`) }, keyVersion, '/v1/candidates');

  test('a bot adds a key (signed by its key, proved by the new one); both sign with x-agent-key-version; the first is revoked', async () => {
    const first = generateAgentKey();
    const second = generateAgentKey();
    const botId = first.botId;
    await joinedBot(t.app, first);

    const added = await write(first, botId, { addKey: { publicKey: second.publicKey, keyProof: signKeyProof(second, botId) } });
    assert.equal(added.status, 202, JSON.stringify(added.body));
    assert.equal(added.body.keyVersion, 2);
    assert.deepEqual(
      (added.body.keys as { version: number }[]).map((k) => k.version),
      [1, 2],
    );

    // two active keys: the header is required, and either key signs under its own version
    const unnamed = await submit(first, botId);
    assert.equal(unnamed.status, 401);
    assert.deepEqual(
      unnamed.body.details?.map((d) => [d.header, d.code]),
      [['x-agent-key-version', 'MISSING']],
    );
    assert.equal((await submit(first, botId, 1)).status, 202);
    assert.equal((await submit(second, botId, 2)).status, 202);
    assert.equal((await submit(second, botId, 1)).body.code, 'AGENT_SIGNATURE_INVALID');

    const revoked = await write(second, botId, { revokeKeyVersion: 1 }, 2);
    assert.equal(revoked.status, 202, JSON.stringify(revoked.body));
    assert.ok((revoked.body.keys as { version: number; revokedAt?: string }[]).find((k) => k.version === 1)?.revokedAt);
    // the revoked key signs nothing any more; one key left: no header needed
    assert.equal((await submit(first, botId, 1)).body.code, 'AGENT_SIGNED_HEADERS_INVALID');
    assert.equal((await submit(first, botId)).body.code, 'AGENT_SIGNATURE_INVALID');
    assert.equal((await submit(second, botId)).status, 202);
    // nor can it join again
    assert.equal((await joinBot(t.app, first)).body.code, 'AGENT_KEY_REVOKED');
  });

  test('the last active key cannot be revoked, and an unknown version is 404', async () => {
    const key = generateAgentKey();
    await joinedBot(t.app, key);
    const last = await write(key, key.botId, { revokeKeyVersion: 1 });
    assert.equal(last.status, 409);
    assert.equal(last.body.code, 'AGENT_LAST_KEY');
    assert.equal((await write(key, key.botId, { revokeKeyVersion: 7 })).status, 404);
  });

  test('adding a key needs the new key to sign the key proof, and a key of another bot is refused', async () => {
    const key = generateAgentKey();
    const other = generateAgentKey();
    await joinedBot(t.app, key);
    await joinedBot(t.app, other);
    const stranger = generateAgentKey();
    const forged = await write(key, key.botId, { addKey: { publicKey: stranger.publicKey, keyProof: signKeyProof(key, key.botId) } });
    assert.equal(forged.status, 400);
    assert.equal(forged.body.code, 'AGENT_KEY_PROOF_INVALID');
    const taken = await write(key, key.botId, { addKey: { publicKey: other.publicKey, keyProof: signKeyProof(other, key.botId) } });
    assert.equal(taken.status, 409);
    assert.equal(taken.body.code, 'AGENT_KEY_IN_USE');
  });

  test('a key change signed by another bot is refused', async () => {
    const key = generateAgentKey();
    const intruder = generateAgentKey();
    await joinedBot(t.app, key);
    await joinedBot(t.app, intruder);
    const res = await write(intruder, key.botId, { revokeKeyVersion: 1 });
    assert.equal(res.status, 401);
    assert.equal(res.body.code, 'AGENT_SIGNATURE_INVALID');
  });
});
