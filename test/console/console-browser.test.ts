import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { devLinkedHumanId } from '../../src/web/site/dev-proof.js';
import { seedActivity } from '../governance/support.js';
import { HOUR_MS, newsroomFactory } from '../helpers/newsroom-factory.js';
import { bot, rewardVote } from '../settlements/support.js';
import type { TestApp } from '../helpers/app.js';
import { integrityApp, plantedNewsroom } from '../integrity/support.js';
import type { AgentKey } from '../../sdk/index.js';
import { type Browser, checkPage, devLogIn, needsChromium, openBrowser } from '../site/browser.js';

/**
 * The console in a real browser (Debian's Chromium through playwright-core), at a desktop's width: three people
 * in three browsers carry an emergency change through the control plane (the requester's own approval refused
 * on the page, two approvers approve with in-page proofs), a reader on no allowlist gets the 403 page for every
 * console URL, and every console page passes checkPage (axe-core, no untranslated label, no error answer).
 */
const skip = needsChromium();
const DESKTOP = { width: 1280, height: 900 };
const people = Object.fromEntries(['ana', 'ben', 'cai', 'dee'].map((name) => [name, devLinkedHumanId(name)]));
let t: TestApp;
let base: string;
let ring: AgentKey[];
const browsers: Record<string, Browser> = {};

before(async () => {
  if (skip) return;
  const ia = await integrityApp({
    HUMAN_PROOF_VERIFIER: 'dev',
    FEATURE_EXPLICIT_CONTROL_PLANE_ENABLED: '1',
    CONTENT_ADMIN_IDS: [people.ana, people.ben, people.cai].join(','),
    REWARDS_ADMIN_IDS: people.ana!,
    CONTROL_PLANE_APPROVER_LINKED_HUMAN_IDS: [people.ana, people.ben, people.cai].join(','),
    RATE_LIMIT_PUBLIC_READS_PER_MINUTE: '100000',
  });
  t = ia.g.t;
  base = t.baseUrl;
  // a ring of bots that attest each other (the integrity picture), and a flag surge (the health signal)
  ({ ring } = await plantedNewsroom(ia));
  await seedActivity(t.db, { flagsLastHour: 15 });
  for (const name of ['ana', 'ben', 'cai', 'dee']) browsers[name] = await openBrowser(DESKTOP);
});

after(async () => {
  if (skip) return;
  for (const browser of Object.values(browsers)) await browser.close();
  await t.close();
});

const passes = async (who: Browser, name: string) => assert.deepEqual(await checkPage(who, name), [], `page ${name}`);
const flash = (who: Browser) => who.page.locator('.flash').innerText();

/** Opens a console URL: the login page comes first, then the console page the person asked for. */
async function logIn(who: Browser, name: string, url: string) {
  await who.page.goto(`${base}${url}`);
  assert.equal(new URL(who.page.url()).pathname, '/login', 'the console sends a visitor to the login page');
  await devLogIn(who.page, name);
  assert.equal(new URL(who.page.url()).pathname, new URL(`${base}${url}`).pathname, 'and back to the console page');
}

