import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { appendAudit } from '../../src/platform/audit/audit-log.js';
import { createTransactor, withTransaction } from '../../src/platform/db/transaction.js';
import { summarize } from '../../src/web/console/views/audit.js';
import { devLinkedHumanId } from '../../src/web/site/dev-proof.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { siteBrowser } from '../helpers/site-browser.js';

/** The console's audit log through inject: rows newest first, the GET filters, pages, links to the row before. */
describe('console: the audit log', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp({ HUMAN_PROOF_VERIFIER: 'dev', CONTENT_ADMIN_IDS: devLinkedHumanId('ana') });
    const transactor = createTransactor(t.db.database.db, []);
    for (let i = 1; i <= 60; i++) {
      await withTransaction(transactor, (tx) =>
        appendAudit(tx, {
          scope: 'GOVERNANCE',
          action: i % 10 === 0 ? 'proposal.activated' : 'proposal.created',
          actor: { actorId: 'acct_x', linkedHumanId: i % 2 ? 'h_odd' : undefined },
          target: `gp_${i}`,
          details: { i, title: `Proposal ${i}` },
          at: new Date(Date.UTC(2026, 4, 1 + Math.floor(i / 10), 12)),
        }),
      );
    }
  });
  after(async () => t.close());

  const admin = async () => {
    const browser = siteBrowser(t.app);
    await browser.devLogin('ana');
    return browser;
  };
  const rowSeqs = (body: string) => [...body.matchAll(/<tr id="audit-(\d+)"/g)].map((m) => Number(m[1]));

  test('lists 50 rows newest first, each linking to the row before: on the page, or on the page that starts at it', async () => {
    const browser = await admin();
    const page = await browser.get('/console/audit?lang=en');
    assert.equal(page.statusCode, 200);
    const seqs = rowSeqs(page.body);
    assert.deepEqual(
      seqs,
      Array.from({ length: 50 }, (_, i) => 60 - i),
    );
    assert.match(page.body, /<a href="#audit-59" class="previous">/);
    const last = /<tr id="audit-11"[\s\S]*?<a href="([^"]+)" class="previous">/.exec(page.body)?.[1]?.replace(/&amp;/g, '&');
    assert.ok(last?.endsWith('#audit-10'), last);
    const older = await browser.get(last!.replace(/#.*/, ''));
    assert.deepEqual(rowSeqs(older.body).slice(0, 2), [10, 9], 'the page that starts at the previous row');
    assert.match(older.body, /<tr id="audit-1"[\s\S]*first row/);
    assert.match(page.body, /title="acct_x · h_odd">h_odd<\/code>/, 'the actor as the allowlists key it, the raw ids in the title');
  });

  test('the GET form filters by action, actor and days, in the address', async () => {
    const browser = await admin();
    const activated = await browser.get('/console/audit?lang=en&action=proposal.activated&actor=&from=&to=');
    assert.deepEqual(rowSeqs(activated.body), [60, 50, 40, 30, 20, 10]);
    assert.match(activated.body, /<input id="audit-action" name="action" maxLength="100" value="proposal.activated"/i);
    const odd = await browser.get('/console/audit?lang=en&actor=h_odd&from=2026-05-02&to=2026-05-02');
    assert.deepEqual(rowSeqs(odd.body), [19, 17, 15, 13, 11]);
  });

  test('a date that is not one is said on the page, with the form as it was', async () => {
    const browser = await admin();
    const page = await browser.get('/console/audit?lang=en&from=2026-02-30');
    assert.equal(page.statusCode, 400);
    assert.match(page.body, /“2026-02-30” is not a date: write it as YYYY-MM-DD\./);
    assert.deepEqual(rowSeqs(page.body), []);
    const backwards = await browser.get('/console/audit?lang=en&from=2026-05-05&to=2026-05-01');
    assert.equal(backwards.statusCode, 400);
    assert.match(backwards.body, /The end of the range is before its start/);
  });

  test('a row’s details read in one short line', () => {
    assert.equal(
      summarize({ holdId: 'lh_1', reason: 'court order', changes: { a: 1 }, list: [1, 2] }),
      'holdId: lh_1, reason: court order, changes: {…}, list: [2]',
    );
    assert.equal(summarize({ note: 'x'.repeat(300) }).length, 120);
  });
});
