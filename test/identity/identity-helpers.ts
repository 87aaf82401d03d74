import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { devHumanProof, type HumanProofProvider, type ServiceClient, type WorldIdLoginChallenge } from '../../sdk/index.js';
import { TEST_SECRET } from '../helpers/app.js';

/** A fresh World ID nullifier hash, as IDKit spells it (0x + 64 hex). */
export const newNullifier = () => `0x${randomBytes(32).toString('hex')}`;
export const MERKLE_ROOT = `0x${'1a'.repeat(32)}`;

/** Plays the newsroom front end logging its users in and proving human actions, through the SDK. */
export function identityClient(client: ServiceClient) {
  const actor = (actorId: string, linkedHumanId?: string) => ({ actorId, verified: true, ...(linkedHumanId ? { linkedHumanId } : {}) });

  async function challenge(actorId: string) {
    const res = await client.startWorldIdLogin(TEST_SECRET, actor(actorId));
    assert.equal(res.status, 202, JSON.stringify(res.body));
    return res.body;
  }

  /** IDKit's proof for a login challenge, in the dev format the test service verifies. */
  const loginProof = (c: WorldIdLoginChallenge, nullifierHash = newNullifier()) =>
    devHumanProof({ provider: 'world_id', action: c.action, nullifierHash, merkleRoot: MERKLE_ROOT, signalHash: c.signalHash });

  /** Challenge, then proof: the linkedHumanId of the person whose nullifier this is. */
  async function login(actorId: string, nullifierHash = newNullifier()) {
    const c = await challenge(actorId);
    const res = await client.completeWorldIdLogin(TEST_SECRET, actor(actorId), c.challengeId, loginProof(c, nullifierHash));
    assert.equal(res.status, 202, JSON.stringify(res.body));
    return res.body;
  }

  /** A dev proof of `action` by a provider, recorded through /v1/worldid/verify or /v1/human-proof/verify. */
  function verifyAction(
    actorId: string,
    action: string,
    options: { provider?: HumanProofProvider; nullifierHash?: string; linkedHumanId?: string } = {},
  ) {
    const provider = options.provider ?? 'world_id';
    const proof = devHumanProof({ provider, action, nullifierHash: options.nullifierHash ?? newNullifier(), merkleRoot: MERKLE_ROOT });
    return client.verifyHumanAction(TEST_SECRET, actor(actorId, options.linkedHumanId), { provider, action, ...proof });
  }

  return { actor, challenge, loginProof, login, verifyAction };
}

/** The `code` and first detail `path` of an error answer, whatever the route's success type. */
export const errorCode = (res: { body: unknown }) => (res.body as { code?: string }).code;
export const errorPath = (res: { body: unknown }) => (res.body as { details?: { path?: string }[] }).details?.[0]?.path;
