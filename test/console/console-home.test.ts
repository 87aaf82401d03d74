import assert from 'node:assert/strict';
import { test } from 'node:test';
import { devLinkedHumanId } from '../../src/web/site/dev-proof.js';
import { createDemoTestApp, createTestApp } from '../helpers/app.js';
import { newsroomClient } from '../helpers/newsroom.js';
import { flashOf, siteBrowser } from '../helpers/site-browser.js';

/**
 * The console's home says what waits for the person (only in the areas they may open; control-plane requests
 * waiting for their approval, not their own), the site's masthead carries the same total for them alone, and a
 * control-plane request reads in words (before → after, meaning and range, people by name) with the buttons that
 * approve it and then make its change on its own page.
 */
const people = Object.fromEntries(['ana', 'ben', 'cai', 'rho', 'dee'].map((name) => [name, devLinkedHumanId(name)]));

/** The count a home's line shows for one kind ("nothing waiting" is null). */
function countOf(body: string, kind: string): number | null {
  const line = new RegExp(`data-kind="${kind}"[^>]*>(.*?)</li>`).exec(body)?.[1];
  assert.ok(line !== undefined, `the home lists ${kind}`);
  const count = /<strong class="count">(\d+)<\/strong>/.exec(line)?.[1];
  if (count) return Number(count);
  assert.match(line, /nothing waiting/);
  return null;
}

