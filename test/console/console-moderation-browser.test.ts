import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { seedDemoIfEmpty } from '../../src/demo/seed.js';
import { devLinkedHumanId } from '../../src/web/site/dev-proof.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { createTestCertificate, startReceiver, type Receiver, type TestCertificate } from '../helpers/https-receiver.js';
import { newsroomClient } from '../helpers/newsroom.js';
import { deliverOnce } from '../webhooks/support.js';
import { checkPage, needsChromium, openBrowser, type Browser } from '../site/browser.js';

/**
 * A moderator in a real browser (Debian's Chromium through playwright-core): releases a quarantined candidate
 * from the queue, corrects a story (the change previewed as a diff, then sent), and follows the correction's
 * webhook to a local HTTPS receiver in the delivery log; the holds, sources and retraction pages on the way.
 * Every page passes checkPage (axe-core, no untranslated label, no error answer).
 */
const skip = needsChromium();
const SECRET = 'whsec-console-browser-0123456789';
let cert: TestCertificate;
let receiver: Receiver;
let t: TestApp;
let base: string;
let ana: Browser;
let quarantinedId: string;
let storyId: string;

before(async () => {
  if (skip) return;
  cert = createTestCertificate();
  receiver = await startReceiver(cert, SECRET);
  t = await createTestApp({
    HUMAN_PROOF_VERIFIER: 'dev',
    CONTENT_ADMIN_IDS: devLinkedHumanId('ana'),
    WEBHOOK_ENDPOINTS: receiver.url,
    WEBHOOK_SIGNING_SECRET: SECRET,
    WEBHOOK_WORKER: 'off',
    RATE_LIMIT_PUBLIC_READS_PER_MINUTE: '100000',
    RATE_LIMIT_UNVERIFIED_WRITES_PER_MINUTE: '100000',
  });
  await seedDemoIfEmpty(t.app.ctx);
  base = await t.listen();
  const news = newsroomClient(base);
  const candidate = await news.submit(await news.joinBot(), { body: 'Sea salt cures cancer, a miracle cure, locals say.' });
  assert.equal((await news.publish(candidate.hash)).body.decision, 'QUARANTINE');
  quarantinedId = candidate.storyId;
  storyId = /href="\/stories\/(st_[A-Za-z0-9_-]+)\?/.exec((await t.app.inject('/?lang=en&mode=recent')).body)![1]!;
  ana = await openBrowser({ width: 1280, height: 900 });
});

after(async () => {
  if (skip) return;
  await ana.close();
  await t.close();
  await receiver.close();
  cert.cleanup();
});

const passes = async (name: string) => assert.deepEqual(await checkPage(ana, name), [], `page ${name}`);
const flash = () => ana.page.locator('.flash').innerText();

test('a moderator releases a quarantined candidate and corrects a story whose webhook reaches an HTTPS receiver', { skip }, async () => {
  const { page } = ana;
  await page.goto(`${base}/console/moderation?lang=en`);
  await page.getByLabel('Your test name').fill('ana');
  await page.getByRole('button', { name: 'Log in (development)' }).click();
  assert.equal(new URL(page.url()).pathname, '/console/moderation');
  await passes('console-moderation');
  const card = page.locator('article.card', { hasText: quarantinedId });
  await card.getByLabel('Why release it').fill('A satire piece, clearly labelled');
  await card.getByRole('button', { name: 'Release' }).click();
  assert.equal(await flash(), `Story ${quarantinedId} is released: it is published as provisional.`);
  assert.equal(await page.locator('article.card', { hasText: quarantinedId }).count(), 0, 'gone from the queue');

  await page.getByRole('link', { name: 'Legal holds' }).click();
  await passes('console-moderation-holds');
  await page.getByRole('link', { name: 'Sources' }).click();
  await passes('console-moderation-sources');

  await page.goto(`${base}/console/moderation/stories/${storyId}?lang=en`);
  await passes('console-moderation-story');
  const summary = await page.getByLabel('Summary').inputValue();
  await page.getByLabel('Summary').fill(`Corrected: ${summary}`);
  await page.getByLabel('Correction note').fill('The figures were revised.');
  await page.getByRole('button', { name: 'Preview' }).click();
  assert.equal((await page.locator('ins').first().innerText()).trim(), 'Corrected:', 'the change shown before it is sent');
  await passes('console-moderation-correction-preview');
  await page.getByRole('button', { name: 'Send the correction' }).click();
  const sent = await flash();
  const event = /its webhook event is ([A-Za-z0-9_-]+)\.$/.exec(sent)?.[1];
  assert.ok(event, sent);
  await passes('console-moderation-corrected');

  assert.equal(await deliverOnce(t, cert.cert), true);
  const delivered = receiver.delivered();
  assert.equal(delivered.length, 1, 'the HTTPS receiver got the correction');
  await page.locator(`a[href*="event=${event}"]`).first().click();
  const log = await page.locator('main').innerText();
  assert.match(log, /story\.correction/);
  assert.match(log, /Sent/);
  assert.match(log, /\b200\b/, 'the attempt with its HTTP status');
  await passes('console-moderation-webhooks');

  await page.goto(`${base}/console/moderation/stories/${storyId}?lang=en`);
  await page.getByRole('button', { name: 'Continue to the retraction' }).click();
  await passes('console-moderation-retraction-confirm');
});
