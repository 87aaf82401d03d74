import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ConfigError, loadConfig } from '../../src/config.js';

test('the explicit control plane refuses to start with fewer approvers than CONTROL_PLANE_APPROVAL_MIN', () => {
  const base = { NODE_ENV: 'test', FEATURE_EXPLICIT_CONTROL_PLANE_ENABLED: '1' };
  assert.throws(
    () => loadConfig({ ...base, CONTROL_PLANE_APPROVER_LINKED_HUMAN_IDS: 'h_one' }),
    (err: unknown) => err instanceof ConfigError && err.variable === 'CONTROL_PLANE_APPROVER_LINKED_HUMAN_IDS',
  );
  assert.throws(
    () => loadConfig({ ...base, CONTROL_PLANE_APPROVER_LINKED_HUMAN_IDS: 'h_one,h_two', CONTROL_PLANE_APPROVAL_MIN: '3' }),
    ConfigError,
  );
  const ok = loadConfig({ ...base, CONTROL_PLANE_APPROVER_LINKED_HUMAN_IDS: 'h_one, h_two' });
  assert.deepEqual(ok.controlPlane, {
    approverLinkedHumanIds: ['h_one', 'h_two'],
    approvalMin: 2,
    enforceRequesterCannotApprove: true,
    explicitEnabled: true,
  });
  // off (the default): approvers are optional
  assert.equal(loadConfig({ NODE_ENV: 'test' }).controlPlane.explicitEnabled, false);
  assert.throws(() => loadConfig({ NODE_ENV: 'test', CONTROL_PLANE_APPROVAL_MIN: '0' }), ConfigError);
  assert.throws(() => loadConfig({ NODE_ENV: 'test', FEATURE_EXPLICIT_CONTROL_PLANE_ENABLED: 'yes please' }), ConfigError);
});