test('the home counts what waits for me, the masthead shows the total, and a request is approved and used from its own page', async () => {
  const t = await createTestApp({
    HUMAN_PROOF_VERIFIER: 'dev',
    FEATURE_EXPLICIT_CONTROL_PLANE_ENABLED: '1',
    CONTENT_ADMIN_IDS: [people.ana, people.ben, people.cai].join(','),
    CONTROL_PLANE_APPROVER_LINKED_HUMAN_IDS: [people.ana, people.ben, people.cai].join(','),
    REWARDS_ADMIN_IDS: people.rho!,
    RATE_LIMIT_PUBLIC_READS_PER_MINUTE: '100000',
  });
  try {
    const anonymousBefore = await t.app.inject('/?lang=en');
    const ana = siteBrowser(t.app, '203.0.113.31');
    await ana.devLogin('ana');
    await ana.get('/me/name?lang=en');
    assert.equal((await ana.post('/me/name', { _csrf: ana.csrf(), lang: 'en', back: '/?lang=en', name: 'Ana Editor' })).statusCode, 303);

    // nothing yet: every line says so, and the masthead's link has no count
    const empty = await ana.get('/console?lang=en');
    assert.equal(empty.statusCode, 200);
    assert.match(empty.body, /Nothing waits for you/);
    // the admin by name; the key an operator allowlists only inside a details element
    assert.match(empty.body, /You are logged in as Ana Editor until/);
    assert.match(empty.body, /<details><summary>Your key, for an operator’s allowlists<\/summary><code>h_[0-9a-f]+<\/code><\/details>/);
    for (const kind of ['approvals', 'quarantine', 'toRatify', 'toActivate', 'findings', 'failingDeliveries'])
      assert.equal(countOf(empty.body, kind), null);
    assert.doesNotMatch(empty.body, /data-kind="reviewCases"/, 'rewards are not an area ana may open');
    assert.match((await ana.get('/?lang=en')).body, />\s*Newsroom console\s*</);

    // a proposal: a draft waits to be ratified
    const created = await ana.submit('/console/governance?lang=en', '/console/governance/proposals', {
      title: 'Stricter graduation',
      rationale: 'More eyes before a story graduates',
      changes: 'consensus.graduationMinAttestations = 6',
    });
    const proposal = /Draft (\S+) is created/.exec(flashOf(created.page.body) ?? '')?.[1];
    assert.ok(proposal, flashOf(created.page.body) ?? '');
    assert.equal(countOf((await ana.get('/console?lang=en')).body, 'toRatify'), 1);
    const ratified = await ana.submit('/console/governance?lang=en', `/console/governance/proposals/${proposal}/ratify`, {
      decision: 'RATIFY',
      prove: '1',
    });
    assert.equal(flashOf(ratified.page.body), `Proposal ${proposal} is ratified.`);

    // ana files the activation's request: it waits for ben and cai, not for ana
    const filed = await ana.submit('/console/control-plane?lang=en', '/console/control-plane/requests', {
      action: 'governance.activate',
      target: proposal,
      payload: JSON.stringify({ changes: { 'consensus.graduationMinAttestations': 6 } }),
      reason: 'The ratified proposal',
    });
    const id = /Request (cpr_[A-Za-z0-9_-]+) is filed/.exec(flashOf(filed.page.body) ?? '')?.[1];
    assert.ok(id, flashOf(filed.page.body) ?? '');
    const anaHome = (await ana.get('/console?lang=en')).body;
    assert.equal(countOf(anaHome, 'approvals'), null, "ana's own request does not wait for her");
    assert.equal(countOf(anaHome, 'toActivate'), 1);
    assert.match(anaHome, /1 thing waits for you/);

    const ben = siteBrowser(t.app, '203.0.113.32');
    await ben.devLogin('ben');
    const benHome = (await ben.get('/console?lang=en')).body;
    assert.equal(countOf(benHome, 'approvals'), 1);
    assert.match(benHome, /2 things wait for you/);
    assert.match(benHome, /href="\/console\/control-plane\?lang=en&amp;status=PENDING"/);
    // the masthead carries the same total, on the site's pages and the console's
    assert.match((await ben.get('/?lang=en')).body, />\s*Newsroom console \(2\)\s*</);

    // the queue and the request in words: what changes, from what to what, its meaning and range, who by name
    const queue = (await ben.get('/console/control-plane?lang=en')).body;
    assert.match(queue, new RegExp(`<li class="request waiting">[\\s\\S]*?Activate proposal ${proposal}`));
    assert.match(queue, /Waiting for you/);
    const page = (await ben.get(`/console/control-plane/${id}?lang=en`)).body;
    assert.match(page, new RegExp(`<h1>Activate proposal ${proposal}</h1>`));
    assert.match(page, /Attestation weight the graduation gate needs/);
    assert.match(page, /<del>5<\/del> → <ins>6<\/ins>/);
    assert.match(page, /allowed 1 to 1000/);
    assert.match(page, new RegExp(`<span class="person" title="${people.ana}">Ana Editor</span>`));
    assert.match(page, /Waiting for you/);
    assert.match(page, />Approve</, 'the first approval is not the last one');
    const first = await ben.submit(`/console/control-plane/${id}?lang=en`, `/console/control-plane/${id}/approve`, { prove: '1' });
    assert.equal(flashOf(first.page.body), 'Your approval is recorded (1 of 2).');
    assert.doesNotMatch(first.page.body, /Waiting for you/, 'approved by ben: no longer waiting for him');
    assert.match(first.page.body, /You have approved this request\./);
    assert.equal(countOf((await ben.get('/console?lang=en')).body, 'approvals'), null);

    const cai = siteBrowser(t.app, '203.0.113.33');
    await cai.devLogin('cai');
    const seen = (await cai.get(`/console/control-plane/${id}?lang=en`)).body;
    assert.match(seen, />Approve and execute</);
    const second = await cai.submit(`/console/control-plane/${id}?lang=en`, `/console/control-plane/${id}/approve`, { prove: '1' });
    assert.equal(flashOf(second.page.body), 'Your approval is recorded (2 of 2): the request is approved and ready to use.');
    assert.match(second.page.body, new RegExp(`Activate proposal ${proposal}</button>`), 'the change is a button on the request');

    // the change made from the request's own page: no request id carried anywhere by hand
    const used = await cai.submit(`/console/control-plane/${id}?lang=en`, `/console/control-plane/${id}/use`, {});
    assert.equal(flashOf(used.page.body), `Proposal ${proposal} is active: its values are in force.`);
    assert.match(used.page.body, /Used by governance\.activate/);
    assert.doesNotMatch(used.page.body, /<del>/, 'a used request shows the value it set, not a before');
    const again = await cai.submit(`/console/control-plane/${id}?lang=en`, `/console/control-plane/${id}/use`, {});
    assert.equal(again.page.statusCode, 200);
    assert.equal(flashOf(again.page.body), 'The proposal is not in a state that allows this.', 'a second use is refused with a sentence');
    const after = (await ana.get('/console?lang=en')).body;
    assert.match(after, /Nothing waits for you/);
    assert.match((await ana.get('/?lang=en')).body, />\s*Newsroom console\s*</);

    // a rewards admin counts the review cases only; a reader on no allowlist sees no console link
    const rho = siteBrowser(t.app, '203.0.113.34');
    await rho.devLogin('rho');
    const rhoHome = (await rho.get('/console?lang=en')).body;
    assert.equal(countOf(rhoHome, 'reviewCases'), null);
    assert.doesNotMatch(rhoHome, /data-kind="(approvals|quarantine|toRatify|findings)"/);
    const dee = siteBrowser(t.app, '203.0.113.35');
    await dee.devLogin('dee');
    assert.doesNotMatch((await dee.get('/?lang=en')).body, /\/console\?/);

    // logged-out readers get the same cacheable page as before: no count, no console link, no private header
    const anonymousAfter = await t.app.inject('/?lang=en');
    assert.equal(anonymousAfter.statusCode, 200);
    assert.doesNotMatch(anonymousAfter.body, /console/i);
    assert.doesNotMatch(String(anonymousAfter.headers['cache-control'] ?? ''), /private|no-store/);
    assert.equal(anonymousAfter.headers['cache-control'], anonymousBefore.headers['cache-control']);
  } finally {
    await t.close();
  }
});

