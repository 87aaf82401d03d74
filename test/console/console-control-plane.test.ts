import assert from 'node:assert/strict';
import { test } from 'node:test';
import { devLinkedHumanId } from '../../src/web/site/dev-proof.js';
import { seedActivity } from '../governance/support.js';
import { createTestApp } from '../helpers/app.js';
import { flashOf, siteBrowser } from '../helpers/site-browser.js';

/**
 * The control plane in the console, through inject: a flag surge trips the health signal, a content admin files
 * the recommended emergency request, their own approval is refused with a sentence, two other approvers approve
 * it with in-page World ID proofs (each seeing the payload and its hash), and the measures are applied with it.
 */

const people = Object.fromEntries(['ana', 'ben', 'cai', 'dee'].map((name) => [name, devLinkedHumanId(name)]));

test('an emergency change goes through the control plane: file, own approval refused, two approvals, applied', async () => {
  const t = await createTestApp({
    HUMAN_PROOF_VERIFIER: 'dev',
    FEATURE_EXPLICIT_CONTROL_PLANE_ENABLED: '1',
    CONTENT_ADMIN_IDS: [people.ana, people.ben, people.cai].join(','),
    CONTROL_PLANE_APPROVER_LINKED_HUMAN_IDS: [people.ana, people.ben, people.cai].join(','),
  });
  try {
    await seedActivity(t.db, { flagsLastHour: 15 });
    const ana = siteBrowser(t.app, '203.0.113.21');
    await ana.devLogin('ana');
    const evaluated = await ana.submit('/console/governance?lang=en', '/console/governance/evaluate', {});
    assert.equal(flashOf(evaluated.page.body), 'The signals are evaluated.');
    assert.match(evaluated.page.body, /tripped: Surge of flags/);
    const payload = /name="payload" value="([^"]+)"/.exec(evaluated.page.body)?.[1]?.replace(/&quot;/g, '"');
    assert.ok(payload, 'the recommended request is offered with its payload');
    const reason = /name="reason"[^>]*value="([^"]+)"/.exec(evaluated.page.body)?.[1] ?? 'surge';

    const filed = await ana.submit('/console/governance?lang=en', '/console/control-plane/requests', {
      action: 'governance.emergency.apply',
      target: 'emergency',
      payload,
      reason,
    });
    const id = /Request (cpr_[A-Za-z0-9_-]+) is filed/.exec(flashOf(filed.page.body) ?? '')?.[1];
    assert.ok(id, flashOf(filed.page.body) ?? filed.page.body.slice(0, 400));
    const own = await ana.submit(`/console/control-plane/${id}?lang=en`, `/console/control-plane/${id}/approve`, { prove: '1' });
    assert.equal(flashOf(own.page.body), 'You filed this request, so you cannot approve it: another approver must.');

    const ben = siteBrowser(t.app, '203.0.113.22');
    await ben.devLogin('ben');
    const seen = await ben.get(`/console/control-plane/${id}?lang=en`);
    assert.equal(seen.statusCode, 200);
    const hash = /<code class="hash">([0-9a-f]{64})<\/code>/.exec(seen.body)?.[1];
    assert.ok(hash, 'the approver sees the payload hash');
    assert.match(seen.body, /overlay/, 'and the payload itself');
    const first = await ben.submit(`/console/control-plane/${id}?lang=en`, `/console/control-plane/${id}/approve`, { prove: '1' });
    assert.equal(flashOf(first.page.body), 'Your approval is recorded (1 of 2).');
    const again = await ben.submit(`/console/control-plane/${id}?lang=en`, `/console/control-plane/${id}/approve`, { prove: '1' });
    assert.equal(flashOf(again.page.body), 'You have already approved this request.');

    const cai = siteBrowser(t.app, '203.0.113.23');
    await cai.devLogin('cai');
    const second = await cai.submit(`/console/control-plane/${id}?lang=en`, `/console/control-plane/${id}/approve`, { prove: '1' });
    assert.equal(flashOf(second.page.body), 'Your approval is recorded (2 of 2): the request is approved and ready to use.');
    assert.match(second.page.body, new RegExp(`${people.ben}`), 'who approved is listed');
    assert.match(second.page.body, new RegExp(`${people.cai}`));

    const applied = await ana.submit('/console/governance?lang=en', '/console/governance/evaluate', { controlPlaneRequestId: id });
    assert.equal(flashOf(applied.page.body), 'The signals are evaluated and emergency measures are in force.');
    assert.match(applied.page.body, /is active since/);
    const used = await ana.get(`/console/control-plane/${id}?lang=en`);
    assert.match(used.body, /Used by/);
  } finally {
    await t.close();
  }
});
