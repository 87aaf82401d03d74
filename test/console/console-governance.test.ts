import assert from 'node:assert/strict';
import { test } from 'node:test';
import { devLinkedHumanId } from '../../src/web/site/dev-proof.js';
import { createTestApp } from '../helpers/app.js';
import { flashOf, siteBrowser } from '../helpers/site-browser.js';

/**
 * The console through inject: who gets in, governance proposals through their states, and the control plane
 * with two approvers (the requester's own approval refused, with a sentence). Chromium plays the same in
 * test/console/console-browser.test.ts.
 */

const [ana, ben, cai, dee] = ['ana', 'ben', 'cai', 'dee'].map((name) => ({ name, key: devLinkedHumanId(name) }));

async function consoleApp(extra: Record<string, string> = {}) {
  return createTestApp({
    HUMAN_PROOF_VERIFIER: 'dev',
    CONTENT_ADMIN_IDS: [ana!.key, ben!.key, cai!.key].join(','),
    REWARDS_ADMIN_IDS: ana!.key,
    CONTROL_PLANE_APPROVER_LINKED_HUMAN_IDS: [ana!.key, ben!.key, cai!.key].join(','),
    ...extra,
  });
}

test('a visitor who is not logged in goes to the login page and comes back; a reader on no allowlist gets the 403 page naming their key', async () => {
  const t = await consoleApp();
  try {
    const anonymous = siteBrowser(t.app);
    const door = await anonymous.get('/console/governance?lang=en');
    assert.equal(door.statusCode, 303);
    assert.equal(door.headers.location, `/login?lang=en&next=${encodeURIComponent('/console/governance?lang=en')}`);

    const reader = siteBrowser(t.app);
    await reader.devLogin(dee!.name);
    for (const url of [
      '/console',
      '/console/governance',
      '/console/control-plane',
      '/console/audit',
      '/console/integrity',
      '/console/rewards',
    ]) {
      const page = await reader.get(`${url}?lang=en`);
      assert.equal(page.statusCode, 403, url);
      assert.match(page.body, new RegExp(dee!.key), `${url} names the key to put on an allowlist`);
      assert.equal(page.headers['cache-control'], 'no-store');
      assert.equal(page.headers['x-robots-tag'], 'noindex, nofollow');
    }
    const readerHome = await reader.get('/?lang=en');
    assert.doesNotMatch(readerHome.body, /href="\/console\?/, 'no console link for a reader on no allowlist');
    const home = siteBrowser(t.app);
    await home.devLogin(ana!.name);
    assert.match(
      (await home.get('/?lang=en')).body,
      /<a href="\/console\?lang=en">Newsroom console<\/a>/,
      'an admin finds the console from the masthead',
    );
    const page = await home.get('/console?lang=en');
    assert.equal(page.statusCode, 200);
    for (const area of ['Moderation', 'Governance', 'Control plane', 'Audit chain', 'Rewards']) assert.match(page.body, new RegExp(area));
    assert.match(page.body, /<meta name="robots" content="noindex, nofollow"/);
  } finally {
    await t.close();
  }
});

test('a proposal goes from draft to ratified (World ID proof in the page) to active, and the parameter shows its new value', async () => {
  const t = await consoleApp();
  try {
    const admin = siteBrowser(t.app);
    await admin.devLogin(ana!.name);
    const state = await admin.get('/console/governance?lang=en');
    assert.equal(state.statusCode, 200);
    const name = /<code>([a-zA-Z.]+)<\/code>/.exec(state.body)?.[1];
    assert.ok(name, 'the parameters are listed');
    const bad = await admin.submit('/console/governance?lang=en', '/console/governance/proposals', {
      title: 'x',
      rationale: 'y',
      changes: 'not a change',
    });
    assert.equal(flashOf(bad.page.body), 'Write the changes one per line as “name = number”.');
    const created = await admin.submit('/console/governance?lang=en', '/console/governance/proposals', {
      title: 'Tune',
      rationale: 'Because',
      changes: `${name} = 5`,
    });
    const id = /Draft (gp_[A-Za-z0-9_-]+|[A-Za-z0-9_-]+) is created/.exec(flashOf(created.page.body) ?? '')?.[1];
    assert.ok(id, flashOf(created.page.body) ?? created.page.body.slice(0, 500));
    const noProof = await admin.submit('/console/governance?lang=en', `/console/governance/proposals/${id}/ratify`, { decision: 'RATIFY' });
    assert.match(flashOf(noProof.page.body) ?? '', /World ID proof/);
    const ratified = await admin.submit('/console/governance?lang=en', `/console/governance/proposals/${id}/ratify`, {
      decision: 'RATIFY',
      prove: '1',
    });
    assert.equal(flashOf(ratified.page.body), `Proposal ${id} is ratified.`);
    const active = await admin.submit('/console/governance?lang=en', `/console/governance/proposals/${id}/activate`, {});
    assert.equal(flashOf(active.page.body), `Proposal ${id} is active: its values are in force.`, active.page.body.slice(0, 300));
  } finally {
    await t.close();
  }
});

test('the audit chain verifies from the console, and a forged row is named by its seq', async () => {
  const t = await consoleApp();
  try {
    const admin = siteBrowser(t.app);
    await admin.devLogin(ana!.name);
    // some admin work: a proposal and its ratification, each a row of the chain
    const gov = await admin.get('/console/governance?lang=en');
    const name = /<code>([a-zA-Z.]+)<\/code>/.exec(gov.body)![1]!;
    await admin.submit('/console/governance?lang=en', '/console/governance/proposals', {
      title: 'A',
      rationale: 'B',
      changes: `${name} = 5`,
    });
    await admin.submit('/console/governance?lang=en', '/console/governance/proposals', {
      title: 'C',
      rationale: 'D',
      changes: `${name} = 6`,
    });
    const intact = await admin.submit('/console/audit?lang=en', '/console/audit/verify', {});
    assert.match(flashOf(intact.page.body) ?? '', /^The audit chain is intact: \d+ rows verify\.$/);
    assert.match(intact.page.body, /<code class="hash">[0-9a-f]{64}<\/code>/, "the last row's hash");

    // someone with the owner's rights rewrites the first row behind the triggers' back
    await t.db.owner.withSession((s) =>
      s.exec(
        `ALTER TABLE audit_events DISABLE TRIGGER USER; UPDATE audit_events SET details = '{"forged":true}' WHERE seq = 1; ALTER TABLE audit_events ENABLE TRIGGER USER;`,
      ),
    );
    const broken = await admin.submit('/console/audit?lang=en', '/console/audit/verify', {});
    assert.equal(flashOf(broken.page.body), 'The audit chain is broken: the first row that does not verify is seq 1.');
    assert.match(broken.page.body, /hash does not match/, 'and why');
  } finally {
    await t.close();
  }
});
