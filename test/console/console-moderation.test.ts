import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { seedDemoIfEmpty } from '../../src/demo/seed.js';
import { readDeliveryLog } from '../../src/delivery/webhooks/delivery-log.js';
import { devLinkedHumanId } from '../../src/web/site/dev-proof.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
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

describe('the console: moderation', () => {
  let cert: TestCertificate;
  let receiver: Receiver;
  let t: TestApp;
  let news: ReturnType<typeof newsroomClient>;
  let stories: string[];

  before(async () => {
    cert = createTestCertificate();
    receiver = await startReceiver(cert, SECRET);
    t = await createTestApp({
      HUMAN_PROOF_VERIFIER: 'dev',
      CONTENT_ADMIN_IDS: ana.key,
      REWARDS_ADMIN_IDS: rex.key,
      WEBHOOK_ENDPOINTS: receiver.url,
      WEBHOOK_SIGNING_SECRET: SECRET,
      WEBHOOK_WORKER: 'off',
      RATE_LIMIT_PUBLIC_READS_PER_MINUTE: '100000',
      RATE_LIMIT_UNVERIFIED_WRITES_PER_MINUTE: '100000',
    });
    await seedDemoIfEmpty(t.app.ctx);
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
    const hardCard = queue.body.split('<article').find((card) => card.includes(`<code>${hard.storyId}</code>`));
    assert.ok(hardCard, 'the hard-blocked story is in the queue');
    assert.match(hardCard, /The trace names a hard-block category/);
    assert.doesNotMatch(hardCard, /value="RELEASE"/, 'no release form for a hard-block item');
    assert.match(hardCard, /value="KEEP"/);

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
    });
    assert.equal(flashOf(again.page.body), 'This item was already released or blocked: those decisions are final.');
    const forced = await browser.submit('/console/moderation?lang=en', `/console/moderation/quarantine/story/${hard.storyId}/resolve`, {
      decision: 'RELEASE',
      reason: 'let it out',
    });
    assert.match(flashOf(forced.page.body) ?? '', /names a hard-block category/);
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

    const storyPage = await browser.get(`/console/moderation/stories/${id}?lang=en`);
    assert.match(storyPage.body, new RegExp(`Legal hold ${holdId} is active: court order`));
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

  test('a correction is previewed as a diff, sent as a new version, and its webhook delivery shows in the delivery log', async () => {
    const id = stories[2]!;
    const browser = await admin();
    const page = await browser.get(`/console/moderation/stories/${id}?lang=en`);
    assert.equal(page.statusCode, 200, page.body.slice(0, 300));
    const version = Number(JSON.parse((await t.app.inject(`/v1/stories/${id}`)).body).version);
    const fields = {
      title: fieldOf(page.body, 'title'),
      summary: fieldOf(page.body, 'summary'),
      // a browser sends a textarea's line ends as CR LF: not a change
      body: fieldOf(page.body, 'body').replace(/\n/g, '\r\n'),
      claims: fieldOf(page.body, 'claims'),
      sources: fieldOf(page.body, 'sources'),
    };
    const summary = `${fields.summary} Corrected: the figures were revised.`;

    const empty = await browser.post(`/console/moderation/stories/${id}/correction/preview`, {
      _csrf: browser.csrf(),
      lang: 'en',
      ...fields,
      note: 'nothing',
    });
    assert.equal(empty.statusCode, 400);
    assert.match(empty.body, /The correction changes nothing: change a field first\./);

    const preview = await browser.post(`/console/moderation/stories/${id}/correction/preview`, {
      _csrf: browser.csrf(),
      lang: 'en',
      ...fields,
      summary,
      note: 'The figures were revised.',
    });
    assert.equal(preview.statusCode, 200, preview.body.slice(0, 500));
    assert.equal(preview.headers['cache-control'], 'no-store');
    assert.match(preview.body, /<ins>Corrected:/, 'the added words');
    assert.match(preview.body, /<h2 id="field-body">Body<\/h2><p>Unchanged\.<\/p>/);
    assert.match(preview.body, /action="\/console\/moderation\/stories\/[^"]+\/correction"/);
    assert.equal(fieldOf(preview.body, 'summary'), summary, 'the send form carries the same fields');
    const changedTitle = await browser.post(`/console/moderation/stories/${id}/correction/preview`, {
      _csrf: browser.csrf(),
      lang: 'en',
      ...fields,
      title: 'A different headline',
      note: 'Headline fixed.',
    });
    assert.match(changedTitle.body, /<del>[^<]+<\/del>/, 'the removed words');
    assert.match(changedTitle.body, /<ins>A different headline<\/ins>/);

    const sent = await browser.post(`/console/moderation/stories/${id}/correction`, {
      _csrf: browser.csrf(),
      lang: 'en',
      ...fields,
      summary,
      note: 'The figures were revised.',
    });
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

  test('a retraction goes through its confirm step; a retracted story cannot be corrected', async () => {
    const id = stories[3] ?? stories[0]!;
    const browser = await admin();
    await browser.get(`/console/moderation/stories/${id}?lang=en`);
    const confirm = await browser.post(`/console/moderation/stories/${id}/retraction/confirm`, {
      _csrf: browser.csrf(),
      lang: 'en',
      reason: 'The minutes were forged.',
    });
    assert.equal(confirm.statusCode, 200);
    assert.match(confirm.body, /Retract the story for good/);
    assert.equal((await t.app.inject(`/v1/stories/${id}`)).json().reviewStatus !== 'RETRACTED', true, 'nothing sent yet');
    const retracted = await browser.submit(`/console/moderation/stories/${id}?lang=en`, `/console/moderation/stories/${id}/retraction`, {
      reason: 'The minutes were forged.',
    });
    assert.match(flashOf(retracted.page.body) ?? '', new RegExp(`Story ${id} is retracted; its webhook event is`));
    assert.match(retracted.page.body, /This story is retracted: it can no longer be corrected\./);
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
