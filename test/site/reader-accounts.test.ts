import assert from 'node:assert/strict';
import { test } from 'node:test';
import { roomName } from '../../src/web/site/format.js';
import { createDemoTestApp } from '../helpers/app.js';
import { flashOf, siteBrowser } from '../helpers/site-browser.js';

/**
 * The reader site as the newsroom's front end, through inject: logging in (the development login), every reader
 * action as a form, "My newsroom", sessions and the CSRF checks. Chromium plays the same flows in
 * test/site/reader-browser.test.ts.
 */

const storyIds = (body: string) => [...new Set([...body.matchAll(/href="\/stories\/(st_[A-Za-z0-9_-]+)\?/g)].map((m) => m[1]!))];

async function newsroom() {
  const t = await createDemoTestApp({ RATE_LIMIT_PUBLIC_READS_PER_MINUTE: '100000', HUMAN_PROOF_VERIFIER: 'dev' });
  const home = await t.app.inject('/?lang=en&mode=recent');
  return { t, ids: storyIds(home.body) };
}

test('the development login makes a session cookie (HttpOnly, SameSite=Lax, signed, ending with the login) and a new session id', async () => {
  const { t } = await newsroom();
  try {
    const alice = siteBrowser(t.app);
    const form = await alice.get('/login?lang=en');
    assert.equal(alice.jar.get('newsroom_session'), undefined, 'the login form opens no session');
    const csrf = (form.cookies as Array<{ name: string; httpOnly?: boolean; sameSite?: string; secure?: boolean; path?: string }>).find(
      (c) => c.name === 'newsroom_csrf',
    );
    assert.ok(csrf, "the login form sets the CSRF secret's cookie");
    assert.deepEqual([csrf.httpOnly, csrf.sameSite, csrf.secure, csrf.path], [true, 'Lax', undefined, '/']);
    // a live session id planted before the login (a fixation attempt: someone else's) is not the one the login keeps
    const mallory = siteBrowser(t.app);
    await mallory.devLogin('mallory');
    const before = mallory.jar.get('newsroom_session');
    assert.ok(before);
    alice.jar.set('newsroom_session', before);
    const login = await alice.devLogin('alice');
    // a first login: the name page, which goes on to the page the person came from
    assert.equal(login.headers.location, `/me/name?lang=en&next=${encodeURIComponent('/?lang=en')}`);
    const cookie = (
      login.cookies as Array<{ name: string; httpOnly?: boolean; sameSite?: string; secure?: boolean; expires?: Date; path?: string }>
    ).find((c) => c.name === 'newsroom_session');
    assert.ok(cookie);
    assert.equal(cookie.httpOnly, true);
    assert.equal(cookie.sameSite, 'Lax');
    assert.equal(cookie.secure, undefined, 'plain http: not Secure');
    assert.equal(cookie.path, '/');
    const ttl = t.config.worldIdSessionTtlSeconds * 1000;
    assert.ok(cookie.expires && Math.abs(cookie.expires.getTime() - (Date.now() + ttl)) < 60_000, 'the cookie ends with the login');
    assert.notEqual(alice.jar.get('newsroom_session'), before, 'the session id is rotated at login');
    const home = await alice.get('/?lang=en');
    assert.equal(flashOf(home.body), 'You are logged in.');
    assert.match(home.body, /href="\/me\?lang=en"/);
    assert.equal(home.headers['cache-control'], 'private, no-store');
    assert.equal(home.headers['x-read-cache'], undefined, 'a logged-in page never comes from the shared cache');
    assert.match(String(home.headers.vary), /cookie/i);
    // the old session id is gone from the store
    const old = await t.app.inject({ url: '/me?lang=en', headers: { cookie: `newsroom_session=${before}` } });
    assert.equal(old.statusCode, 303);
    assert.match(String(old.headers.location), /^\/login\?/);
  } finally {
    await t.close();
  }
});

test('a person comments, votes with a proof, flags, bookmarks, follows, finds it in My newsroom, exports, clears history, changes language and logs out', async () => {
  const { t, ids } = await newsroom();
  try {
    const alice = siteBrowser(t.app);
    await alice.devLogin('alice');
    await alice.chooseName('Alice');
    // a story whose reward window is open (its page has the vote form)
    let id = ids[0]!;
    for (const candidate of ids) {
      if (/name="vote"/.test((await alice.get(`/stories/${candidate}?lang=en`)).body)) {
        id = candidate;
        break;
      }
    }
    const story = `/stories/${id}?lang=en`;

    const commented = await alice.submit(story, `/stories/${id}/comment`, { body: 'A careful reader was here.' });
    assert.equal(flashOf(commented.page.body), 'Your comment is posted.');
    assert.match(commented.page.body, /A careful reader was here\./);

    const page = await alice.get(story);
    assert.match(page.body, /name="vote"/, 'the demo has a story in its reward window');
    const voted = await alice.submit(story, `/stories/${id}/vote`, { vote: 'UP', prove: '1' });
    assert.equal(flashOf(voted.page.body), 'Your vote is recorded with weight 3.', 'a proven L3 vote weighs 3');
    const again = await alice.submit(story, `/stories/${id}/vote`, { vote: 'UP' });
    assert.equal(flashOf(again.page.body), 'You have already voted on this story.');

    const flagged = await alice.submit(story, `/stories/${id}/flag`, { severity: 'LOW', claimId: '', reason: 'The date looks wrong.' });
    assert.equal(flashOf(flagged.page.body), 'Your flag is recorded.');

    const bookmarked = await alice.submit(story, `/stories/${id}/bookmark`, {});
    assert.equal(flashOf(bookmarked.page.body), 'The story is bookmarked.');
    const room = /name="topic" value="([a-z0-9-]+)"/.exec(page.body)?.[1];
    assert.ok(room);
    const followed = await alice.submit(story, '/me/topics', { topic: room, kind: 'ROOM' });
    // the room by its name (the slug stays the form's value)
    assert.equal(flashOf(followed.page.body), `You follow ${roomName('en', room)}.`);

    const me = await alice.get('/me?lang=en');
    assert.equal(me.statusCode, 200);
    assert.equal(me.headers['cache-control'], 'private, no-store');
    assert.ok(me.body.includes(`href="/stories/${id}?lang=en"`), 'the bookmark is listed');
    assert.ok(me.body.includes(`<span>${roomName('en', room)}</span>`), 'the room is followed');

    const exported = await alice.get('/me/export?lang=en');
    assert.equal(exported.statusCode, 200);
    assert.match(String(exported.headers['content-disposition']), /^attachment; filename="newsroom-export-\d{4}-\d{2}-\d{2}\.json"$/);
    const data = exported.json() as { actorId: string; sections: Record<string, unknown> };
    assert.match(data.actorId, /^acct_[0-9a-f]{30}$/);
    assert.ok(JSON.stringify(data.sections).includes('A careful reader was here.'));

    const prefs = await alice.submit('/me?lang=en', '/me/preferences', { siteLang: 'es', personalization: '1' });
    assert.equal(prefs.posted.headers.location, '/me?lang=es');
    assert.equal(
      flashOf(prefs.page.body),
      'Tus preferencias están guardadas.',
      prefs.page.body.slice(prefs.page.body.indexOf('<main'), prefs.page.body.indexOf('<main') + 600),
    );
    await alice.get(story);
    // without the confirmation page's answer, nothing is cleared: the site asks first, naming what goes
    const asked = await alice.submit('/me?lang=en', '/me/history/clear', {});
    assert.equal(asked.posted.headers.location, '/me/history/clear?lang=en');
    assert.match(asked.page.body, /Your reading history holds 1 story\./);
    const cleared = await alice.submit('/me/history/clear?lang=en', '/me/history/clear', { confirm: '1', back: '/me?lang=en' });
    assert.equal(cleared.posted.headers.location, '/me?lang=en');
    assert.equal(flashOf(cleared.page.body), 'Your reading history is cleared.');
    const none = await alice.get('/me/history/clear?lang=en');
    assert.match(none.body, /Your reading history holds 0 stories\./);

    await alice.get('/me?lang=en');
    const out = await alice.post('/logout', { _csrf: alice.csrf(), lang: 'en', back: '/?lang=en' });
    assert.equal(out.statusCode, 303);
    assert.equal(alice.jar.has('newsroom_session'), false, 'the cookie is cleared');
    const after = await alice.get('/me?lang=en');
    assert.equal(after.statusCode, 303, 'logged out: My newsroom asks to log in');
    // logging in again, the site speaks the language the person chose
    const relogin = await alice.devLogin('alice');
    assert.equal(relogin.headers.location, '/?lang=es');
  } finally {
    await t.close();
  }
});

test('the same person from another browser finds the same account; another person never sees it', async () => {
  const { t, ids } = await newsroom();
  try {
    const phone = siteBrowser(t.app, '198.51.100.1');
    const laptop = siteBrowser(t.app, '198.51.100.2');
    const bob = siteBrowser(t.app, '198.51.100.3');
    await phone.devLogin('alice');
    await phone.submit(`/stories/${ids[1]}?lang=en`, `/stories/${ids[1]}/bookmark`, {});
    await laptop.devLogin('alice');
    const mine = await laptop.get('/me?lang=en');
    assert.ok(mine.body.includes(`href="/stories/${ids[1]}?lang=en"`), 'the bookmark made on the phone');
    const account = (b: string) => /<code>(acct_[0-9a-f]{30})<\/code>/.exec(b)?.[1];
    const phoneMe = await phone.get('/me?lang=en');
    assert.equal(account(mine.body), account(phoneMe.body));

    await bob.devLogin('bob');
    const his = await bob.get('/me?lang=en');
    assert.notEqual(account(his.body), account(mine.body));
    const bookmarks = (b: string) => b.slice(b.indexOf('id="bookmarks"'), b.indexOf('id="preferences"'));
    assert.ok(bookmarks(mine.body).includes(`href="/stories/${ids[1]}?lang=en"`));
    assert.ok(!bookmarks(his.body).includes(`href="/stories/${ids[1]}?lang=en"`), "another person's bookmark never shows");
    // the public page, cached, shows nobody's data
    const anonymous = await t.app.inject(`/stories/${ids[1]}?lang=en`);
    const cachedAgain = await t.app.inject(`/stories/${ids[1]}?lang=en`);
    assert.equal(cachedAgain.headers['x-read-cache'], 'hit');
    for (const body of [anonymous.body, cachedAgain.body]) {
      assert.ok(!body.includes('acct_'), 'no account id on a public page');
      assert.ok(!body.includes('name="_csrf"'), 'no form token on a public page');
      assert.match(body, /Log in to comment/);
    }
  } finally {
    await t.close();
  }
});

test('a forged cross-site post is refused: wrong Origin, cross-site fetch metadata, a missing or foreign CSRF token', async () => {
  const { t, ids } = await newsroom();
  try {
    const alice = siteBrowser(t.app);
    const mallory = siteBrowser(t.app);
    await alice.devLogin('alice');
    await mallory.devLogin('mallory');
    await alice.get(`/stories/${ids[0]}?lang=en`);
    await mallory.get(`/stories/${ids[0]}?lang=en`);
    const url = `/stories/${ids[0]}/comment`;
    const body = { _csrf: alice.csrf(), lang: 'en', body: 'forged' };
    const cases: Array<[string, Record<string, string>, Record<string, string | null>]> = [
      ['another origin', body, { origin: 'https://evil.example' }],
      ['an opaque origin', body, { origin: 'null' }],
      ['cross-site fetch metadata', body, { 'sec-fetch-site': 'cross-site', origin: null }],
      ['no token', { lang: 'en', body: 'forged' }, {}],
      ["another session's token", { ...body, _csrf: mallory.csrf() }, {}],
    ];
    for (const [name, fields, headers] of cases) {
      const res = await alice.post(url, fields, headers);
      assert.equal(res.statusCode, name === 'no token' ? 400 : 403, `${name}: ${res.statusCode}`);
      assert.match(String(res.headers['content-type']), /^text\/html/, `${name}: an HTML page`);
    }
    const comments = await t.app.inject(`/v1/stories/${ids[0]}/comments`);
    assert.ok(!comments.body.includes('forged'), 'no forged comment was recorded');
  } finally {
    await t.close();
  }
});

test('refusals are sentences on the page: a HIGH flag without the proof, and an action after the login ended', async () => {
  const { t, ids } = await newsroom();
  try {
    const alice = siteBrowser(t.app);
    await alice.devLogin('alice');
    await alice.chooseName('Alice');
    const story = `/stories/${ids[0]}?lang=en`;
    const page = await alice.get(story);
    const claim = /<option value="([A-Za-z0-9_-]+)">/.exec(page.body.slice(page.body.indexOf('name="claimId"')))?.[1];
    assert.ok(claim);
    const high = await alice.submit(story, `/stories/${ids[0]}/flag`, {
      severity: 'HIGH',
      claimId: claim,
      reason: 'Not what the source says.',
    });
    assert.equal(flashOf(high.page.body), 'A high-severity flag on a claim needs proof that you are a unique person.');
    assert.doesNotMatch(high.page.body, /HUMAN_VERIFICATION_REQUIRED|"code"/);
    const proven = await alice.submit(story, `/stories/${ids[0]}/flag`, {
      severity: 'HIGH',
      claimId: claim,
      reason: 'Not what the source says.',
      prove: '1',
    });
    assert.equal(flashOf(proven.page.body), 'Your flag is recorded.');

    // the service ends the login (its session is over): the next form says so and asks to log in again
    await t.db.owner.db
      .updateTable('actor_bindings')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .execute();
    await alice.get(story);
    const late = await alice.post(`/stories/${ids[0]}/comment`, { _csrf: alice.csrf(), lang: 'en', back: story, body: 'too late' });
    assert.equal(late.statusCode, 303);
    assert.match(String(late.headers.location), /^\/login\?lang=en&next=/);
    const login = await alice.get(String(late.headers.location));
    assert.equal(flashOf(login.body), 'Your login has ended: log in again.');
    assert.match((await alice.get(story)).body, /Log in to comment/, 'the site forgot the ended login');
  } finally {
    await t.close();
  }
});
