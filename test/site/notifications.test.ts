import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { governanceApp, type GovernanceApp } from '../governance/support.js';
import { newsroomClient } from '../helpers/newsroom.js';
import type { Json } from '../helpers/json.js';
import { flashOf, siteBrowser } from '../helpers/site-browser.js';

/**
 * A reader's notifications: a reply to their comment, and the correction and retraction of stories they saved,
 * commented on or flagged; the masthead counts what is new until they look; their private Atom feed says the same
 * and stops working at its old address once they make a new one.
 */
let g: GovernanceApp;
const stories = { commented: '', saved: '', flagged: '', other: '' };

before(async () => {
  g = await governanceApp({ HUMAN_PROOF_VERIFIER: 'dev', RATE_LIMIT_UNVERIFIED_WRITES_PER_MINUTE: '100000' });
  const news = newsroomClient(g.t.baseUrl);
  stories.commented = (await news.publishedStory({ title: 'Library extends its opening hours' })).storyId;
  stories.saved = (await news.publishedStory({ title: 'Tram line reaches the hospital' })).storyId;
  stories.flagged = (await news.publishedStory({ title: 'Council buys electric buses' })).storyId;
  stories.other = (await news.publishedStory({ title: 'Museum opens a new wing' })).storyId;
});

after(() => g.t.close());

test('replies, corrections and retractions reach the reader, counted in the masthead until seen, and in their Atom feed', async () => {
  const alice = siteBrowser(g.t.app, '203.0.113.41');
  await alice.devLogin('alice');
  await alice.chooseName('Alice Reader');
  const page = (id: string) => `/stories/${id}?lang=en`;
  await alice.submit(page(stories.commented), `/stories/${stories.commented}/comment`, { body: 'Sundays too, says the library.' });
  assert.equal(
    flashOf((await alice.submit(page(stories.saved), `/stories/${stories.saved}/bookmark`, {})).page.body),
    'The story is bookmarked.',
  );
  await alice.submit(page(stories.flagged), `/stories/${stories.flagged}/flag`, {
    severity: 'LOW',
    claimId: '',
    reason: 'Only two buses.',
  });

  const empty = await alice.get('/me/notifications?lang=en');
  assert.equal(empty.statusCode, 200);
  assert.equal(empty.headers['cache-control'], 'private, no-store');
  assert.match(empty.body, /Nothing in the last 30 days\./);
  assert.match((await alice.get('/?lang=en')).body, />Notifications<\/a>/, 'no count when nothing is new');

  // another reader replies to alice's comment; an admin corrects the saved story and retracts the flagged one
  const listed = await g.client.get<Json>(`/v1/stories/${stories.commented}/comments`);
  const hers = (listed.body.items as { id: string }[])[0]!.id;
  const reply = await g.post<Json>('reader', `/v1/stories/${stories.commented}/comments`, { body: 'And on holidays?', parentId: hers });
  assert.equal(reply.status, 202, JSON.stringify(reply.body));
  await g.post<Json>('reader', `/v1/stories/${stories.other}/comments`, { body: 'Not a reply to anyone.' });
  const corrected = await g.post<Json>('admin', `/v1/admin/stories/${stories.saved}/correction`, {
    changes: { summary: 'The tram reaches the hospital in May.' },
    note: 'The line opens in May, not April.',
  });
  assert.equal(corrected.status, 202, JSON.stringify(corrected.body));
  const retracted = await g.post<Json>('admin', `/v1/admin/stories/${stories.flagged}/retraction`, { reason: 'The council bought none.' });
  assert.equal(retracted.status, 202, JSON.stringify(retracted.body));

  assert.match((await alice.get('/?lang=en')).body, /class="waiting">Notifications \(3\)<\/a>/);
  const seen = await alice.get('/me/notifications?lang=en');
  const items = [...seen.body.matchAll(/<li class="unread">([\s\S]*?)<\/li>/g)].map((m) =>
    m[1]!.replace(/<[^>]+>/g, '').replace(/\s+/g, ' '),
  );
  assert.equal(items.length, 3, items.join('\n'));
  assert.match(items[0]!, /New “Council buys electric buses[^”]*”, which you flagged, was retracted ?Why: The council bought none\./);
  assert.match(
    items[1]!,
    /New “Tram line reaches the hospital[^”]*”, which you saved, was corrected ?Why: The line opens in May, not April\./,
  );
  assert.match(items[2]!, /New Someone replied to your comment on “Library extends its opening hours[^”]*”/);
  assert.match(seen.body, new RegExp(`href="/stories/${stories.commented}\\?lang=en#comment-${reply.body.id as string}"`));
  // looked at: the masthead counts nothing new, the page no longer marks them
  assert.match((await alice.get('/?lang=en')).body, />Notifications<\/a>/);
  assert.doesNotMatch((await alice.get('/me/notifications?lang=en')).body, /class="unread"/);
  assert.match((await alice.get('/me/notifications?lang=de')).body, /die du gespeichert hast, wurde korrigiert/);

  // the private feed: the same three, at an address that is the secret
  const address = /value="https?:\/\/[^/"]+(\/notifications\/[A-Za-z0-9_-]{32}\.atom)\?lang=en"/.exec(seen.body)?.[1];
  assert.ok(address, 'the page shows the feed address');
  const feed = await g.t.app.inject(`${address}?lang=en`);
  assert.equal(feed.statusCode, 200);
  assert.match(String(feed.headers['content-type']), /^application\/atom\+xml/);
  assert.equal((feed.body.match(/<entry>/g) ?? []).length, 3);
  assert.match(feed.body, /<summary type="text">The line opens in May, not April\.<\/summary>/);
  const bob = siteBrowser(g.t.app, '203.0.113.42');
  await bob.devLogin('bob');
  await bob.chooseName('Bob Reader');
  assert.doesNotMatch((await bob.get('/me/notifications?lang=en')).body, /Tram line|Council buys|replied/, 'bob sees none of it');

  // a new address: the old one is gone
  assert.equal(
    flashOf((await alice.submit('/me/notifications?lang=en', '/me/notifications/feed', {})).page.body),
    'Your feed has a new address; the old one no longer works.',
  );
  const gone = await g.t.app.inject(`${address}?lang=en`);
  assert.equal(gone.statusCode, 404);
  assert.match(String(gone.headers['content-type']), /^text\/html/);
  assert.match(gone.body, /<h1>Not found<\/h1>/);
  for (const name of ['not-a-token.atom', '%0D%0AX-Injected%3A%201.atom', `${'a'.repeat(32)}.xml`])
    assert.equal((await g.t.app.inject(`/notifications/${name}?lang=en`)).statusCode, 404, name);
  assert.equal((await g.t.app.inject('/me/notifications?lang=en')).statusCode, 303, 'logged out: the login page');
});

