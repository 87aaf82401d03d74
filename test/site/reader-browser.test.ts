import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { after, before, test } from 'node:test';
import { createDemoTestApp, type TestApp } from '../helpers/app.js';
import { checkPage, needsChromium, openBrowser, type Browser } from './browser.js';

/**
 * People taking part from a real browser (Debian's Chromium through playwright-core): the development login,
 * every reader action as the forms the pages show, "My newsroom", the export download, history, language,
 * logout; a second person in another browser who never sees the first one's data with the read cache on; a
 * forged post from another site; the session cookie's flags. Every page, logged in and out, passes checkPage
 * (axe-core, no untranslated label, nothing wider than the phone's screen, no error answer).
 */
const skip = needsChromium();
let t: TestApp;
let base: string;
let alice: Browser;
let bob: Browser;
let storyId: string;

before(async () => {
  if (skip) return;
  t = await createDemoTestApp({ RATE_LIMIT_PUBLIC_READS_PER_MINUTE: '100000', HUMAN_PROOF_VERIFIER: 'dev', READ_CACHE_TTL_MS: '60000' });
  // a published story whose reward window is open: every form shows on it
  const row = await t.app.ctx.database.db
    .selectFrom('stories')
    .select('id')
    .where('publication_stage', '!=', 'CANDIDATE')
    .where('moderation_status', 'not in', ['QUARANTINED', 'BLOCKED'])
    .where('reward_window_ends_at', '>', new Date())
    .orderBy('id')
    .executeTakeFirstOrThrow();
  storyId = row.id;
  base = await t.listen();
  alice = await openBrowser();
  bob = await openBrowser();
});

after(async () => {
  if (skip) return;
  await alice.close();
  await bob.close();
  await t.close();
});

const passes = async (who: Browser, name: string) => assert.deepEqual(await checkPage(who, name), [], `page ${name}`);
const flash = (who: Browser) => who.page.locator('.flash').innerText();

async function devLogin(who: Browser, name: string, from: string) {
  await who.page.goto(`${base}${from}`);
  // an earlier test may have left this browser logged in: start from a logged-out browser
  if ((await who.page.getByRole('link', { name: 'Log in', exact: true }).count()) === 0) {
    await who.context.clearCookies();
    await who.page.goto(`${base}${from}`);
  }
  await who.page.getByRole('link', { name: 'Log in', exact: true }).click();
  await passes(who, `login-${name}`);
  await who.page.getByLabel('Your test name').fill(name);
  await who.page.getByRole('button', { name: 'Log in (development)' }).click();
  // in the language the person chose before, if they did
  assert.equal(await who.page.locator('.flash.done').count(), 1, 'logged in');
  // a first login lands on the name page, which goes on to the page the person came from once they chose
  if (new URL(who.page.url()).pathname === '/me/name') {
    await passes(who, `name-${name}`);
    await who.page.locator('#display-name').fill(name.charAt(0).toUpperCase() + name.slice(1));
    await who.page.locator('form[action="/me/name"] button[type="submit"]').click();
    assert.equal(await who.page.locator('.flash.done').count(), 1, 'named');
    assert.equal(new URL(who.page.url()).pathname, new URL(`${base}${from}`).pathname, 'on to the page the person came from');
  }
}

