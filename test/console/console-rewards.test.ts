import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { devLinkedHumanId } from '../../src/web/site/dev-proof.js';
import type { Db } from '../../src/platform/db/database.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { HOUR_MS, newsroomFactory } from '../helpers/newsroom-factory.js';
import { flashOf, siteBrowser } from '../helpers/site-browser.js';
import { bot, rewardVote } from '../settlements/support.js';
import type { DB } from '../../src/tables.js';

/**
 * The console's rewards area through inject: the policy's confirm step (old → new, then applied), a settlement
 * preview and a run confirmed against its totals (stale totals refused with a sentence), a story's payouts
 * frozen and unfrozen, a review case through its states with only the legal moves offered, and the door.
 */

const [ana, cai] = ['ana', 'cai'].map((name) => ({ name, key: devLinkedHumanId(name) }));

/** The fields of the form posting to `action` on a page (hidden inputs and prefilled values; not its token, language or way back). */
function formFields(body: string, action: string): Record<string, string> {
  const start = body.indexOf(`action="${action}"`);
  assert.ok(start >= 0, `the page has a form posting to ${action}`);
  const form = body.slice(start, body.indexOf('</form>', start));
  const fields: Record<string, string> = {};
  for (const match of form.matchAll(/<input([^>]*)>/g)) {
    const name = /name="([^"]+)"/.exec(match[1]!)?.[1];
    const value = /value="([^"]*)"/.exec(match[1]!)?.[1];
    if (name && !['_csrf', 'lang', 'back'].includes(name) && value !== undefined) fields[name] = value.replace(/&amp;/g, '&');
  }
  return fields;
}

/** The part of a page that shows one case (its article). */
function caseCard(body: string, id: string): string {
  const start = body.indexOf(`aria-labelledby="case-${id}"`);
  assert.ok(start >= 0, `the page shows case ${id}`);
  return body.slice(start, body.indexOf('</article>', start));
}

