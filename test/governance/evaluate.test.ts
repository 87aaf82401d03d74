import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { governanceApp, propose, ratify, seedActivity } from './support.js';
import type { Json } from '../helpers/json.js';

const signal = (body: Json, name: string) => body.signals.find((s: Json) => s.name === name);

describe('evaluate with the explicit control plane off (FEATURE_EXPLICIT_CONTROL_PLANE_ENABLED=0, the default)', () => {
  test('a quiet newsroom: the measured signals with their numbers and thresholds, the missing ones named, nothing applied', async () => {
    const g = await governanceApp();
    try {
      await seedActivity(g.t.db, { flagsLastHour: 2, flagsEarlier: 24 });
      const res = await g.post<Json>('admin', '/v1/admin/governance/evaluate');
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal(res.body.explicitControlPlane, false);
      assert.equal(res.body.mutatingApplied, false);
      assert.equal(res.body.applied, null);
      assert.deepEqual(res.body.tripped, []);
      assert.deepEqual(res.body.recommendedControlPlaneActions, []);
      assert.deepEqual(signal(res.body, 'flagSurge'), {
        name: 'flagSurge',
        available: true,
        tripped: false,
        lastHour: 2,
        previous24Hours: 24,
        previousHourlyAverage: 1,
        threshold: { ratio: 3, minimum: 10, required: 10, parameters: ['emergency.flagSurgeRatio', 'emergency.flagSurgeMinFlags'] },
      });
      assert.equal(signal(res.body, 'objectionSpike').lastHour, 0);
      for (const missing of ['payoutAnomalies', 'collusion']) {
        const s = signal(res.body, missing);
        assert.equal(s.available, false);
        assert.equal(s.tripped, false);
        assert.match(s.reason, /not measured yet/);
      }
      assert.equal(res.body.emergency.active, false);
      assert.equal((await g.t.db.database.db.selectFrom('governance_emergencies').selectAll().execute()).length, 0);
    } finally {
      await g.t.close();
    }
  });

  test('a flag surge trips: the emergency overlay raises the thresholds, the newsroom applies them, and clear returns to normal', async () => {
    const g = await governanceApp();
    try {
      await seedActivity(g.t.db, { flagsLastHour: 12, flagsEarlier: 24, objectionsLastHour: 2, objectionsEarlier: 48 });
      const res = await g.post<Json>('admin', '/v1/admin/governance/evaluate');
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.deepEqual(res.body.tripped, ['flagSurge']);
      assert.equal(signal(res.body, 'objectionSpike').tripped, false, '2 objections against an hourly average of 2');
      assert.equal(signal(res.body, 'objectionSpike').threshold.required, 10);
      assert.equal(res.body.mutatingApplied, true);
      assert.deepEqual(res.body.applied.overlay, {
        'consensus.minAttestations': 6,
        'consensus.graduationMinAttestations': 10,
        'revision.acceptVotes': 4,
      });
      assert.equal(res.body.applied.controlPlaneRequestId, null);
      assert.equal(res.body.emergency.active, true);
      assert.equal(res.body.emergency.id, res.body.applied.emergencyId);

      const state = await g.get<Json>('admin', '/v1/admin/governance/state');
      const minAtt = state.body.parameters.find((p: Json) => p.name === 'consensus.minAttestations');
      assert.deepEqual([minAtt.value, minAtt.baseValue, minAtt.emergencyOverride], [6, 3, true]);
      assert.equal(state.body.parameters.find((p: Json) => p.name === 'rewardWindowHours').emergencyOverride, false);
      assert.equal(state.body.emergency.activatedBy, 'h_admin');
      assert.deepEqual(
        state.body.emergency.signals.map((s: Json) => s.tripped),
        [true, false, false, false],
      );
      const orientation = await g.client.get<Json>('/v1/assistant/orientation');
      assert.equal(orientation.body.gatingFacts.thresholds.minAttestations, 6, 'the newsroom reads the overlay');
      assert.equal(orientation.body.gatingFacts.thresholds.revisionAcceptVotes, 4);

      const again = await g.post<Json>('admin', '/v1/admin/governance/evaluate');
      assert.equal(again.body.mutatingApplied, false);
      assert.match(again.body.note, /already active/);

      const cleared = await g.post<Json>('admin', '/v1/admin/governance/emergency/clear', { reason: 'surge handled' });
      assert.equal(cleared.status, 202, JSON.stringify(cleared.body));
      assert.equal(cleared.body.cleared.id, res.body.applied.emergencyId);
      assert.equal(cleared.body.cleared.reason, 'surge handled');
      assert.equal(cleared.body.emergency.active, false);
      assert.ok(cleared.body.emergency.lastClearedAt);
      const after = await g.client.get<Json>('/v1/assistant/orientation');
      assert.equal(after.body.gatingFacts.thresholds.minAttestations, 3);
      const audit = await g.t.db.database.db
        .selectFrom('audit_events')
        .select('action')
        .where('target', '=', res.body.applied.emergencyId)
        .orderBy('seq')
        .execute();
      assert.deepEqual(
        audit.map((a) => a.action),
        ['emergency.applied', 'emergency.cleared'],
      );

      const none = await g.post<Json>('admin', '/v1/admin/governance/emergency/clear');
      assert.equal(none.status, 409);
      assert.equal(none.body.code, 'GOVERNANCE_NO_EMERGENCY');
    } finally {
      await g.t.close();
    }
  });

  test('the ratio matters: a busy day raises the bar; an objection spike trips on its own', async () => {
    const g = await governanceApp();
    try {
      await seedActivity(g.t.db, { flagsLastHour: 12, flagsEarlier: 240, objectionsLastHour: 11 });
      const res = await g.post<Json>('admin', '/v1/admin/governance/evaluate');
      assert.equal(signal(res.body, 'flagSurge').tripped, false);
      assert.equal(signal(res.body, 'flagSurge').threshold.required, 30);
      assert.deepEqual(res.body.tripped, ['objectionSpike']);
      assert.equal(res.body.mutatingApplied, true);
    } finally {
      await g.t.close();
    }
  });

  test('the signal thresholds are governance parameters: lowering the minimum makes the same numbers trip', async () => {
    const g = await governanceApp();
    try {
      await seedActivity(g.t.db, { flagsLastHour: 4 });
      assert.deepEqual((await g.post<Json>('admin', '/v1/admin/governance/evaluate')).body.tripped, []);
      const p = await propose(g, { 'emergency.flagSurgeMinFlags': 4, 'emergency.thresholdMultiplier': 1.5 });
      await ratify(g, p.id);
      assert.equal((await g.post<Json>('admin', `/v1/admin/governance/proposals/${p.id}/activate`)).status, 202);
      const res = await g.post<Json>('admin', '/v1/admin/governance/evaluate');
      assert.deepEqual(res.body.tripped, ['flagSurge']);
      assert.equal(signal(res.body, 'flagSurge').threshold.minimum, 4);
      assert.deepEqual(res.body.applied.overlay, {
        'consensus.minAttestations': 5,
        'consensus.graduationMinAttestations': 8,
        'revision.acceptVotes': 3,
      });
    } finally {
      await g.t.close();
    }
  });

  test('evaluate and clear are content-admin routes', async () => {
    const g = await governanceApp();
    try {
      assert.equal((await g.post<Json>('approver1', '/v1/admin/governance/evaluate')).body.code, 'CONTENT_ADMIN_REQUIRED');
      assert.equal((await g.post<Json>('reader', '/v1/admin/governance/emergency/clear')).body.code, 'CONTENT_ADMIN_REQUIRED');
      assert.equal((await g.post<Json>('admin', '/v1/admin/governance/evaluate', { dryRun: true })).status, 400);
    } finally {
      await g.t.close();
    }
  });
});
