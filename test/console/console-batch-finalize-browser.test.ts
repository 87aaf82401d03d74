import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { devLinkedHumanId } from '../../src/web/site/dev-proof.js';
import { payout, settlement } from '../claims/support.js';
import { rewardsApp, type RewardsApp } from '../settlements/support.js';
import { type Browser, checkPage, devLogIn, needsChromium, openBrowser } from '../site/browser.js';

/**
 * Two people for a claim batch, in real browsers: two rewards admins, each in their own browser (ana at a desktop's
 * 1280 px, ben at a phone's 390 px). A batch above SETTLEMENT_SECOND_APPROVAL_ABOVE_ORBS: ana's confirm page says
 * what cannot be undone and whom the batch pays by name, and offers the request instead of the finalize; ben sees it
 * waiting on his home page, approves it in place with an in-page proof and finalizes exactly the approved batch.
 * Then a second request is cancelled by ana from its confirm page, and refused to ben. Every page passes checkPage
 * (axe-core, no untranslated label, nothing wider than the screen, no error answer).
 */
const skip = needsChromium();
const people = Object.fromEntries(['ana', 'ben'].map((name) => [name, devLinkedHumanId(name)]));
let r: RewardsApp;
let recipientId: string;
const browsers: Record<string, Browser> = {};
const ORB = 10n ** 18n;

before(async () => {
  if (skip) return;
  r = await rewardsApp({
    HUMAN_PROOF_VERIFIER: 'dev',
    REWARDS_ADMIN_IDS: [people.ana, people.ben].join(','),
    SETTLEMENT_SECOND_APPROVAL_ABOVE_ORBS: '1',
    CLAIMS_ENABLED: '1',
    // a finalize reads nothing from the chain: the rail only has to be configured
    CHAIN_RPC_URL: 'http://127.0.0.1:9',
    CLAIM_DISTRIBUTOR_ADDRESS: `0x${'22'.repeat(20)}`,
  });
  const at = new Date();
  await r.db
    .insertInto('display_names')
    .values({ actor_id: 'carol', name: 'Carol Claimer', name_key: 'carol claimer', chosen_at: at, created_at: at })
    .execute();
  recipientId = 'rr_carol';
  await r.db
    .insertInto('reward_recipients')
    .values({
      id: recipientId,
      linked_human_id: 'h_carol',
      actor_id: 'carol',
      terms_version: '2026-11',
      terms_accepted_at: at,
      wallet_address: `0x${'ab'.repeat(20)}`,
      wallet_chain_id: 1337,
      wallet_verified_at: at,
      created_at: at,
      updated_at: at,
    })
    .execute();
  const st = await settlement(r.db, 2);
  await payout(r.db, st, recipientId, 'h_carol', 2n * ORB);
  await payout(r.db, st, recipientId, 'h_carol', ORB);
  browsers.ana = await openBrowser({ width: 1280, height: 900 });
  browsers.ben = await openBrowser({ width: 390, height: 844 });
});

after(async () => {
  if (skip) return;
  for (const browser of Object.values(browsers)) await browser.close();
  await r.t.close();
});

const passes = async (who: Browser, name: string) => assert.deepEqual(await checkPage(who, name), [], `page ${name}`);
const flash = (who: Browser) => who.page.locator('.flash').innerText();
const controlPlaneAudit = async () =>
  (await r.db.selectFrom('audit_events').select('action').where('scope', '=', 'CONTROL_PLANE').orderBy('seq').execute()).map(
    (a) => a.action,
  );

async function logIn(who: Browser, name: string, url: string) {
  await who.page.goto(`${r.t.baseUrl}${url}`);
  assert.equal(new URL(who.page.url()).pathname, '/login');
  await devLogIn(who.page, name);
  assert.equal(new URL(who.page.url()).pathname, new URL(`${r.t.baseUrl}${url}`).pathname);
}

/** From the claims page, the confirm page of a finalize with this claim window. */
async function confirmPage(who: Browser, days: string) {
  await who.page.goto(`${r.t.baseUrl}/console/rewards/claims?lang=en`);
  await who.page.getByLabel('Claim window in days (1 to 365; 90 when empty)').fill(days);
  await who.page.getByRole('button', { name: 'Check the batch before finalizing' }).click();
  assert.equal(new URL(who.page.url()).pathname, '/console/rewards/claims/finalize');
}