describe('console: rewards', () => {
  let t: TestApp;
  let db: Db<DB>;
  const storyIds: string[] = [];

  /** A story published 4 days ago (its 72 h reward window closed), written by a verified bot, with reward votes. */
  async function closedStory(votes: number) {
    const f = newsroomFactory(db, Date.now());
    const publishedAt = new Date(Date.now() - 96 * HOUR_MS);
    const story = await f.story({
      publishedAt,
      rewardWindowEndsAt: new Date(publishedAt.getTime() + 72 * HOUR_MS),
      authorBotId: await bot(db, 'h_writer'),
    });
    await rewardVote(db, story.id, 'voter', 'UP', votes);
    storyIds.push(story.id);
    return story.id;
  }

  before(async () => {
    t = await createTestApp({
      HUMAN_PROOF_VERIFIER: 'dev',
      CONTENT_ADMIN_IDS: cai!.key,
      REWARDS_ADMIN_IDS: ana!.key,
      RATE_LIMIT_HUMAN_WRITES_PER_MINUTE: '100000',
      RATE_LIMIT_PUBLIC_READS_PER_MINUTE: '100000',
    });
    db = t.db.database.db;
  });
  after(async () => t.close());

  test('a content admin who is not a rewards admin gets the 403 page on every rewards page', async () => {
    const content = siteBrowser(t.app);
    await content.devLogin(cai!.name);
    for (const url of [
      '/console/rewards',
      '/console/rewards/settlements',
      '/console/rewards/review',
      '/console/rewards/freezes',
      '/console/rewards/claims',
    ]) {
      const page = await content.get(`${url}?lang=en`);
      assert.equal(page.statusCode, 403, url);
      assert.match(page.body, new RegExp(cai!.key));
    }
    const posted = await content.post('/console/rewards/freezes', {
      _csrf: 'x',
      lang: 'en',
      targetType: 'STORY',
      targetId: 'st_x',
      move: 'freeze',
      reason: 'r',
    });
    assert.notEqual(posted.statusCode, 303, 'a form is refused too');
  });

  test('the policy: the confirm page shows old → new for each field, and applying it changes the policy', async () => {
    const admin = siteBrowser(t.app);
    await admin.devLogin(ana!.name);
    const page = await admin.get('/console/rewards?lang=en');
    assert.equal(page.statusCode, 200);
    assert.match(page.body, /Version 1, in force since/);
    assert.match(page.body, /100000<\/td>/, 'the escrow rate in parts per million');

    const form = formFields(page.body, '/console/rewards/policy/preview');
    assert.deepEqual(
      { ...form, reason: undefined },
      { escrowRate: '0.1', WRITER: '0.5', FACT_CHECK: '0.25', RISK: '0.15', SOURCE_DIVERSITY: '0.1', reason: undefined },
    );
    const badSum = await admin.submit('/console/rewards?lang=en', '/console/rewards/policy/preview', {
      ...form,
      status: 'ACTIVE',
      WRITER: '0.6',
    });
    assert.equal(flashOf(badSum.page.body), 'The four splits must add up to exactly 1; these add up to 1.1.');

    const confirm = await admin.post('/console/rewards/policy/preview', {
      _csrf: admin.csrf(),
      lang: 'en',
      ...form,
      status: 'ACTIVE',
      escrowRate: '0.2',
      WRITER: '0.4',
      SOURCE_DIVERSITY: '0.2',
      reason: 'more reserve',
    });
    assert.equal(confirm.statusCode, 200, confirm.body.slice(0, 300));
    assert.match(confirm.body, /Applying this change makes version 2/);
    assert.match(confirm.body, /0\.1 → 0\.2/);
    assert.match(confirm.body, /0\.5 → 0\.4/);
    assert.equal((confirm.body.match(/>unchanged</g) ?? []).length, 3, 'status, fact check and risk are unchanged');
    const policyBefore = (await t.app.inject('/v1/rewards/policy')).json();
    assert.equal(policyBefore.escrowRatePpm, 100000, 'nothing changes before Apply');

    const apply = formFields(confirm.body, '/console/rewards/policy');
    assert.equal(apply.baseVersion, '1');
    const applied = await admin.post('/console/rewards/policy', { _csrf: admin.csrf(), lang: 'en', ...apply });
    assert.equal(applied.statusCode, 303);
    const after = await admin.get(String(applied.headers.location));
    assert.equal(flashOf(after.body), 'The policy is changed: version 2 is in force.');
    const policy = (await t.app.inject('/v1/rewards/policy')).json();
    assert.deepEqual(
      [policy.version, policy.escrowRatePpm, policy.roleSplitsPpm.WRITER, policy.roleSplitsPpm.SOURCE_DIVERSITY],
      [2, 200000, 400000, 200000],
    );

    // the same confirm page sent again: the policy moved on since, so nothing is applied
    const stale = await admin.post('/console/rewards/policy', { _csrf: admin.csrf(), lang: 'en', ...apply });
    const stalePage = await admin.get(String(stale.headers.location));
    assert.match(flashOf(stalePage.body) ?? '', /The policy changed since you saw the change to confirm/);
    assert.equal((await t.app.inject('/v1/rewards/policy')).json().version, 2);

    // back to the launch values for the settlement below
    const back = await admin.post('/console/rewards/policy/preview', {
      _csrf: admin.csrf(),
      lang: 'en',
      status: 'ACTIVE',
      escrowRate: '0.1',
      WRITER: '0.5',
      FACT_CHECK: '0.25',
      RISK: '0.15',
      SOURCE_DIVERSITY: '0.1',
    });
    await admin.post('/console/rewards/policy', { _csrf: admin.csrf(), lang: 'en', ...formFields(back.body, '/console/rewards/policy') });
    assert.equal((await t.app.inject('/v1/rewards/policy')).json().escrowRatePpm, 100000);
  });

  test('a settlement: the preview shows its totals, a run with stale totals is refused, a run with current ones makes the settlement and its payouts', async () => {
    const admin = siteBrowser(t.app);
    await admin.devLogin(ana!.name);
    const nothing = await admin.get('/console/rewards/settlements/preview?lang=en&totalPoolOrbs=1000');
    assert.match(nothing.body, /There is nothing to settle/);
    assert.doesNotMatch(nothing.body, /action="\/console\/rewards\/settlements\/run"/);

    await closedStory(3);
    const previewUrl = '/console/rewards/settlements/preview?lang=en&totalPoolOrbs=1000';
    const preview = await admin.get(previewUrl);
    assert.equal(preview.statusCode, 200);
    const seen = formFields(preview.body, '/console/rewards/settlements/run');
    assert.equal(seen.pool, '1000000000000000000000');
    assert.equal(seen.storyCount, '1');
    assert.match(preview.body, /1000 orbs/);
    assert.match(preview.body, new RegExp(`${seen.paid} base units`), 'the paid total in base units');
    assert.match(preview.body, new RegExp(`${seen.escrow} base units`), 'the escrow in base units');

    // another story's window closed since the preview: its totals are not the ones the person saw
    await closedStory(2);
    const stale = await admin.post('/console/rewards/settlements/run', { _csrf: admin.csrf(), lang: 'en', back: previewUrl, ...seen });
    assert.equal(stale.statusCode, 303);
    assert.equal(stale.headers.location, previewUrl);
    const refusedPage = await admin.get(String(stale.headers.location));
    assert.match(flashOf(refusedPage.body) ?? '', /The totals changed since your preview/);
    assert.equal((await db.selectFrom('settlements').select('id').execute()).length, 0, 'nothing was settled');

    const current = formFields(refusedPage.body, '/console/rewards/settlements/run');
    assert.equal(current.storyCount, '2');
    const run = await admin.post('/console/rewards/settlements/run', { _csrf: admin.csrf(), lang: 'en', back: previewUrl, ...current });
    assert.equal(run.statusCode, 303);
    const settlementId = /\/console\/rewards\/settlements\/([^?]+)\?/.exec(String(run.headers.location))?.[1];
    assert.ok(settlementId, String(run.headers.location));
    const detail = await admin.get(String(run.headers.location));
    const payouts = await db.selectFrom('payouts').select(['id']).where('settlement_id', '=', settlementId).execute();
    assert.ok(payouts.length > 0);
    assert.equal(
      flashOf(detail.body),
      `Settlement ${settlementId} is made: ${payouts.length} ${payouts.length === 1 ? 'payout' : 'payouts'}.`,
    );
    for (const p of payouts) assert.match(detail.body, new RegExp(`<code>${p.id}</code>`), 'each payout is listed');
    assert.match(detail.body, new RegExp(`${current.paid} base units`));
    const list = await admin.get('/console/rewards/settlements?lang=en');
    assert.match(list.body, new RegExp(`>${settlementId}</a>`));

    const again = await admin.post('/console/rewards/settlements/run', { _csrf: admin.csrf(), lang: 'en', back: previewUrl, ...current });
    assert.match(flashOf((await admin.get(String(again.headers.location))).body) ?? '', /There is nothing to settle/);
  });

  test("a story's payouts frozen show on the freezes page, and unfreeze sends them to review", async () => {
    const admin = siteBrowser(t.app);
    await admin.devLogin(ana!.name);
    const storyId = storyIds[0]!;
    const from = '/console/rewards/freezes?lang=en';
    const held = (await db.selectFrom('payouts').select('id').where('story_id', '=', storyId).execute()).length;
    assert.ok(held > 0);
    const frozen = await admin.submit(from, '/console/rewards/freezes', {
      targetType: 'STORY',
      targetId: storyId,
      move: 'freeze',
      reason: 'vote ring',
    });
    assert.equal(flashOf(frozen.page.body), `${storyId} is frozen: ${held} ${held === 1 ? 'payout' : 'payouts'} frozen.`);
    assert.match(frozen.page.body, new RegExp(`Frozen story <code>${storyId}</code>`));
    assert.match(frozen.page.body, /Frozen for “vote ring”/);
    const twice = await admin.submit(from, '/console/rewards/freezes', {
      targetType: 'STORY',
      targetId: storyId,
      move: 'freeze',
      reason: 'again',
    });
    assert.equal(flashOf(twice.page.body), 'This is already frozen.');

    const unfrozen = await admin.submit(from, '/console/rewards/freezes', {
      targetType: 'STORY',
      targetId: storyId,
      move: 'unfreeze',
      reason: 'no ring',
    });
    assert.equal(flashOf(unfrozen.page.body), `${storyId} is unfrozen: ${held} ${held === 1 ? 'payout' : 'payouts'} went to review.`);
    assert.match(unfrozen.page.body, /Nothing is frozen\./);
    const statuses = await db.selectFrom('payouts').select('status').where('story_id', '=', storyId).execute();
    assert.ok(statuses.every((p) => p.status === 'REVIEW'));
    const notFrozen = await admin.submit(from, '/console/rewards/freezes', {
      targetType: 'STORY',
      targetId: storyId,
      move: 'unfreeze',
      reason: 'again',
    });
    assert.equal(flashOf(notFrozen.page.body), 'This is not frozen, so there is nothing to unfreeze.');
  });

  test('a review case moves from open to in review to resolved, with only the legal moves offered in each state', async () => {
    const admin = siteBrowser(t.app);
    await admin.devLogin(ana!.name);
    const from = '/console/rewards/review?lang=en';
    const storyId = storyIds[0]!;
    const opened = await admin.submit(from, '/console/rewards/review/cases', {
      targetType: 'STORY',
      targetId: storyId,
      reason: 'check the votes',
      assignedToActorId: '',
    });
    const id = /Case ([A-Za-z0-9_-]+) is open\./.exec(flashOf(opened.page.body) ?? '')?.[1];
    assert.ok(id, flashOf(opened.page.body) ?? opened.page.body.slice(0, 300));
    const moves = (card: string) => [...card.matchAll(/<button type="submit"[^>]*>([^<]+)<\/button>/g)].map((m) => m[1]);

    const open = caseCard(opened.page.body, id);
    assert.match(open, /Open<\/span>/);
    assert.deepEqual(moves(open), ['Assign for review', 'Escalate', 'Dismiss'], 'an open case is not resolved before review');
    const illegal = await admin.submit(from, `/console/rewards/review/cases/${id}/resolve`, {
      outcome: 'RESOLVED',
      resolution: 'too early',
    });
    assert.equal(flashOf(illegal.page.body), 'The case is no longer in a state that allows this: the page shows what it allows now.');

    const assigned = await admin.submit(from, `/console/rewards/review/cases/${id}/assign`, { assigneeActorId: 'reviewer_1' });
    assert.equal(flashOf(assigned.page.body), `Case ${id} is assigned.`);
    const inReview = caseCard(assigned.page.body, id);
    assert.match(inReview, /In review<\/span>/);
    assert.match(inReview, /assigned to reviewer_1/);
    assert.deepEqual(moves(inReview), ['Assign for review', 'Escalate', 'Resolve', 'Dismiss']);

    const resolved = await admin.submit(from, `/console/rewards/review/cases/${id}/resolve`, {
      outcome: 'RESOLVED',
      resolution: 'votes are genuine',
      releasePayouts: '1',
    });
    assert.equal(flashOf(resolved.page.body), `Case ${id} is resolved.`);
    const decided = caseCard(resolved.page.body, id);
    assert.match(decided, /Resolved<\/span>/);
    assert.deepEqual(moves(decided), ['Appeal the decision'], 'a decided case can only be appealed');
    const statuses = await db.selectFrom('payouts').select('status').where('story_id', '=', storyId).execute();
    assert.ok(
      statuses.every((p) => p.status !== 'REVIEW'),
      'released from review',
    );
  });

  test('the claim rail off by configuration is said in a sentence; finalize is refused with one', async () => {
    const admin = siteBrowser(t.app);
    await admin.devLogin(ana!.name);
    const page = await admin.get('/console/rewards/claims?lang=en');
    assert.equal(page.statusCode, 200);
    assert.match(page.body, /The claim rail is off on this service/);
    assert.match(page.body, /No batch yet\./);
    const finalize = await admin.post('/console/rewards/claims/finalize', { _csrf: admin.csrf(), lang: 'en' });
    const after = await admin.get(String(finalize.headers.location));
    assert.match(flashOf(after.body) ?? '', /The claim rail is (off|not configured)/);
  });
});