test('the home counts quarantined candidates, failing deliveries, the latest analysis and open review cases', async () => {
  const t = await createDemoTestApp({
    HUMAN_PROOF_VERIFIER: 'dev',
    CONTENT_ADMIN_IDS: people.ana!,
    REWARDS_ADMIN_IDS: people.rho!,
    RATE_LIMIT_PUBLIC_READS_PER_MINUTE: '100000',
    RATE_LIMIT_UNVERIFIED_WRITES_PER_MINUTE: '100000',
  });
  try {
    const news = newsroomClient(await t.listen());
    const db = t.db.database.db;
    const storyId = /href="\/stories\/(st_[A-Za-z0-9_-]+)\?/.exec((await t.app.inject('/?lang=en&mode=recent')).body)?.[1];
    assert.ok(storyId, 'the demo has a published story');
    const ana = siteBrowser(t.app, '203.0.113.41');
    await ana.devLogin('ana');
    const before = (await ana.get('/console?lang=en')).body;
    const base = {
      quarantine: countOf(before, 'quarantine') ?? 0,
      failingDeliveries: countOf(before, 'failingDeliveries') ?? 0,
    };

    // a candidate the safety scan holds back
    const candidate = await news.submit(await news.joinBot(), { body: 'Sea salt cures cancer, a miracle cure, locals say.' });
    assert.equal((await news.publish(candidate.hash)).body.decision, 'QUARANTINE');
    // deliveries: one given up, one retrying, one never tried, one delivered (two are failing)
    const at = new Date();
    await db
      .insertInto('webhook_events')
      .values({ id: 'we_home', type: 'story.correction', story_id: storyId, occurred_at: at.toISOString(), payload: '{}', created_at: at })
      .execute();
    const delivery = (id: string, endpoint: string, status: 'PENDING' | 'DELIVERED' | 'DEAD', attempts: number) => ({
      id,
      event_id: 'we_home',
      endpoint,
      status,
      attempts,
      next_attempt_at: at,
      created_at: at,
    });
    await db
      .insertInto('webhook_deliveries')
      .values([
        delivery('wd_dead', 'https://a.example/hook', 'DEAD', 5),
        delivery('wd_retry', 'https://b.example/hook', 'PENDING', 1),
        delivery('wd_new', 'https://c.example/hook', 'PENDING', 0),
        delivery('wd_done', 'https://d.example/hook', 'DELIVERED', 1),
      ])
      .execute();
    // two analyses: the latest one's flagged clusters count
    const analysis = (id: string, clusters: number, minutesAgo: number) => ({
      id,
      method: 'test',
      parameters: '{}',
      window_start: new Date(at.getTime() - 86_400_000),
      analyzed_at: new Date(at.getTime() - minutesAgo * 60_000),
      analyzed_by: people.ana!,
      clusters: '[]',
      summary: '{}',
      cluster_count: clusters,
      member_count: clusters * 3,
    });
    await db
      .insertInto('integrity_analyses')
      .values(analysis('ia_old', 4, 60))
      .execute();
    await db
      .insertInto('integrity_analyses')
      .values(analysis('ia_new', 2, 1))
      .execute();

    const home = (await ana.get('/console?lang=en')).body;
    assert.equal(countOf(home, 'quarantine'), base.quarantine + 1);
    assert.equal(countOf(home, 'failingDeliveries'), base.failingDeliveries + 2);
    assert.equal(countOf(home, 'findings'), 2, "the latest analysis's flagged clusters");
    assert.match(home, /href="\/console\/moderation\/webhooks\?lang=en"/);

    // a review case opened by the rewards admin is on their home, not on the content admin's
    const rho = siteBrowser(t.app, '203.0.113.42');
    await rho.devLogin('rho');
    const casesBefore = countOf((await rho.get('/console?lang=en')).body, 'reviewCases') ?? 0;
    const opened = await rho.submit('/console/rewards/review?lang=en', '/console/rewards/review/cases', {
      targetType: 'STORY',
      targetId: storyId,
      reason: 'Votes from one address',
    });
    assert.match(flashOf(opened.page.body) ?? '', /^Case \S+ is open\.$/);
    const rhoHome = (await rho.get('/console?lang=en')).body;
    assert.equal(countOf(rhoHome, 'reviewCases'), casesBefore + 1);
    assert.match((await rho.get('/?lang=en')).body, new RegExp(`>\\s*Newsroom console \\(${casesBefore + 1}\\)\\s*<`));
    assert.doesNotMatch((await ana.get('/console?lang=en')).body, /data-kind="reviewCases"/);
  } finally {
    await t.close();
  }
});