test('two rewards admins, in their own browsers, finalize a batch above the threshold together', { skip }, async () => {
  const ana = browsers.ana!;
  const ben = browsers.ben!;
  await logIn(ana, 'ana', '/console/rewards/claims?lang=en');
  await passes(ana, 'console-batch-claims');
  await confirmPage(ana, '30');
  await passes(ana, 'console-batch-confirm');
  const main = await ana.page.locator('main').innerText();
  // the effect that cannot be undone, in words, before any button
  assert.match(main, /Finalizing cannot be undone\./);
  assert.match(main, /the operator registers it on the distributor contract, and only then can recipients claim/);
  // whom it pays, by name (the linked human id only in the title), and how much
  assert.ok(main.includes('Carol Claimer'), 'the confirm page names the recipient');
  assert.ok(!main.includes('h_carol'), 'no raw linked human id is shown');
  assert.equal(await ana.page.locator('span.beneficiary[title="h_carol"]').count(), 1);
  assert.match(main, /2 payable payouts \(3 orbs\) in no batch yet/);
  assert.match(main, /One batch for 1 wallets, with each wallet’s amount fixed for good; claimable for 30 days/);
  // above the threshold: the request, not the finalize
  assert.equal(await ana.page.getByRole('button', { name: /^Finalize the batch/ }).count(), 0);
  await ana.page.getByLabel('Why this batch (kept with the request)').fill('November claims');
  await ana.page.getByRole('button', { name: 'Ask another rewards admin to approve this batch' }).click();
  assert.equal(
    await flash(ana),
    'Your request to finalize a batch of 3 orbs is filed: another rewards admin must approve it before it is finalized.',
  );
  await passes(ana, 'console-batch-filed');
  const filed = ana.page.locator('li[data-request]');
  assert.match(await filed.innerText(), /Finalize a batch of 3 orbs, claimable for 30 days/);
  assert.match(await filed.innerText(), /You asked for this batch: another rewards admin must approve it\./);
  assert.equal(await ana.page.getByRole('button', { name: 'Approve paying 3 orbs' }).count(), 0, 'no approve button for the filer');
  assert.equal(await r.db.selectFrom('claim_batches').select('id').executeTakeFirst(), undefined, 'nothing finalized yet');

  await logIn(ben, 'ben', '/console?lang=en');
  const waiting = ben.page.locator('li[data-kind="finalizeApprovals"]');
  assert.match(await waiting.innerText(), /Batch finalizes waiting for your second approval\s*1/);
  await passes(ben, 'console-batch-home-phone');
  await waiting.getByRole('link').click();
  assert.equal(new URL(ben.page.url()).pathname, '/console/rewards/claims');
  await passes(ben, 'console-batch-waiting-phone');
  const request = ben.page.locator('li[data-request]');
  const text = await request.innerText();
  assert.match(text, /Finalize a batch of 3 orbs, claimable for 30 days/);
  assert.match(text, /Reason: November claims/);
  assert.match(text, /Before\s*2 payable payouts \(3 orbs\) in no batch yet/);
  assert.ok(text.includes('Carol Claimer'), 'the request names whom it pays');
  assert.equal(await request.getByRole('link', { name: 'Cancel this request' }).count(), 0, 'only the filer may cancel');
  await ben.page.getByLabel('Prove with World ID that I am the person approving this').check();
  await ben.page.getByRole('button', { name: 'Approve paying 3 orbs' }).click();
  assert.equal(await flash(ben), 'You approved the batch: it can now be finalized, exactly as approved.');
  await passes(ben, 'console-batch-approved-phone');
  await ben.page.getByRole('button', { name: 'Finalize the approved batch of 3 orbs' }).click();
  assert.match(await flash(ben), /^cb_\S+ is finalized: 1 leaves, 3 orbs\.$/);
  await passes(ben, 'console-batch-finalized-phone');

  // the finalize batched exactly the approved payouts with the approved window, and used the request
  const batch = await r.db
    .selectFrom('claim_batches')
    .select(['total_base', 'payout_count', 'claim_deadline', 'created_at'])
    .executeTakeFirstOrThrow();
  assert.equal(batch.total_base, (3n * ORB).toString());
  assert.equal(batch.payout_count, 2);
  assert.equal(batch.claim_deadline.getTime() - batch.created_at.getTime(), 30 * 86_400_000);
  assert.deepEqual(await controlPlaneAudit(), ['request.created', 'request.approved', 'request.executed', 'request.consumed']);
  assert.equal(await ben.page.locator('li[data-request]').count(), 0, 'the used request is no longer listed');
});

test('the filer cancels a pending batch request from its confirm page; the other admin cannot', { skip }, async () => {
  const ana = browsers.ana!;
  const ben = browsers.ben!;
  const st = await settlement(r.db, 1);
  await payout(r.db, st, recipientId, 'h_carol', 5n * ORB);
  await confirmPage(ana, '');
  await ana.page.getByLabel('Why this batch (kept with the request)').fill('December claims');
  await ana.page.getByRole('button', { name: 'Ask another rewards admin to approve this batch' }).click();
  const id = await ana.page.locator('li[data-request]').getAttribute('data-request');
  assert.ok(id);

  // ben has no link; sent anyway, the service refuses him with a sentence
  await ben.page.goto(`${r.t.baseUrl}/console/rewards/requests/${id}/cancel?lang=en`);
  await passes(ben, 'console-batch-cancel-phone');
  await ben.page.getByRole('button', { name: 'Cancel the request' }).click();
  assert.equal(await flash(ben), 'Only the person who filed the request may cancel it (a governance request: a content admin too).');

  await ana.page.goto(`${r.t.baseUrl}/console/rewards/claims?lang=en`);
  await ana.page.locator(`li[data-request="${id}"]`).getByRole('link', { name: 'Cancel this request' }).click();
  await passes(ana, 'console-batch-cancel');
  const page = await ana.page.locator('main').innerText();
  assert.match(page, /Finalize a batch of 5 orbs, claimable for 90 days/);
  assert.match(page, /nobody can approve or use it afterwards, nothing is paid/);
  await ana.page.getByLabel('Why you cancel it (optional, kept in the audit chain)').fill('wrong window');
  await ana.page.getByRole('button', { name: 'Cancel the request' }).click();
  assert.equal(await flash(ana), 'Your request is cancelled: nothing was paid.');
  assert.equal(new URL(ana.page.url()).pathname, '/console/rewards/claims');
  await passes(ana, 'console-batch-cancelled');
  assert.equal(await ana.page.locator('li[data-request]').count(), 0, 'a cancelled request is no longer listed');

  const row = await r.db
    .selectFrom('control_plane_requests')
    .select(['status', 'cancel_reason'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
  assert.deepEqual(row, { status: 'CANCELLED', cancel_reason: 'wrong window' });
  assert.equal((await controlPlaneAudit()).at(-1), 'request.cancelled');
  // ben's home no longer counts it
  await ben.page.goto(`${r.t.baseUrl}/console?lang=en`);
  assert.match(await ben.page.locator('li[data-kind="finalizeApprovals"]').innerText(), /nothing waiting/i);
});