test(
  'a person logs in, takes part in a story, finds it in My newsroom, exports, clears history, changes language and logs out',
  { skip },
  async () => {
    const { page } = alice;
    const story = `/stories/${storyId}?lang=en`;
    await page.goto(`${base}${story}`);
    await passes(alice, 'story-logged-out');
    await devLogin(alice, 'alice', story);
    assert.equal(new URL(page.url()).pathname, `/stories/${storyId}`, 'back on the story after logging in');
    await passes(alice, 'story-logged-in');

    const cookie = (await alice.context.cookies()).find((c) => c.name === 'newsroom_session');
    assert.ok(cookie);
    assert.equal(cookie.httpOnly, true);
    assert.equal(cookie.sameSite, 'Lax');
    assert.equal(cookie.secure, false, 'plain http here; Secure when served over https');
    assert.ok(cookie.expires > Date.now() / 1000 + 3600, 'the cookie lasts as long as the login');

    await page.getByLabel('Your comment').fill('Checked against the council minutes.');
    await page.getByRole('button', { name: 'Post the comment' }).click();
    assert.equal(await flash(alice), 'Your comment is posted.');
    // the comment's text (its author's edit form holds it too, folded)
    assert.ok(await page.locator('p.comment-body', { hasText: 'Checked against the council minutes.' }).isVisible());

    await page.getByLabel('Prove that I am a unique person, so that my vote counts in full').first().check();
    await page.getByRole('button', { name: 'Reward', exact: true }).click();
    assert.equal(await flash(alice), 'Your vote is recorded with weight 3.');

    await page.getByLabel('Severity').selectOption('MEDIUM');
    await page.getByLabel('What is wrong').fill('The turnout figure differs from the source.');
    await page.getByRole('button', { name: 'Send the flag' }).click();
    assert.equal(await flash(alice), 'Your flag is recorded.');

    await page.getByRole('button', { name: 'Bookmark this story' }).click();
    assert.equal(await flash(alice), 'The story is bookmarked.');
    const follow = page.getByRole('button', { name: /^Follow the room / });
    const room = (await follow.innerText()).replace('Follow the room ', '');
    await follow.click();
    assert.equal(await flash(alice), `You follow ${room}.`);
    await passes(alice, 'story-after-actions');

    await page.getByRole('link', { name: 'My newsroom' }).click();
    await passes(alice, 'my-newsroom');
    const bookmarks = page.locator('section[aria-labelledby="bookmarks"]');
    assert.equal(await bookmarks.locator(`a[href^="/stories/${storyId}"]`).count(), 1, 'the bookmark is in My newsroom');
    assert.ok(await page.locator('section[aria-labelledby="topics"]').getByText(room, { exact: true }).isVisible());
    const followed = page.locator('#for-you-list h3 a').first();
    assert.ok(await followed.isVisible(), 'My newsroom lists stories');

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Download my data' }).click()]);
    assert.match(download.suggestedFilename(), /^newsroom-export-\d{4}-\d{2}-\d{2}\.json$/);
    const exported = JSON.parse(await streamText(await download.createReadStream())) as { actorId: string };
    assert.match(exported.actorId, /^acct_[0-9a-f]{30}$/);

    // clearing asks first, on a page of its own
    await page.getByRole('link', { name: 'Clear the history…' }).click();
    await passes(alice, 'history-clear-confirm');
    await page.getByRole('button', { name: 'Yes, clear my reading history' }).click();
    assert.equal(await flash(alice), 'Your reading history is cleared.');
    await page.getByLabel('Language of the site').selectOption('de');
    await page.getByRole('button', { name: 'Save the preferences' }).click();
    assert.equal(await flash(alice), 'Ihre Einstellungen sind gespeichert.');
    assert.equal(await page.locator('html').getAttribute('lang'), 'de');
    await passes(alice, 'my-newsroom-de');

    await page.getByRole('button', { name: 'Abmelden' }).click();
    assert.equal(
      (await alice.context.cookies()).some((c) => c.name === 'newsroom_session'),
      false,
      'the session cookie is gone',
    );
    await page.goto(`${base}/me?lang=en`);
    assert.equal(new URL(page.url()).pathname, '/login', 'logged out: My newsroom asks to log in');
    await passes(alice, 'login-after-logout');
  },
);

test("a second person in another browser never sees the first one's data, with the read cache on", { skip }, async () => {
  const story = `/stories/${storyId}?lang=en`;
  // carol: alice chose German in the first test, and a login comes back in the person's language
  await devLogin(alice, 'carol', story);
  await alice.page.getByRole('button', { name: 'Bookmark this story' }).click();
  const aliceAccount = await accountOf(alice);

  // the anonymous page, served twice, comes from the shared cache the second time
  const first = await fetch(`${base}${story}`);
  await first.text();
  const cached = await fetch(`${base}${story}`);
  assert.equal(cached.headers.get('x-read-cache'), 'hit');
  const body = await cached.text();
  assert.ok(!body.includes('name="_csrf"'), 'no form token on the cached page');

  await bob.page.goto(`${base}${story}`);
  assert.ok(await bob.page.getByText('Log in to comment, vote, flag or bookmark this story.').isVisible());
  await devLogin(bob, 'bob', story);
  await bob.page.goto(`${base}/me?lang=en`);
  await passes(bob, 'my-newsroom-bob');
  const bobAccount = await accountOf(bob);
  assert.notEqual(bobAccount, aliceAccount);
  assert.equal(await bob.page.locator('section[aria-labelledby="bookmarks"] a').count(), 0, "bob sees none of carol's bookmarks");
  const html = await bob.page.content();
  assert.ok(!html.includes(aliceAccount));
});

test('a form posted from another site is refused', { skip }, async () => {
  await devLogin(alice, 'alice', `/stories/${storyId}?lang=en`);
  // a page on another origin that posts a comment form to the newsroom with the reader's cookie
  const evil: Server = createServer((_req, res) => {
    res.setHeader('content-type', 'text/html');
    res.end(
      `<!doctype html><html lang="en"><title>evil</title><form method="post" action="${base}/stories/${storyId}/comment">` +
        '<input name="_csrf" value="guess"><input name="lang" value="en"><input name="body" value="forged by another site">' +
        '<button>go</button></form></html>',
    );
  });
  await new Promise<void>((resolve) => evil.listen(0, '127.0.0.1', resolve));
  try {
    const address = evil.address() as { port: number };
    await alice.page.goto(`http://127.0.0.1:${address.port}/`);
    const [response] = await Promise.all([alice.page.waitForResponse((r) => r.url().includes('/comment')), alice.page.click('button')]);
    assert.equal(response.status(), 403);
    alice.problems.splice(0);
    const comments = await (await fetch(`${base}/v1/stories/${storyId}/comments`)).text();
    assert.ok(!comments.includes('forged by another site'));
  } finally {
    evil.close();
  }
});

async function accountOf(who: Browser): Promise<string> {
  await who.page.goto(`${base}/me?lang=en`);
  // the account id is folded in a details element (people see names, not ids)
  const text = (await who.page.locator('main details code').first().textContent()) ?? '';
  const account = /acct_[0-9a-f]{30}/.exec(text)?.[0];
  assert.ok(account, text);
  return account;
}

async function streamText(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks).toString('utf8');
}
