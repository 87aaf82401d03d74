import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { readDeliveryLog } from '../../src/delivery/webhooks/delivery-log.js';
import { devLinkedHumanId } from '../../src/web/site/dev-proof.js';
import { createDemoTestApp, type TestApp } from '../helpers/app.js';
import { createTestCertificate, startReceiver, type Receiver, type TestCertificate } from '../helpers/https-receiver.js';
import { newsroomClient } from '../helpers/newsroom.js';
import { deliverOnce } from '../webhooks/support.js';
import { flashOf, siteBrowser } from '../helpers/site-browser.js';

/**
 * The console's moderation area through inject: the quarantine queue and its decisions, legal holds (and a
 * reader's comment refused under one), source statuses, a correction previewed as a diff then sent (a new
 * version), a retraction with its confirm step, and the webhook delivery log of the correction.
 */

const ana = { name: 'ana', key: devLinkedHumanId('ana') };
const rex = { name: 'rex', key: devLinkedHumanId('rex') };
const SECRET = 'whsec-console-0123456789';

const storyIds = (body: string) => [...new Set([...body.matchAll(/href="\/stories\/(st_[A-Za-z0-9_-]+)\?/g)].map((m) => m[1]!))];
const unescape = (html: string) =>
  html
    .replace(/&quot;/g, '"')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
/** The value of a field of the page's form (input value or textarea text). */
function fieldOf(body: string, name: string): string {
  const input = new RegExp(`<input[^>]*name="${name}"[^>]*value="([^"]*)"`).exec(body);
  if (input) return unescape(input[1]!);
  const area = new RegExp(`<textarea[^>]*name="${name}"[^>]*>([\\s\\S]*?)</textarea>`).exec(body);
  assert.ok(area, `the page has the field ${name}`);
  return unescape(area[1]!);
}

/** The claim rows of the correction form, as a browser sends them (hidden id, then text, row by row). */
function claimRowsOf(body: string): [string, string][] {
  const rows = [
    ...body.matchAll(
      /<input type="hidden" name="claimId" value(?:="([^"]*)")?\/?>[\s\S]*?<textarea[^>]*name="claimText"[^>]*>([\s\S]*?)<\/textarea>/g,
    ),
  ];
  assert.ok(rows.length >= 2, 'the form has a row per claim and empty rows for new ones');
  return rows.flatMap((m) => [
    ['claimId', unescape(m[1] ?? '')],
    ['claimText', unescape(m[2]!)],
  ]);
}

describe('the console: moderation', () => {
  let cert: TestCertificate;
  let receiver: Receiver;
  let t: TestApp;
  let news: ReturnType<typeof newsroomClient>;
  let stories: string[];

  before(async () => {
    cert = createTestCertificate();
    receiver = await startReceiver(cert, SECRET);
    t = await createDemoTestApp({
      HUMAN_PROOF_VERIFIER: 'dev',
      CONTENT_ADMIN_IDS: ana.key,
      REWARDS_ADMIN_IDS: rex.key,
      WEBHOOK_ENDPOINTS: receiver.url,
      WEBHOOK_SIGNING_SECRET: SECRET,
      WEBHOOK_WORKER: 'off',
      RATE_LIMIT_PUBLIC_READS_PER_MINUTE: '100000',
      RATE_LIMIT_UNVERIFIED_WRITES_PER_MINUTE: '100000',
    });
    news = newsroomClient(await t.listen());
    stories = storyIds((await t.app.inject('/?lang=en&mode=recent')).body);
    assert.ok(stories.length >= 3, 'the demo has published stories');
  });
  after(async () => {
    await t.close();
    await receiver.close();
    cert.cleanup();
  });

  async function admin() {
    const browser = siteBrowser(t.app);
    await browser.devLogin(ana.name);
    return browser;
  }

  async function quarantined(body: string) {
    const candidate = await news.submit(await news.joinBot(), { body });
    const scan = await news.publish(candidate.hash);
    return { storyId: candidate.storyId, decision: scan.body.decision };
  }

  test('a rewards admin who is not a content admin gets the 403 page on every moderation page', async () => {
    const browser = siteBrowser(t.app);
    await browser.devLogin(rex.name);
    for (const url of [
      '/console/moderation',
      '/console/moderation/legal-holds',
      '/console/moderation/webhooks',
      `/console/moderation/stories/${stories[0]}`,
    ]) {
      const page = await browser.get(`${url}?lang=en`);
      assert.equal(page.statusCode, 403, url);
      assert.match(page.body, new RegExp(rex.key));
      assert.equal(page.headers['cache-control'], 'no-store');
    }
  });

  test('the quarantine queue shows the scan trace; a release takes the item off the queue; decided and hard-block items are refused with a sentence', async () => {
    const held = await quarantined('Sea salt cures cancer, a miracle cure, locals say.');
    assert.equal(held.decision, 'QUARANTINE');
    const hard = await quarantined('Reporters found she lives at 42 Elm Street and her phone is 555-123-4567.');
    assert.equal(hard.decision, 'BLOCK');
    const browser = await admin();

    const queue = await browser.get('/console/moderation?lang=en');
    assert.equal(queue.statusCode, 200);
    assert.equal(queue.headers['cache-control'], 'no-store');
    assert.match(queue.body, new RegExp(held.storyId));
    assert.match(queue.body, /<code>UNVERIFIED_HEALTH_CLAIM<\/code>/, 'the trace names its category');
    assert.match(queue.body, /<details><summary>The trace as the API gives it \(JSON\)<\/summary>/);
    assert.match(queue.body, new RegExp(`action="/console/moderation/quarantine/story/${held.storyId}/resolve"`));
    // the text as the scan read it, what fired marked in place and named in words
    assert.match(
      queue.body,
      /<mark data-rule="health\.miracle-cure">cures cancer<\/mark><small class="rule-tag"> \[a miracle-cure health claim\]<\/small>/,
    );
    assert.match(queue.body, /<mark data-rule="health\.miracle-cure">miracle cure<\/mark>/);
    const item = await browser.get(`/console/moderation/quarantine/story/${held.storyId}?lang=fr`);
    assert.equal(item.statusCode, 200);
    assert.match(
      item.body,
      /<mark data-rule="health\.miracle-cure">cures cancer<\/mark><small class="rule-tag"> \[une allégation de remède miracle\]<\/small>/,
    );
    assert.equal((await browser.get('/console/moderation/quarantine/story/st_nothing_here?lang=en')).statusCode, 404);
    const hardCard = queue.body.split('<article').find((card) => card.includes(`<code>${hard.storyId}</code>`));
    assert.ok(hardCard, 'the hard-blocked story is in the queue');
    assert.match(hardCard, /The trace names a hard-block category/);
    assert.doesNotMatch(hardCard, /value="RELEASE"/, 'no release form for a hard-block item');
    assert.match(hardCard, /value="KEEP"/);
    assert.match(
      hardCard,
      /<mark data-rule="doxxing\.phone-number">555-123-4567<\/mark><small class="rule-tag"> \[a private phone number\]<\/small>/,
    );
    assert.match(hardCard, /<mark data-rule="doxxing\.street-address">42 Elm Street<\/mark>/);
    assert.doesNotMatch(hardCard, /value="BLOCK"/, 'blocking is asked on a page of its own');
    assert.match(hardCard, new RegExp(`<form method="get" action="/console/moderation/quarantine/story/${hard.storyId}/block"`));

    const released = await browser.submit('/console/moderation?lang=en', `/console/moderation/quarantine/story/${held.storyId}/resolve`, {
      decision: 'RELEASE',
      reason: 'satire column, labelled as such',
    });
    assert.equal(flashOf(released.page.body), `Story ${held.storyId} is released: it is published as provisional.`);
    assert.doesNotMatch(released.page.body, new RegExp(`/quarantine/story/${held.storyId}/resolve`), 'gone from the open queue');
    assert.doesNotMatch(released.page.body, new RegExp(`<code>${held.storyId}</code>`));
    const done = await browser.get('/console/moderation?lang=en&status=RELEASED');
    assert.match(done.body, new RegExp(held.storyId));
    assert.match(done.body, /Release by .+: satire column, labelled as such/);
    assert.equal((await t.app.inject(`/v1/stories/${held.storyId}`)).statusCode, 200, 'published');

    const again = await browser.submit('/console/moderation?lang=en', `/console/moderation/quarantine/story/${held.storyId}/resolve`, {
      decision: 'BLOCK',
      reason: 'second thoughts',
      confirm: '1',
    });
    assert.equal(flashOf(again.page.body), 'This item was already released or blocked: those decisions are final.');
    const forced = await browser.submit('/console/moderation?lang=en', `/console/moderation/quarantine/story/${hard.storyId}/resolve`, {
      decision: 'RELEASE',
      reason: 'let it out',
    });
    assert.match(flashOf(forced.page.body) ?? '', /names a hard-block category/);
  });

  test('"Block for good" is asked on a page of its own address that says it cannot be undone; only its form blocks', async () => {
    const hard = await quarantined('Protesters said she resides at 7 Birch Lane, and her phone is 555-987-6543.');
    assert.equal(hard.decision, 'BLOCK');
    const browser = await admin();
    const item = `/console/moderation/quarantine/story/${hard.storyId}`;
    // a BLOCK without the confirmation page's mark is not applied: the page that asks comes first
    const asked = await browser.submit(`${item}?lang=en`, `${item}/resolve`, { decision: 'BLOCK', reason: 'doxxing' });
    assert.equal(new URL(String(asked.posted.headers.location), 'http://x').pathname, `${item}/block`);
    assert.equal(asked.page.statusCode, 200);
    assert.match(asked.page.body, /This cannot be undone: a blocked item is final\./);
    assert.match(asked.page.body, /value="doxxing"/, 'the reason comes along');
    assert.match(asked.page.body, /name="confirm" value="1"/);
    assert.match((await browser.get(`/console/moderation?lang=en`)).body, new RegExp(`<code>${hard.storyId}</code>`), 'still in the queue');
    // the confirmation page reloads (a GET of its own), in every language
    const reloaded = await browser.get(`${item}/block?lang=de&reason=doxxing`);
    assert.equal(reloaded.statusCode, 200);
    assert.match(reloaded.body, /Das lässt sich nicht rückgängig machen/);
    const blocked = await browser.submit(`${item}/block?lang=en&reason=doxxing`, `${item}/resolve`, {
      decision: 'BLOCK',
      reason: 'doxxing',
      confirm: '1',
    });
    assert.equal(flashOf(blocked.page.body), `Story ${hard.storyId} is blocked for good.`);
  });

  test('a legal hold placed shows in the list and freezes the story (its retraction refused with a sentence; comments go on), then is released', async () => {
    const id = stories[1]!;
    const browser = await admin();
    const placed = await browser.submit('/console/moderation/legal-holds?lang=en', '/console/moderation/legal-holds', {
      storyId: id,
      reason: 'court order',
      caseReference: 'HC-2024-17',
    });
    const holdId = /Legal hold ([A-Za-z0-9_-]+) is placed on story/.exec(flashOf(placed.page.body) ?? '')?.[1];
    assert.ok(holdId, flashOf(placed.page.body) ?? placed.page.body.slice(0, 400));
    const list = await browser.get('/console/moderation/legal-holds?lang=en&status=ACTIVE');
    assert.match(list.body, new RegExp(`<code>${holdId}</code>`));
    assert.match(list.body, /court order \(HC-2024-17\)/);
    const twice = await browser.submit('/console/moderation/legal-holds?lang=en', '/console/moderation/legal-holds', {
      storyId: id,
      reason: 'again',
    });
    assert.equal(flashOf(twice.page.body), 'This story already has an active legal hold.');

    // a hold freezes the record (docs/moderation.md, "Legal holds"): no correction, retraction, revision or block;
    // readers' comments go on
    const frozen = await browser.submit(`/console/moderation/stories/${id}?lang=en`, `/console/moderation/stories/${id}/retraction`, {
      reason: 'under a hold',
    });
    assert.equal(flashOf(frozen.page.body), 'A legal hold is active on this story: release it first.');
    assert.notEqual((await t.app.inject(`/v1/stories/${id}`)).json().reviewStatus, 'RETRACTED');
    const reader = siteBrowser(t.app, '203.0.113.77');
    await reader.devLogin('bea');
    await reader.chooseName('Bea');
    const commented = await reader.submit(`/stories/${id}?lang=en`, `/stories/${id}/comment`, { body: 'Is this true?' });
    assert.equal(flashOf(commented.page.body), 'Your comment is posted.');

    // opening the story's forms under the hold says so at once, with what to do, and offers no form to fill
    const storyPage = await browser.get(`/console/moderation/stories/${id}?lang=en`);
    assert.match(storyPage.body, new RegExp(`Legal hold ${holdId} is active: court order`));
    assert.match(
      storyPage.body,
      /A legal hold is active on this story: it cannot be corrected or retracted while the hold lasts\. Release the hold below/,
    );
    assert.doesNotMatch(storyPage.body, /correction\/preview/, 'no correction form');
    assert.doesNotMatch(storyPage.body, /Continue to the retraction/, 'no retraction form');
    const retractionPage = await browser.get(`/console/moderation/stories/${id}/retraction?lang=en&reason=x`);
    assert.equal(retractionPage.statusCode, 409);
    assert.match(retractionPage.body, /A legal hold is active on this story/);
    assert.doesNotMatch(retractionPage.body, /Retract the story for good/);
    const es = await browser.get(`/console/moderation/stories/${id}?lang=es`);
    assert.match(es.body, /Hay una retención legal activa sobre esta noticia/);
    const released = await browser.submit(`/console/moderation/legal-holds?lang=en`, `/console/moderation/legal-holds/${holdId}/release`, {
      reason: 'order lifted',
    });
    assert.equal(flashOf(released.page.body), `Legal hold ${holdId} on story ${id} is released.`);
    const gone = await browser.submit(`/console/moderation/legal-holds?lang=en`, `/console/moderation/legal-holds/${holdId}/release`, {
      reason: 'x',
    });
    assert.equal(flashOf(gone.page.body), 'This legal hold was already released.');
    assert.match((await browser.get(`/console/moderation/legal-holds?lang=en&storyId=${id}`)).body, /order lifted/);
  });

  test('a story is found by words of its title, with links to correct or retract it (no id typed)', async () => {
    const browser = await admin();
    const story = (await t.app.inject(`/v1/stories/${stories[0]}`)).json() as { id: string; title: string };
    const words = story.title.split(/\s+/).slice(0, 3).join(' ');
    const queue = await browser.get('/console/moderation?lang=en');
    assert.match(queue.body, /<form method="get" action="\/console\/moderation\/stories" class="console-form" role="search">/);
    const found = await browser.get(`/console/moderation/stories?lang=en&q=${encodeURIComponent(words)}`);
    assert.equal(found.statusCode, 200);
    assert.match(found.body, new RegExp(`href="/console/moderation/stories/${story.id}\\?lang=en#correct"`));
    assert.match(found.body, new RegExp(`href="/console/moderation/stories/${story.id}/retraction\\?lang=en"`));
    const none = await browser.get('/console/moderation/stories?lang=en&q=zzzqqqnothing');
    assert.match(none.body, /No story matches “zzzqqqnothing”\./);
    assert.equal((await browser.get('/console/moderation/stories?lang=en&q=%00')).statusCode, 400);
  });

  test('a source status is set and the answer shown; a story’s sources show their host status; a bad host is refused', async () => {
    const browser = await admin();
    const sources = await browser.get(`/console/moderation/sources?lang=en&story=${stories[0]}`);
    assert.equal(sources.statusCode, 200);
    const url = /<th scope="row"><code>(https?:\/\/[^<]+)<\/code>/.exec(sources.body)?.[1];
    assert.ok(url, 'the story’s sources are listed');
    const host = new URL(unescape(url)).hostname.replace(/^www\./, '');
    const set = await browser.submit('/console/moderation/sources?lang=en', '/console/moderation/sources/status', {
      host: unescape(url),
      status: 'WATCH',
      reason: 'two errors this month',
    });
    assert.equal(flashOf(set.page.body), `Source ${host} is now WATCH.`);
    assert.match(set.page.body, /from Unrated to On watch/);
    assert.match(set.page.body, /Story citations of this host: [1-9]/);
    assert.doesNotMatch((await browser.get('/console/moderation/sources?lang=en')).body, /from Unrated/, 'the answer is shown once');
    const again = await browser.get(`/console/moderation/sources?lang=en&story=${stories[0]}`);
    assert.match(again.body, /On watch/);
    const bad = await browser.submit('/console/moderation/sources?lang=en', '/console/moderation/sources/status', {
      host: 'not a host',
      status: 'BANNED',
      reason: 'x',
    });
    assert.equal(flashOf(bad.page.body), 'That is not a host name or a URL.');
  });

  test('a correction is previewed as a diff at an address of its own, sent as a new version, and its webhook delivery shows in the delivery log', async () => {
    const id = stories[2]!;
    const browser = await admin();
    const page = await browser.get(`/console/moderation/stories/${id}?lang=en`);
    assert.equal(page.statusCode, 200, page.body.slice(0, 300));
    assert.doesNotMatch(page.body, /name="claims"/, 'the claims are fields, not JSON');
    const version = Number(JSON.parse((await t.app.inject(`/v1/stories/${id}`)).body).version);
    const claims = claimRowsOf(page.body);
    const fields: [string, string][] = [
      ['_csrf', browser.csrf()],
      ['lang', 'en'],
      ['title', fieldOf(page.body, 'title')],
      // a browser sends a textarea's line ends as CR LF: not a change
      ['body', fieldOf(page.body, 'body').replace(/\n/g, '\r\n')],
      ['sources', fieldOf(page.body, 'sources')],
      ...claims,
    ];
    const originalSummary = fieldOf(page.body, 'summary');
    const summary = `${originalSummary} Corrected: the figures were revised.`;

    const empty = await browser.post(`/console/moderation/stories/${id}/correction/preview`, [
      ...fields,
      ['summary', originalSummary],
      ['note', 'nothing'],
    ]);
    assert.equal(empty.statusCode, 400);
    assert.match(empty.body, /The correction changes nothing: change a field first\./);

    const previewed = await browser.post(`/console/moderation/stories/${id}/correction/preview`, [
      ...fields,
      ['summary', summary],
      ['note', 'The figures were revised.'],
    ]);
    assert.equal(previewed.statusCode, 303, previewed.body.slice(0, 500));
    const previewUrl = String(previewed.headers.location);
    assert.match(previewUrl, new RegExp(`^/console/moderation/stories/${id}/correction/preview\\?lang=en&draft=cd_`));
    const preview = await browser.get(previewUrl);
    assert.equal(preview.statusCode, 200, preview.body.slice(0, 500));
    assert.equal(preview.headers['cache-control'], 'no-store');
    assert.match(preview.body, /<ins>Corrected:/, 'the added words');
    assert.match(preview.body, /<h2 id="field-body">Body<\/h2><p>Unchanged\.<\/p>/);
    assert.match(preview.body, /action="\/console\/moderation\/stories\/[^"]+\/correction"/);
    // a reload shows the same preview (a page, never a 405), and so does its address in another language
    const reload = await browser.get(previewUrl);
    assert.equal(reload.statusCode, 200);
    assert.match(reload.body, /<ins>Corrected:/);
    assert.equal((await browser.get(previewUrl.replace('lang=en', 'lang=zh-Hans'))).statusCode, 200);
    // another session does not have the draft: the story page says so
    const other = siteBrowser(t.app, '203.0.113.90');
    await other.devLogin(ana.name);
    const elsewhere = await other.get(previewUrl);
    assert.equal(elsewhere.statusCode, 404);
    assert.match(elsewhere.body, /This correction draft is no longer kept/);
    // "change it again" opens the form with the draft
    const again = await browser.get(`/console/moderation/stories/${id}?lang=en&draft=${/draft=([A-Za-z0-9_-]+)/.exec(previewUrl)![1]}`);
    assert.equal(fieldOf(again.body, 'summary'), summary);

    // the claims are assembled from their rows: one changed, one removed, one added
    const edited = claims.map(
      ([name, value], i) => [name, name === 'claimText' && i === 1 ? `${value} (revised)` : value] as [string, string],
    );
    const emptyRow = edited.findIndex(([name, value], i) => name === 'claimText' && value === '' && i > 1);
    edited[emptyRow] = ['claimText', 'A new claim the story makes.'];
    const claimEdit = await browser.post(`/console/moderation/stories/${id}/correction/preview`, [
      ...fields.filter(([name]) => !name.startsWith('claim')),
      ...edited,
      ['claimRemove', '0'],
      ['summary', originalSummary],
      ['note', 'Claims fixed.'],
    ]);
    assert.equal(claimEdit.statusCode, 303, claimEdit.body.slice(0, 500));
    const claimPreview = await browser.get(String(claimEdit.headers.location));
    assert.match(claimPreview.body, /<ins>[^<]*A new claim the story makes\.[^<]*<\/ins>/);
    assert.match(claimPreview.body, /<del>[^<]+<\/del>/, 'the removed claim');

    const changedTitle = await browser.post(`/console/moderation/stories/${id}/correction/preview`, [
      ...fields.filter(([name]) => name !== 'title'),
      ['title', 'A different headline'],
      ['summary', originalSummary],
      ['note', 'Headline fixed.'],
    ]);
    const titlePreview = await browser.get(String(changedTitle.headers.location));
    assert.match(titlePreview.body, /<del>[^<]+<\/del>/, 'the removed words');
    assert.match(titlePreview.body, /<ins>A different headline<\/ins>/);

    await browser.get(previewUrl);
    const draft = /draft=([A-Za-z0-9_-]+)/.exec(previewUrl)![1]!;
    const sent = await browser.post(`/console/moderation/stories/${id}/correction`, { _csrf: browser.csrf(), lang: 'en', draft });
    assert.equal(sent.statusCode, 303, sent.body.slice(0, 500));
    const event = /[?&]event=([A-Za-z0-9_-]+)/.exec(String(sent.headers.location))?.[1];
    assert.ok(event, String(sent.headers.location));
    const after = await browser.get(String(sent.headers.location));
    assert.match(flashOf(after.body) ?? '', new RegExp(`made version ${version + 1}; its webhook event is ${event}\\.`));
    assert.match(after.body, new RegExp(`href="/console/moderation/webhooks\\?lang=en&amp;event=${event}"`));
    assert.match(after.body, /Correction making version \d+: The figures were revised\./);
    const story = JSON.parse((await t.app.inject(`/v1/stories/${id}`)).body);
    assert.equal(story.version, version + 1);
    assert.equal(story.summary, summary);
    // the draft is spent: its preview address now says so instead of sending twice
    const spent = await browser.get(previewUrl);
    assert.equal(spent.statusCode, 404);

    const pending = await browser.get(`/console/moderation/webhooks?lang=en&event=${event}`);
    assert.match(pending.body, /<code>story\.correction<\/code>/);
    assert.match(pending.body, /<dd class="delivery-pending">Not tried yet<\/dd>/);

    assert.equal(await deliverOnce(t, cert.cert), true);
    assert.equal(receiver.delivered().length, 1);
    const log = await browser.get(`/console/moderation/webhooks?lang=en&event=${event}`);
    assert.match(log.body, /<dd class="delivery-delivered">Sent<\/dd>/);
    assert.match(log.body, /<td class="num">200<\/td>/, 'the attempt with its HTTP status');
    assert.match(log.body, new RegExp(receiver.url.replace(/[.]/g, '\\.')));
    const sentOnly = await browser.get('/console/moderation/webhooks?lang=en&state=delivered');
    assert.match(sentOnly.body, new RegExp(event));
    const deadOnly = await browser.get('/console/moderation/webhooks?lang=en&state=dead');
    assert.doesNotMatch(deadOnly.body, new RegExp(event));
  });

  test('a retraction goes through its confirm page (an address of its own); a retracted story cannot be corrected', async () => {
    const id = stories[3] ?? stories[0]!;
    const browser = await admin();
    const storyPage = await browser.get(`/console/moderation/stories/${id}?lang=en`);
    assert.match(storyPage.body, new RegExp(`<form method="get" action="/console/moderation/stories/${id}/retraction"`));
    const confirmUrl = `/console/moderation/stories/${id}/retraction?lang=en&reason=${encodeURIComponent('The minutes were forged.')}`;
    const confirm = await browser.get(confirmUrl);
    assert.equal(confirm.statusCode, 200);
    assert.match(confirm.body, /Retract the story for good/);
    assert.match(confirm.body, /It cannot be undone: a retracted story can never be corrected or retracted again\./);
    assert.match(confirm.body, /value="The minutes were forged\."/);
    assert.equal((await browser.get(confirmUrl)).statusCode, 200, 'a reload is the same page');
    assert.equal(
      (await browser.get(`/console/moderation/stories/${id}/retraction?lang=en`)).statusCode,
      200,
      'the reason is asked there too',
    );
    assert.equal((await t.app.inject(`/v1/stories/${id}`)).json().reviewStatus !== 'RETRACTED', true, 'nothing sent yet');
    const retracted = await browser.submit(`/console/moderation/stories/${id}?lang=en`, `/console/moderation/stories/${id}/retraction`, {
      reason: 'The minutes were forged.',
    });
    assert.match(flashOf(retracted.page.body) ?? '', new RegExp(`Story ${id} is retracted; its webhook event is`));
    assert.match(retracted.page.body, /This story is retracted: it can no longer be corrected or retracted\./);
    assert.doesNotMatch(retracted.page.body, /correction\/preview/);
    assert.equal((await browser.get(confirmUrl)).statusCode, 409, 'its confirm page says it is retracted');
    assert.equal((await t.app.inject(`/v1/stories/${id}`)).json().reviewStatus, 'RETRACTED');
    const twice = await browser.submit(`/console/moderation/stories/${id}?lang=en`, `/console/moderation/stories/${id}/retraction`, {
      reason: 'again',
    });
    assert.equal(flashOf(twice.page.body), 'This story is retracted: it can no longer be corrected or retracted.');

    // the delivery log pages by the delivery's sequence, newest first: the retraction, then the older correction
    const first = await readDeliveryLog(t.db.database.db, { limit: 1 });
    assert.equal(first.deliveries[0]!.type, 'story.retraction');
    assert.equal(first.deliveries[0]!.state, 'pending');
    assert.ok(first.older);
    const second = await readDeliveryLog(t.db.database.db, { limit: 1, before: first.older });
    assert.equal(second.deliveries[0]!.type, 'story.correction');
    assert.equal(second.deliveries[0]!.state, 'delivered');
    assert.equal(second.older, null, 'the last page');
    assert.deepEqual(first.counts, { pending: 1, retrying: 0, delivered: 1, dead: 0 });
    const page = await browser.get(`/console/moderation/webhooks?lang=en&before=${first.older}`);
    assert.match(page.body, /<code>story\.correction<\/code>/);
    assert.doesNotMatch(page.body, /<code>story\.retraction<\/code>/);
    assert.match(page.body, /Newest deliveries/);
  });
});