test('the masthead counts only what came after the reader last looked, capped as the list is at 50 of a kind', async () => {
  const carol = siteBrowser(g.t.app, '203.0.113.43');
  await carol.devLogin('carol');
  await carol.chooseName('Carol Reader');
  await carol.submit(`/stories/${stories.other}?lang=en`, `/stories/${stories.other}/comment`, { body: 'The wing opens on Friday.' });
  const listed = await g.client.get<Json>(`/v1/stories/${stories.other}/comments?limit=50`);
  const hers = (listed.body.items as { id: string; body: string }[]).find((c) => c.body === 'The wing opens on Friday.')!.id;
  const replyToHer = async (body: string) => {
    const r = await g.post<Json>('reader', `/v1/stories/${stories.other}/comments`, { body, parentId: hers });
    assert.equal(r.status, 202, JSON.stringify(r.body));
  };
  await replyToHer('Which Friday?');
  assert.match((await carol.get('/?lang=en')).body, /class="waiting">Notifications \(1\)<\/a>/);
  await carol.get('/me/notifications?lang=en');
  assert.match((await carol.get('/?lang=en')).body, />Notifications<\/a>/, 'looked at: nothing new');
  // her own reply to herself is no notification
  await carol.submit(`/stories/${stories.other}?lang=en`, `/stories/${stories.other}/comment`, { body: 'This one.', parentId: hers });
  await replyToHer('Thanks.');
  assert.match((await carol.get('/?lang=en')).body, /class="waiting">Notifications \(1\)<\/a>/, 'only what came after she looked');
  for (let i = 0; i < 50; i += 1) await replyToHer(`Reply number ${i}.`);
  assert.match((await carol.get('/?lang=en')).body, /class="waiting">Notifications \(50\)<\/a>/, '51 new, the list shows 50');
  const page = (await carol.get('/me/notifications?lang=en')).body;
  assert.equal([...page.matchAll(/<li class="unread">/g)].length, 50);
});
