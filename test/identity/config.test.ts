import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ConfigError, loadConfig } from '../../src/config.js';

function refusal(env: Record<string, string>): ConfigError {
  try {
    loadConfig(env);
  } catch (err) {
    assert.ok(err instanceof ConfigError, String(err));
    return err;
  }
  assert.fail('expected a ConfigError');
}

describe('identity configuration', () => {
  test('defaults: login action svc-login, 7-day sessions, 5 s verifier timeout', () => {
    const config = loadConfig({});
    assert.deepEqual(
      [config.worldIdLoginAction, config.worldIdSessionTtlSeconds, config.humanProofVerifyTimeoutMs],
      ['svc-login', 604_800, 5_000],
    );
    const custom = loadConfig({
      WORLDID_LOGIN_ACTION: 'newsroom-login',
      WORLDID_SESSION_TTL_SECONDS: '3600',
      HUMAN_PROOF_VERIFY_TIMEOUT_MS: '2500',
    });
    assert.deepEqual(
      [custom.worldIdLoginAction, custom.worldIdSessionTtlSeconds, custom.humanProofVerifyTimeoutMs],
      ['newsroom-login', 3600, 2500],
    );
  });

  test('a login action that could be taken for a governance action, or bad durations, refuse to start naming the variable', () => {
    for (const action of ['graduate:st_1', 'control_plane_approve:x', 'log in'])
      assert.equal(refusal({ WORLDID_LOGIN_ACTION: action }).variable, 'WORLDID_LOGIN_ACTION', action);
    assert.equal(refusal({ WORLDID_SESSION_TTL_SECONDS: '10' }).variable, 'WORLDID_SESSION_TTL_SECONDS');
    assert.equal(refusal({ HUMAN_PROOF_VERIFY_TIMEOUT_MS: '0' }).variable, 'HUMAN_PROOF_VERIFY_TIMEOUT_MS');
    assert.equal(refusal({ HUMAN_PROOF_VERIFY_TIMEOUT_MS: 'soon' }).variable, 'HUMAN_PROOF_VERIFY_TIMEOUT_MS');
  });
});