test(
  'three people carry an emergency change through the control plane; the requester cannot approve their own request',
  { skip },
  async () => {
    const ana = browsers.ana!;
    await logIn(ana, 'ana', '/console?lang=en');
    await passes(ana, 'console-home');
    await ana.page.getByRole('link', { name: 'Governance' }).first().click();
    await passes(ana, 'console-governance');
    await ana.page.getByRole('button', { name: 'Evaluate the signals now' }).click();
    assert.equal(await flash(ana), 'The signals are evaluated.');
    await passes(ana, 'console-governance-evaluated');
    await ana.page.getByRole('button', { name: 'File the request (governance.emergency.apply)' }).click();
    const filed = await flash(ana);
    const id = /Request (cpr_[A-Za-z0-9_-]+) is filed/.exec(filed)?.[1];
    assert.ok(id, filed);
    await passes(ana, 'console-control-plane');
    await ana.page.getByRole('link', { name: 'Apply emergency measures' }).first().click();
    assert.ok(ana.page.url().includes(id), 'the queue links to the request it lists');
    await passes(ana, 'console-request');
    await ana.page.getByLabel('Prove with World ID that I am the person approving this').check();
    await ana.page.getByRole('button', { name: 'Approve' }).click();
    assert.equal(await flash(ana), 'You filed this request, so you cannot approve it: another approver must.');

    for (const [name, expected] of [
      ['ben', 'Your approval is recorded (1 of 2).'],
      ['cai', 'Your approval is recorded (2 of 2): the request is approved and ready to use.'],
    ] as const) {
      const approver = browsers[name]!;
      await logIn(approver, name, `/console/control-plane/${id}?lang=en`);
      const hash = await approver.page.locator('code.hash').innerText();
      assert.match(hash, /^[0-9a-f]{64}$/, 'the approver sees the hash of what they approve');
      assert.match(await approver.page.locator('pre.json').innerText(), /"overlay"/, 'and the payload itself');
      await approver.page.getByLabel('Prove with World ID that I am the person approving this').check();
      await approver.page.getByRole('button', { name: 'Approve' }).click();
      assert.equal(await flash(approver), expected);
      await passes(approver, `console-request-approved-${name}`);
    }
    const approvals = await browsers.cai!.page.locator('ul.list').innerText();
    // by the names they chose at their first login, each key in the title for an operator
    assert.ok(approvals.includes('Ben') && approvals.includes('Cai'), 'who approved, and when, is listed');
    assert.equal(await browsers.cai!.page.locator('ul.list .person', { hasText: 'Ben' }).first().getAttribute('title'), people.ben);
    assert.ok(!approvals.includes(people.ben!), 'no key in the text');

    // the approved request makes its change from its own page: nobody carries its id to another page
    await ana.page.goto(`${base}/console/control-plane/${id}?lang=en`);
    await ana.page.getByRole('button', { name: 'Apply the emergency measures' }).click();
    assert.equal(await flash(ana), 'The signals are evaluated and emergency measures are in force.');
    await passes(ana, 'console-request-used');
    await ana.page.goto(`${base}/console/governance?lang=en`);
    await passes(ana, 'console-governance-emergency');
  },
);

test('the audit chain verifies from the page, and the integrity page runs the analysis', { skip }, async () => {
  const ana = browsers.ana!;
  await ana.page.goto(`${base}/console/audit?lang=en`);
  await passes(ana, 'console-audit');
  await ana.page.getByRole('button', { name: 'Verify the chain' }).click();
  assert.match(await flash(ana), /^The audit chain is intact: \d+ rows verify\.$/);
  await passes(ana, 'console-audit-verified');
  await ana.page.goto(`${base}/console/integrity?lang=en`);
  await passes(ana, 'console-integrity');
  await ana.page.getByRole('button', { name: 'Run the analysis' }).click();
  assert.equal(new URL(ana.page.url()).pathname, '/console/integrity', 'the analysis comes back to the page (reloadable)');
  assert.match(await ana.page.locator('#report').innerText(), /Analysis of/);
  await passes(ana, 'console-integrity-report');
  // a member of the ring is a node of the picture; selecting it opens its finding with its evidence in view
  const member = ring[0]!.botId;
  await ana.page.locator(`svg.graph a[href$="${member}"]`).first().click();
  assert.ok(new URL(ana.page.url()).hash.endsWith(member), 'the node links to the member');
  const row = ana.page.locator('tr.member:target');
  assert.equal(await row.count(), 1);
  assert.equal(await row.locator('span[title]').getAttribute('title'), member, 'named by name, its id in the title');
  assert.doesNotMatch(await row.innerText(), new RegExp(member));
});

