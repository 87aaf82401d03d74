import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { devLinkedHumanId } from '../../src/web/site/dev-proof.js';
import { createDemoTestApp, type TestApp } from '../helpers/app.js';
import { createTestCertificate, startReceiver, type Receiver, type TestCertificate } from '../helpers/https-receiver.js';
import { newsroomClient } from '../helpers/newsroom.js';
import { deliverOnce } from '../webhooks/support.js';
import { type Browser, checkPage, devLogIn, needsChromium, openBrowser } from '../site/browser.js';

/**
 * A moderator in a real browser (Debian's Chromium through playwright-core), at a phone's width and a desktop's:
 * from the console's home, clears a quarantined candidate (its text shown with what fired marked) in two clicks,
 * and reaches the correction form of a story found by its title in three (no id typed); the correction is
 * previewed as a diff at an address of its own (a reload shows it again), then sent, and its webhook reaches a
 * local HTTPS receiver, shown in the delivery log. "Block for good" and the retraction are asked on pages of
 * their own that say they cannot be undone. Every page passes checkPage (axe-core, no untranslated label, no
 * error answer, nothing wider than the screen).
 */
const skip = needsChromium();
const SECRET = 'whsec-console-browser-0123456789';
let cert: TestCertificate;
let receiver: Receiver;
let t: TestApp;
let base: string;
/** Per width: a candidate to release, one to block, a published story to correct (by its title). */
const cases: { width: number; release: string; block: string; story: { id: string; title: string } }[] = [];

