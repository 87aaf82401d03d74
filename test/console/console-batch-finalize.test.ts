import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { devLinkedHumanId } from '../../src/web/site/dev-proof.js';
import { payout, settlement } from '../claims/support.js';
import { flashOf, siteBrowser } from '../helpers/site-browser.js';
import { rewardsApp, type RewardsApp } from '../settlements/support.js';

/**
 * A batch finalize in the console through inject, at or below the threshold (one rewards admin): the confirm step
 * cannot be skipped, a batch that changed since the confirm page is refused with a sentence, a claim window out of
 * range is said on the page, and the confirmed batch is finalized with exactly its window.
 */
const ana = devLinkedHumanId('ana');
const ORB = 10n ** 18n;

describe('console: batch finalize below the threshold', () => {
  let r: RewardsApp;
  let st: string;

  before(async () => {
    r = await rewardsApp({
      HUMAN_PROOF_VERIFIER: 'dev',
      REWARDS_ADMIN_IDS: ana,
      SETTLEMENT_SECOND_APPROVAL_ABOVE_ORBS: '100',
      CLAIMS_ENABLED: '1',
      CHAIN_RPC_URL: 'http://127.0.0.1:9',
      CLAIM_DISTRIBUTOR_ADDRESS: `0x${'22'.repeat(20)}`,
    });
    const at = new Date();
    await r.db
      .insertInto('reward_recipients')
      .values({
        id: 'rr_carol',
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
    st = await settlement(r.db, 3);
    await payout(r.db, st, 'rr_carol', 'h_carol', 2n * ORB);
  });
  after(() => r.t.close());

  test('the confirm step comes first, a changed batch is refused, the confirmed one is finalized', async () => {
    const admin = siteBrowser(r.t.app);
    await admin.devLogin('ana');
    await admin.get('/console/rewards/claims?lang=en');
    // a finalize without the confirm page's digest shows that page, and finalizes nothing
    const skipped = await admin.post('/console/rewards/claims/finalize', { _csrf: admin.csrf(), lang: 'en', claimWindowDays: '14' });
    assert.equal(skipped.statusCode, 303);
    assert.equal(skipped.headers.location, '/console/rewards/claims/finalize?lang=en&claimWindowDays=14');
    assert.equal(await r.db.selectFrom('claim_batches').select('id').executeTakeFirst(), undefined);

    const confirm = await admin.get('/console/rewards/claims/finalize?lang=en&claimWindowDays=14');
    assert.equal(confirm.statusCode, 200);
    assert.match(confirm.body, /Finalizing cannot be undone\./);
    const digest = /name="previewDigest" value="([0-9a-f]{64})"/.exec(confirm.body)?.[1];
    assert.ok(digest, 'the finalize form carries the digest of the batch shown');
    assert.match(confirm.body, /Finalize the batch of 2 orbs for good/);

    // another payable payout arrives: the confirmed batch is no longer the one a finalize would make
    await payout(r.db, st, 'rr_carol', 'h_carol', ORB);
    const stale = await admin.post('/console/rewards/claims/finalize', {
      _csrf: admin.csrf(),
      lang: 'en',
      claimWindowDays: '14',
      previewDigest: digest,
    });
    assert.equal(stale.headers.location, '/console/rewards/claims/finalize?lang=en&claimWindowDays=14');
    const again = await admin.get(String(stale.headers.location));
    assert.match(flashOf(again.body) ?? '', /^What would be batched has changed since you looked/);
    assert.match(again.body, /Finalize the batch of 3 orbs for good/);
    assert.equal(await r.db.selectFrom('claim_batches').select('id').executeTakeFirst(), undefined);

    const fresh = /name="previewDigest" value="([0-9a-f]{64})"/.exec(again.body)![1]!;
    const done = await admin.post('/console/rewards/claims/finalize', {
      _csrf: admin.csrf(),
      lang: 'en',
      claimWindowDays: '14',
      previewDigest: fresh,
    });
    assert.equal(done.headers.location, '/console/rewards/claims?lang=en');
    const claims = await admin.get(String(done.headers.location));
    assert.match(flashOf(claims.body) ?? '', /^cb_\S+ is finalized: 1 leaves, 3 orbs\.$/);
    const batch = await r.db.selectFrom('claim_batches').select(['claim_deadline', 'created_at', 'total_base']).executeTakeFirstOrThrow();
    assert.equal(batch.claim_deadline.getTime() - batch.created_at.getTime(), 14 * 86_400_000);
    assert.equal(batch.total_base, (3n * ORB).toString());

    // nothing left to batch: the confirm page says so and offers no button
    const empty = await admin.get('/console/rewards/claims/finalize?lang=en');
    assert.match(empty.body, /No payable payout waits for a batch: there is nothing to finalize\./);
    assert.doesNotMatch(empty.body, /name="previewDigest"/);
  });

  test('a claim window out of 1 to 365 days is said on the confirm page', async () => {
    const admin = siteBrowser(r.t.app);
    await admin.devLogin('ana');
    await admin.get('/console?lang=en'); // shows the login's own sentence
    const page = await admin.get('/console/rewards/claims/finalize?lang=en&claimWindowDays=400');
    assert.equal(page.statusCode, 200);
    assert.equal(flashOf(page.body), 'The claim window is a whole number of days from 1 to 365.');
    assert.doesNotMatch(page.body, /name="previewDigest"/);
  });
});