test("a rewards admin previews, runs and reviews a settlement, and freezes a story's payouts", { skip }, async () => {
  const ana = browsers.ana!;
  const db = t.db.database.db;
  // a story whose reward window closed, by a verified bot, with reward votes: something to settle
  const f = newsroomFactory(db, Date.now());
  const publishedAt = new Date(Date.now() - 96 * HOUR_MS);
  const story = await f.story({
    publishedAt,
    rewardWindowEndsAt: new Date(publishedAt.getTime() + 72 * HOUR_MS),
    authorBotId: await bot(db, 'h_writer'),
  });
  await rewardVote(db, story.id, 'voter', 'UP', 3);

  await ana.page.goto(`${base}/console/rewards?lang=en`);
  await passes(ana, 'console-rewards');
  // the policy: a change is shown old → new before it is applied
  await ana.page.getByLabel('Escrow rate').fill('0.15');
  await ana.page.getByRole('button', { name: 'Show the change' }).click();
  assert.match(await ana.page.locator('main').innerText(), /0\.1 → 0\.15/);
  await passes(ana, 'console-rewards-policy-confirm');
  await ana.page.getByRole('button', { name: 'Apply the change' }).click();
  assert.match(await flash(ana), /version 2 is in force/);
  await ana.page.getByRole('link', { name: 'Claim batches' }).first().click();
  await passes(ana, 'console-rewards-claims');
  await ana.page.getByRole('link', { name: 'Settlements' }).first().click();
  await passes(ana, 'console-rewards-settlements');
  await ana.page.getByLabel('Pool (orbs, at least 0.01)').fill('1000');
  await ana.page.getByRole('button', { name: 'Preview' }).click();
  await passes(ana, 'console-rewards-preview');
  await ana.page.getByRole('button', { name: /^Run the settlement: pay / }).click();
  assert.match(await flash(ana), /^Settlement \S+ is made: \d+ payouts?\.$/);
  await passes(ana, 'console-rewards-settlement');
  const payoutIds = await ana.page.locator('table code').allInnerTexts();
  assert.ok(
    payoutIds.some((id) => id.startsWith('po')),
    `the settlement lists its payouts: ${payoutIds.join(' ')}`,
  );

  await ana.page.goto(`${base}/console/rewards/review?lang=en`);
  await ana.page.getByLabel('What it is about').selectOption('STORY');
  await ana.page.getByLabel('Its id').fill(story.id);
  await ana.page.getByLabel('Reason', { exact: true }).fill('Votes from one address');
  await ana.page.getByRole('button', { name: 'Open the case' }).click();
  assert.match(await flash(ana), /^Case rc_\S+ is open\.$/);
  await passes(ana, 'console-rewards-review');
  await ana.page.getByRole('button', { name: 'Assign for review' }).first().click();
  assert.match(await flash(ana), /is assigned/);
  await ana.page.getByLabel('Resolution').first().fill('One person voting from several accounts: payouts stay held');
  await ana.page.getByRole('button', { name: 'Resolve' }).first().click();
  assert.match(await flash(ana), /is resolved/);

  await ana.page.goto(`${base}/console/rewards/freezes?lang=en`);
  await ana.page.getByLabel('What it is about').selectOption('STORY');
  await ana.page.getByLabel('Its id').fill(story.id);
  await ana.page.getByLabel('Reason', { exact: true }).fill('vote ring');
  await ana.page.getByRole('button', { name: 'Send' }).click();
  assert.match(await flash(ana), new RegExp(`^${story.id} is frozen: \\d+ payouts? frozen\\.$`));
  assert.match(await ana.page.locator('main').innerText(), /Frozen for “vote ring”/);
  await passes(ana, 'console-rewards-freezes');
});

test('a reader on no allowlist gets the 403 page for every console URL', { skip }, async () => {
  const dee = browsers.dee!;
  await logIn(dee, 'dee', '/console?lang=en');
  for (const url of [
    '/console',
    '/console/governance',
    '/console/control-plane',
    '/console/integrity',
    '/console/audit',
    '/console/rewards',
  ]) {
    const response = await dee.page.goto(`${base}${url}?lang=en`);
    assert.equal(response?.status(), 403, url);
    assert.ok((await dee.page.locator('main').innerText()).includes(people.dee!), `${url} names the key to allowlist`);
    dee.problems.splice(0); // the 403 answers are the point here
    await passes(dee, `console-forbidden${url.replaceAll('/', '-')}`);
  }
});