before(async () => {
  if (skip) return;
  cert = createTestCertificate();
  receiver = await startReceiver(cert, SECRET);
  t = await createDemoTestApp({
    HUMAN_PROOF_VERIFIER: 'dev',
    CONTENT_ADMIN_IDS: devLinkedHumanId('ana'),
    WEBHOOK_ENDPOINTS: receiver.url,
    WEBHOOK_SIGNING_SECRET: SECRET,
    WEBHOOK_WORKER: 'off',
    RATE_LIMIT_PUBLIC_READS_PER_MINUTE: '100000',
    RATE_LIMIT_UNVERIFIED_WRITES_PER_MINUTE: '100000',
  });
  base = await t.listen();
  const news = newsroomClient(base);
  const held = async (body: string) => {
    const candidate = await news.submit(await news.joinBot(), { body });
    assert.notEqual((await news.publish(candidate.hash)).body.decision, 'ALLOW');
    return candidate.storyId;
  };
  const ids = [
    ...new Set(
      [...(await t.app.inject('/?lang=en&mode=recent')).body.matchAll(/href="\/stories\/(st_[A-Za-z0-9_-]+)\?/g)].map((m) => m[1]!),
    ),
  ];
  for (const [i, width] of [390, 1280].entries()) {
    const story = (await t.app.inject(`/v1/stories/${ids[i]}`)).json() as { id: string; title: string };
    cases.push({
      width,
      release: await held(`Sea salt cures cancer, a miracle cure, locals say (${width}).`),
      block: await held(`Vaccines cause autism, the flyer handed out at the market claims (${width}).`),
      story: { id: story.id, title: story.title },
    });
  }
});

after(async () => {
  if (skip) return;
  await t.close();
  await receiver.close();
  cert.cleanup();
});

for (const width of [390, 1280]) {
  test(
    `at ${width} px a moderator clears a candidate and reaches a story's correction in at most three clicks from the console's home`,
    { skip },
    async () => {
      const c = cases.find((x) => x.width === width)!;
      const browser: Browser = await openBrowser({ width, height: 900 });
      const { page } = browser;
      const passes = async (name: string) =>
        assert.deepEqual(await checkPage(browser, `${name}-${width}`), [], `page ${name} at ${width} px`);
      const flash = () => page.locator('.flash').first().innerText();
      try {
        await page.goto(`${base}/console?lang=en`);
        await devLogIn(page, 'ana');
        assert.equal(new URL(page.url()).pathname, '/console');

        // quarantine: click 1, the waiting queue; the candidate's text with what fired marked in place
        await page.getByRole('link', { name: 'Quarantined candidates waiting for a decision' }).click();
        await passes('console-moderation');
        const card = page.locator('article.card', { hasText: c.release });
        assert.equal((await card.locator('mark[data-rule="health.miracle-cure"]').first().innerText()).trim(), 'cures cancer');
        assert.match(await card.locator('.rule-tag').first().innerText(), /a miracle-cure health claim/);
        await card.getByLabel('Why release it').fill('A satire piece, clearly labelled');
        // click 2: released
        await card.getByRole('button', { name: 'Release' }).click();
        assert.equal(await flash(), `Story ${c.release} is released: it is published as provisional.`);
        assert.equal(await page.locator('article.card', { hasText: c.release }).count(), 0, 'gone from the queue');

        // "Block for good" asks on a page of its own, which says it is final
        const other = page.locator('article.card', { hasText: c.block });
        await other.getByLabel('Why block it').fill('Vaccine misinformation, again');
        await other.getByRole('button', { name: 'Continue to blocking for good' }).click();
        assert.equal(new URL(page.url()).pathname, `/console/moderation/quarantine/story/${c.block}/block`);
        assert.match(await page.locator('main').innerText(), /This cannot be undone/);
        await passes('console-moderation-block-confirm');
        await page.reload();
        await page.getByRole('button', { name: 'Block it for good' }).click();
        assert.equal(await flash(), `Story ${c.block} is blocked for good.`);

        // correction: from the home again; click 1 the area, click 2 the title search, click 3 "Correct"
        await page.goto(`${base}/console?lang=en`);
        await page.locator('main').getByRole('link', { name: 'Moderation', exact: true }).click();
        await page.getByLabel('Words of the story’s title').fill(c.story.title.split(/\s+/).slice(0, 4).join(' '));
        await page.getByRole('button', { name: 'Find' }).click();
        await passes('console-moderation-found');
        await page.getByRole('link', { name: `Correct “${c.story.title}”` }).click();
        assert.equal(new URL(page.url()).pathname, `/console/moderation/stories/${c.story.id}`);
        await passes('console-moderation-story');
        assert.ok((await page.locator('textarea[name="claimText"]').count()) >= 3, 'each claim a field, and empty ones to add');

        const summary = await page.getByLabel('Summary').inputValue();
        await page.getByLabel('Summary').fill(`Corrected: ${summary}`);
        await page.getByLabel('New claim (leave empty for none)').first().fill('The figures were revised in March.');
        await page.getByLabel('Correction note').fill('The figures were revised.');
        await page.getByRole('button', { name: 'Preview' }).click();
        assert.match(new URL(page.url()).pathname, /\/correction\/preview$/, 'the preview has an address of its own');
        assert.equal((await page.locator('ins').first().innerText()).trim(), 'Corrected:', 'the change shown before it is sent');
        await passes('console-moderation-correction-preview');
        const reloaded = await page.reload();
        assert.equal(reloaded?.status(), 200, 'a reload shows the preview again');
        assert.match(await page.locator('main').innerText(), /The figures were revised in March\./);
        await page.getByRole('button', { name: 'Send the correction' }).click();
        const sent = await flash();
        const event = /its webhook event is ([A-Za-z0-9_-]+)\.$/.exec(sent)?.[1];
        assert.ok(event, sent);
        assert.equal(new URL(page.url()).pathname, `/console/moderation/stories/${c.story.id}`, 'the send ends on a page to reload');
        await passes('console-moderation-corrected');

        if (width === 390) {
          // the first correction of the run (the phone's): its one delivery is due at once
          assert.equal(await deliverOnce(t, cert.cert), true);
          assert.equal(receiver.delivered().length, 1, 'the HTTPS receiver got the correction');
          await page.locator(`a[href*="event=${event}"]`).first().click();
          const log = await page.locator('main').innerText();
          assert.match(log, /story\.correction/);
          assert.match(log, /Sent/);
          assert.match(log, /\b200\b/, 'the attempt with its HTTP status');
          await passes('console-moderation-webhooks');
          await page.getByRole('link', { name: 'Legal holds' }).click();
          await passes('console-moderation-holds');
          await page.getByRole('link', { name: 'Sources' }).click();
          await passes('console-moderation-sources');
        }

        // the retraction is asked on a page of its own address, which says it cannot be undone
        await page.goto(`${base}/console/moderation/stories/${c.story.id}?lang=en`);
        await page.locator('#r-reason').fill('The minutes were forged.');
        await page.getByRole('button', { name: 'Continue to the retraction' }).click();
        assert.equal(new URL(page.url()).pathname, `/console/moderation/stories/${c.story.id}/retraction`);
        assert.match(await page.locator('main').innerText(), /It cannot be undone/);
        await passes('console-moderation-retraction-confirm');
      } finally {
        await browser.close();
      }
    },
  );
}
