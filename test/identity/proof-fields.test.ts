import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { keccak256 } from 'viem';
import { canonicalNullifier, isAmbiguousSignal, linkedHumanIdOf, worldIdSignalHash } from '../../src/identity/humans/proof-fields.js';
import { parseGovernanceAction } from '../../src/identity/humans/policy.js';
import { worldIdSignalHash as sdkSignalHash } from '../../sdk/index.js';
import { createTestApp } from '../helpers/app.js';

describe('proof fields', () => {
  test("worldIdSignalHash is World ID's hashToField: the empty signal gives the verifier's documented default", () => {
    assert.equal(worldIdSignalHash(''), '0x00c5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a4');
    assert.equal(sdkSignalHash('login:wch_abc'), worldIdSignalHash('login:wch_abc'), 'the SDK and the service agree');
  });

  test('a 0x-hex signal is hashed as the bytes it encodes (as IDKit does), anything else as UTF-8', () => {
    const bytes = Uint8Array.from([0xab, 0xcd]);
    assert.equal(worldIdSignalHash('0xabcd'), `0x${(BigInt(keccak256(bytes)) >> 8n).toString(16).padStart(64, '0')}`);
    assert.notEqual(worldIdSignalHash('0xabcd'), worldIdSignalHash('abcd'));
    assert.equal(isAmbiguousSignal('0xabc'), true);
    assert.equal(isAmbiguousSignal('0xzz'), true);
    assert.equal(isAmbiguousSignal('0xabcd'), false);
    assert.equal(isAmbiguousSignal('login:0x1'), false);
  });

  test('World ID nullifiers are one spelling (0x + 64 lowercase hex); other providers’ are kept as sent', () => {
    const canonical = `0x${'0'.repeat(60)}abcd`;
    for (const spelling of ['0xabcd', 'ABCD', '0x000ABCD', canonical])
      assert.equal(canonicalNullifier('world_id', spelling), canonical, spelling);
    for (const bad of ['0x', 'xyz', `0x${'1'.repeat(65)}`, '-1']) assert.equal(canonicalNullifier('world_id', bad), null, bad);
    assert.equal(canonicalNullifier('passport', 'Passport-N.1'), 'Passport-N.1');
  });

  test('linkedHumanId = h_ + first 32 hex of SHA-256(provider:nullifier)', () => {
    // sha256("world_id:0x01") computed independently: echo -n 'world_id:0x01' | sha256sum
    assert.equal(linkedHumanIdOf('world_id', '0x01'), 'h_4197e792be8165d06cfd273e98f936bb');
    assert.notEqual(linkedHumanIdOf('world_id', 'n'), linkedHumanIdOf('passport', 'n'));
  });

  test('governance actions: the three formats only', () => {
    assert.deepEqual(parseGovernanceAction('graduate:st_1'), { kind: 'graduate', storyId: 'st_1' });
    assert.deepEqual(parseGovernanceAction('reward:st-2'), { kind: 'reward', storyId: 'st-2' });
    assert.deepEqual(parseGovernanceAction('flag_high_severity:cl_9'), { kind: 'flag_high_severity', claimId: 'cl_9' });
    for (const bad of [
      'governance_ratify:p',
      'control_plane_approve:r',
      'graduate:',
      'reward:a:b',
      ' graduate:st_1',
      `graduate:${'a'.repeat(65)}`,
    ]) {
      assert.equal(parseGovernanceAction(bad), null, bad);
    }
  });
});

describe('OpenAPI', () => {
  test('/openapi.json lists the four identity routes with 202 and their error answers, and the identity error codes', async () => {
    const t = await createTestApp();
    try {
      const doc = (await t.app.inject({ url: '/openapi.json' })).json() as {
        paths: Record<string, { post?: { responses: Record<string, unknown>; security?: unknown[] } }>;
        components: { schemas: { ErrorCode: { enum: string[] } } };
      };
      const expected: Record<string, string[]> = {
        '/v1/session/worldid/challenge': ['202', '400', '401', '403', '409', '429', '503'],
        '/v1/session/worldid/verify': ['202', '400', '401', '403', '404', '409', '410', '429', '503'],
        '/v1/worldid/verify': ['202', '400', '401', '403', '404', '409', '429', '503'],
        '/v1/human-proof/verify': ['202', '400', '401', '403', '404', '409', '429', '503'],
      };
      // the statuses the edge answers on every operation (body, URL and header limits, timeouts, content types)
      const edge = ['408', '413', '414', '415', '431'];
      for (const [path, routeStatuses] of Object.entries(expected)) {
        const statuses = [...routeStatuses, ...edge];
        const post = doc.paths[path]?.post;
        assert.ok(post, path);
        assert.deepEqual(Object.keys(post.responses).sort(), statuses.sort(), path);
        assert.deepEqual(post.security, [{ humanSignature: [] }], path);
      }
      for (const code of [
        'CHALLENGE_USED',
        'CHALLENGE_EXPIRED',
        'HUMAN_ACTION_NOT_ALLOWED',
        'HUMAN_LOGIN_REQUIRED',
        'ACTOR_BOUND_TO_OTHER_HUMAN',
        'HUMAN_PROOF_ALREADY_VERIFIED',
        'NULLIFIER_REUSED',
      ]) {
        assert.ok(doc.components.schemas.ErrorCode.enum.includes(code), code);
      }
    } finally {
      await t.close();
    }
  });
});
