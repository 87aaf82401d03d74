import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { devLinkedHumanId } from '../../src/web/site/dev-proof.js';
import type { TestApp } from '../helpers/app.js';
import { integrityApp, plantedNewsroom } from '../integrity/support.js';
import { type Browser, checkPage, devLogIn, needsChromium, openBrowser } from '../site/browser.js';

/**
 * The integrity pages in a real browser at a phone's width (390 px) and a desktop's (1280 px): the analysis,
 * a finding's page, the freeze confirmation and a dismissal, each passing checkPage (axe-core, no untranslated
 * label, nothing wider than the screen).
 */
const skip = needsChromium();
const ana = devLinkedHumanId('ana');
let t: TestApp;
let base: string;
let readerRing: string[];

before(async () => {
  if (skip) return;
  const ia = await integrityApp({ HUMAN_PROOF_VERIFIER: 'dev', CONTENT_ADMIN_IDS: `h_admin,${ana}`, REWARDS_ADMIN_IDS: ana });
  t = ia.g.t;
  base = t.baseUrl;
  ({ readerRing } = await plantedNewsroom(ia));
  const at = new Date();
  await t.db.database.db
    .insertInto('display_names')
    .values({ actor_id: readerRing[0]!, name: 'Vera Voter', name_key: 'vera voter', chosen_at: at, created_at: at })
    .execute();
  await t.db.database.db
    .insertInto('reward_recipients')
    .values({
      id: 'rr_vera',
      linked_human_id: 'h_vera',
      actor_id: readerRing[0]!,
      terms_version: '2026-11',
      terms_accepted_at: at,
      created_at: at,
      updated_at: at,
    })
    .execute();
});

after(async () => {
  if (skip) return;
  await t.close();
});

for (const [label, viewport] of [
  ['390', { width: 390, height: 844 }],
  ['1280', { width: 1280, height: 900 }],
] as const) {
  test(`at ${label} px: the analysis, a finding, the freeze confirmation and a dismissal pass axe`, { skip }, async () => {
    const who: Browser = await openBrowser(viewport);
    const passes = async (name: string) => assert.deepEqual(await checkPage(who, `${name}-${label}`), [], `page ${name} at ${label} px`);
    try {
      await who.page.goto(`${base}/console/integrity?lang=en`);
      await devLogIn(who.page, 'ana');
      assert.equal(new URL(who.page.url()).pathname, '/console/integrity');
      await who.page.getByRole('button', { name: 'Run the analysis' }).click();
      await passes('integrity-analysis');
      assert.match(await who.page.locator('main').innerText(), /Vera Voter/);
      // 390 px: the finding with the readers (a reader with a rewards recipient); 1280 px: the bot ring's (no recipient)
      const sections = who.page.locator('section.finding');
      const finding = label === '390' ? sections.filter({ hasText: 'Vera Voter' }) : sections.filter({ hasNotText: 'Vera Voter' });
      await finding.getByRole('link', { name: /Look at cluster \d and act on it/ }).click();
      await passes('integrity-finding');
      const findingUrl = who.page.url();
      await who.page.locator('a[href*="/freeze?"]').first().click();
      await passes('integrity-freeze-confirm');
      const effect = await who.page.locator('main').innerText();
      if (label === '390') {
        assert.match(effect, /This freezes every pending payout of Vera Voter/);
        await who.page.getByLabel('Reason').fill('Up-votes only the ring');
        await who.page.getByRole('button', { name: 'Freeze the payouts of Vera Voter' }).click();
        assert.equal(await who.page.locator('.flash').innerText(), 'The payouts of rewards recipient rr_vera are frozen.');
        await passes('integrity-frozen');
      } else assert.match(effect, /so there are no payouts to freeze/);
      await who.page.goto(findingUrl);
      // dismissal with a reason, shown with who and why; reloading the result page shows the same page
      await who.page.getByLabel('Why this is not collusion').fill(`Checked at ${label} px`);
      await who.page.getByRole('button', { name: 'Dismiss this finding' }).click();
      assert.equal(await who.page.locator('.flash').innerText(), 'Finding dismissed: it no longer counts as waiting.');
      await passes('integrity-dismissed');
      const reloaded = await who.page.reload();
      assert.equal(reloaded?.status(), 200, 'the result page has its own address');
      assert.match(await who.page.locator('main').innerText(), new RegExp(`Dismissed by ${ana}: “Checked at ${label} px”`));
    } finally {
      await who.close();
    }
  });
}
