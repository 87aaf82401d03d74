import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { devLinkedHumanId } from '../../src/web/site/dev-proof.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { HOUR_MS, newsroomFactory } from '../helpers/newsroom-factory.js';
import { bot, rewardVote } from '../settlements/support.js';
import { type Browser, checkPage, devLogIn, needsChromium, openBrowser } from '../site/browser.js';

/**
 * Two people for money in real browsers: two rewards admins, each in their own browser (ana at a desktop's 1280 px,
 * ben at a phone's 390 px). A pool above SETTLEMENT_SECOND_APPROVAL_ABOVE_ORBS: ana's preview says what is payable
 * now and what waits, names the beneficiaries, and offers to ask for a second approval instead of running; ana
 * cannot approve her own request; ben sees it waiting on his home page, approves it with an in-page proof and runs
 * exactly the approved pool. Every page passes checkPage (axe-core, no untranslated label, no error answer).
 */
const skip = needsChromium();
const people = Object.fromEntries(['ana', 'ben'].map((name) => [name, devLinkedHumanId(name)]));
let t: TestApp;
let botName: string;
const browsers: Record<string, Browser> = {};

before(async () => {
  if (skip) return;
  t = await createTestApp({
    HUMAN_PROOF_VERIFIER: 'dev',
    REWARDS_ADMIN_IDS: [people.ana, people.ben].join(','),
    SETTLEMENT_SECOND_APPROVAL_ABOVE_ORBS: '100',
    RATE_LIMIT_PUBLIC_READS_PER_MINUTE: '100000',
    RATE_LIMIT_HUMAN_WRITES_PER_MINUTE: '100000',
  });
  await t.listen();
  const db = t.db.database.db;
  const f = newsroomFactory(db, Date.now());
  const publishedAt = new Date(Date.now() - 96 * HOUR_MS);
  const botId = await bot(db, 'h_writer');
  botName = (await db.selectFrom('bots').select('name').where('bot_id', '=', botId).executeTakeFirstOrThrow()).name;
  const story = await f.story({ publishedAt, rewardWindowEndsAt: new Date(publishedAt.getTime() + 72 * HOUR_MS), authorBotId: botId });
  await rewardVote(db, story.id, 'voter', 'UP', 3);
  browsers.ana = await openBrowser({ width: 1280, height: 900 });
  browsers.ben = await openBrowser({ width: 390, height: 844 });
});

after(async () => {
  if (skip) return;
  for (const browser of Object.values(browsers)) await browser.close();
  await t.close();
});

const passes = async (who: Browser, name: string) => assert.deepEqual(await checkPage(who, name), [], `page ${name}`);
const flash = (who: Browser) => who.page.locator('.flash').innerText();

async function logIn(who: Browser, name: string, url: string) {
  await who.page.goto(`${t.baseUrl}${url}`);
  assert.equal(new URL(who.page.url()).pathname, '/login');
  await devLogIn(who.page, name);
  assert.equal(new URL(who.page.url()).pathname, new URL(`${t.baseUrl}${url}`).pathname);
}

test('two rewards admins, in their own browsers, pay a pool above the threshold together', { skip }, async () => {
  const ana = browsers.ana!;
  const ben = browsers.ben!;
  await logIn(ana, 'ana', '/console/rewards/settlements?lang=en');
  await passes(ana, 'console-money-settlements');
  await ana.page.getByLabel('Pool (orbs, at least 0.01)').fill('500');
  await ana.page.getByRole('button', { name: 'Preview' }).click();
  await passes(ana, 'console-money-preview');
  const main = await ana.page.locator('main').innerText();
  // the beneficiaries by name, the id only in the title
  assert.ok(main.includes(botName), `the preview names the bot ${botName}`);
  assert.ok(!/bot_[0-9a-f]{6}/.test(main), 'no raw bot id is shown');
  assert.equal((await ana.page.locator(`span.beneficiary[title^="bot_"]`).count()) > 0, true);
  // what is payable now and what waits, in words next to the button; no run button above the threshold
  assert.match(main, /Payable now/);
  assert.match(main, /no recipient yet/);
  assert.equal(await ana.page.getByRole('button', { name: /^Run the settlement/ }).count(), 0);
  await ana.page.getByLabel('Why this pool (kept with the request)').fill('November pool');
  await ana.page.getByRole('button', { name: 'Ask another rewards admin to approve this run' }).click();
  assert.equal(await flash(ana), 'Your request to pay 500 orbs is filed: another rewards admin must approve it before it runs.');
  await passes(ana, 'console-money-filed');
  assert.match(
    await ana.page.locator('#second-approval').locator('..').innerText(),
    /You asked for this run: another rewards admin must approve it\./,
  );
  assert.equal(await ana.page.getByRole('button', { name: 'Approve paying 500 orbs' }).count(), 0, 'no approve button for the filer');

  await logIn(ben, 'ben', '/console?lang=en');
  const waiting = ben.page.locator('li[data-kind="moneyApprovals"]');
  assert.match(await waiting.innerText(), /Settlement runs waiting for your second approval\s*1/);
  await passes(ben, 'console-money-home-phone');
  await waiting.getByRole('link').click();
  await passes(ben, 'console-money-waiting-phone');
  const request = ben.page.locator('li[data-request]');
  assert.match(await request.innerText(), /Run a settlement of 500 orbs/);
  assert.match(await request.innerText(), /Reason: November pool/);
  await ben.page.getByLabel('Prove with World ID that I am the person approving this').check();
  await ben.page.getByRole('button', { name: 'Approve paying 500 orbs' }).click();
  assert.equal(await flash(ben), 'You approved the run: it can now be run, with exactly its pool.');
  await passes(ben, 'console-money-approved-phone');
  await ben.page.getByRole('button', { name: 'Run the approved settlement of 500 orbs' }).click();
  assert.match(await flash(ben), /^Settlement \S+ is made: \d+ payouts?\.$/);
  await passes(ben, 'console-money-settled-phone');
  // the settlement's payouts name their beneficiaries too
  const result = await ben.page.locator('main').innerText();
  assert.ok(result.includes(botName), 'the settlement page names the bot');
  assert.ok(!/bot_[0-9a-f]{6}/.test(result), 'no raw bot id on the settlement page');

  // the run paid exactly the approved pool, and the request is used
  const settlement = await t.db.database.db.selectFrom('settlements').select(['pool_base']).executeTakeFirstOrThrow();
  assert.equal(settlement.pool_base, (500n * 10n ** 18n).toString());
  const audit = await t.db.database.db
    .selectFrom('audit_events')
    .select('action')
    .where('scope', '=', 'CONTROL_PLANE')
    .orderBy('seq')
    .execute();
  assert.deepEqual(
    audit.map((a) => a.action),
    ['request.created', 'request.approved', 'request.executed', 'request.consumed'],
  );
});
