import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { flashOf, siteBrowser } from '../helpers/site-browser.js';

/**
 * What the site keeps in its sessions (site_sessions): nothing for an anonymous visitor, only the reader, a
 * pending World ID login and a flash otherwise. The forms' CSRF secret is a signed cookie of its own, and a
 * token is bound to who is logged in: one made for an anonymous page does not serve a logged-in reader.
 */

const sessionRows = async (t: TestApp) =>
  (await t.db.owner.db.selectFrom('site_sessions').select(['id', 'data']).execute()).map((row) => ({
    id: row.id,
    data: (typeof row.data === 'string' ? JSON.parse(row.data) : row.data) as Record<string, unknown>,
  }));

const devApp = () => createTestApp({ HUMAN_PROOF_VERIFIER: 'dev' });

test('20 anonymous visits of the login page (and other pages) write no session; a login from that page still works', async () => {
  const t = await devApp();
  try {
    // a crawler keeps no cookie: every visit is a new visitor
    for (let i = 0; i < 20; i++) {
      const page = await t.app.inject({ url: '/login?lang=en', remoteAddress: '198.51.100.19' });
      assert.equal(page.statusCode, 200);
      assert.match(page.body, /name="_csrf" value="[^"]+"/);
    }
    // a browser keeps its cookies
    const visitor = siteBrowser(t.app, '198.51.100.20');
    for (let i = 0; i < 20; i++) {
      const page = await visitor.get(`/login?lang=${i % 2 ? 'fr' : 'en'}`);
      assert.equal(page.statusCode, 200);
      assert.ok(visitor.csrf(), 'the login form carries its token');
    }
    for (const url of ['/?lang=en', '/search?lang=en&q=x', '/me?lang=en', '/console?lang=en']) await visitor.get(url);
    assert.equal((await sessionRows(t)).length, 0, 'no session row for anonymous visits');
    assert.equal(visitor.jar.has('newsroom_session'), false, 'no session cookie either');
    assert.ok(visitor.jar.has('newsroom_csrf'), "the form's secret is a cookie");

    await visitor.get('/login?lang=en');
    const login = await visitor.post('/login/dev', { _csrf: visitor.csrf(), lang: 'en', back: '/?lang=en', name: 'visitor' });
    assert.equal(login.statusCode, 303, login.body.slice(0, 300));
    assert.equal(flashOf((await visitor.get('/?lang=en')).body), 'You are logged in.');
    const rows = await sessionRows(t);
    assert.equal(rows.length, 1, 'the login made the one session');
    assert.deepEqual(Object.keys(rows[0]!.data).sort(), ['cookie', 'reader'], 'a session holds the reader, no CSRF secret');
  } finally {
    await t.close();
  }
});

test('the login form is still protected: a token of another browser, or no secret cookie, is refused', async () => {
  const t = await devApp();
  try {
    const victim = siteBrowser(t.app, '198.51.100.21');
    const attacker = siteBrowser(t.app, '198.51.100.22');
    await victim.get('/login?lang=en');
    await attacker.get('/login?lang=en');
    const foreign = await victim.post('/login/dev', { _csrf: attacker.csrf(), lang: 'en', name: 'attacker' });
    assert.equal(foreign.statusCode, 403, "another browser's token");
    const noSecret = await victim.post('/login/dev', { _csrf: victim.csrf(), lang: 'en', name: 'attacker' }, { cookie: null });
    assert.equal(noSecret.statusCode, 403, 'no secret cookie');
    const forgedSecret = await victim.post(
      '/login/dev',
      { _csrf: victim.csrf(), lang: 'en', name: 'attacker' },
      { cookie: `newsroom_csrf=${encodeURIComponent('made-up-secret')}` },
    );
    assert.equal(forgedSecret.statusCode, 403, 'an unsigned secret cookie');
    assert.equal((await sessionRows(t)).length, 0, 'no refused login left a session');
  } finally {
    await t.close();
  }
});

test("a token from the anonymous login page is refused (403) for the logged-in reader's forms, though the secret cookie is the same", async () => {
  const t = await devApp();
  try {
    const reader = siteBrowser(t.app, '198.51.100.23');
    await reader.get('/login?lang=en');
    const anonymousToken = reader.csrf();
    const secret = reader.jar.get('newsroom_csrf');
    assert.ok(secret);
    await reader.post('/login/dev', { _csrf: anonymousToken, lang: 'en', back: '/me?lang=en', name: 'reader' });
    await reader.get('/me?lang=en');
    const readerToken = reader.csrf();
    assert.equal(reader.jar.get('newsroom_csrf'), secret, 'the login kept the browser’s CSRF secret');

    const follow = { lang: 'en', back: '/me?lang=en', kind: 'TAG' };
    const refused = await reader.post('/me/topics', { ...follow, _csrf: anonymousToken, topic: 'with-the-anonymous-token' });
    assert.equal(refused.statusCode, 403);
    assert.match(String(refused.headers['content-type']), /^text\/html/);
    const accepted = await reader.post('/me/topics', { ...follow, _csrf: readerToken, topic: 'with-the-readers-token' });
    assert.equal(accepted.statusCode, 303);
    const me = await reader.get('/me?lang=en');
    assert.ok(me.body.includes('with-the-readers-token'));
    assert.ok(!me.body.includes('with-the-anonymous-token'), 'the refused form did nothing');

    // after logging out, the reader's token is not the next person's on this browser either
    await reader.post('/logout', { _csrf: readerToken, lang: 'en', back: '/?lang=en' });
    await reader.get('/login?lang=en');
    await reader.post('/login/dev', { _csrf: reader.csrf(), lang: 'en', back: '/?lang=en', name: 'someone-else' });
    const stale = await reader.post('/me/topics', { ...follow, _csrf: readerToken, topic: 'as-someone-else' });
    assert.equal(stale.statusCode, 403, "the previous reader's token");
  } finally {
    await t.close();
  }
});

test('a session left empty (its flash shown after the login ended) ends: its row is deleted and its cookie cleared', async () => {
  const t = await devApp();
  try {
    const reader = siteBrowser(t.app, '198.51.100.24');
    await reader.devLogin('reader');
    await reader.get('/me?lang=en');
    const token = reader.csrf();
    await t.db.owner.db
      .updateTable('actor_bindings')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .execute();
    const late = await reader.post('/me/topics', { _csrf: token, lang: 'en', back: '/me?lang=en', topic: 'late', kind: 'TAG' });
    assert.equal(late.statusCode, 303);
    const rows = await sessionRows(t);
    assert.deepEqual(
      rows.map((row) => Object.keys(row.data).sort()),
      [['cookie', 'flash']],
      'the refusal is kept for the next page, the reader forgotten',
    );
    const login = await reader.get(String(late.headers.location));
    assert.equal(flashOf(login.body), 'Your login has ended: log in again.');
    assert.equal((await sessionRows(t)).length, 0, 'nothing left to keep');
    assert.equal(reader.jar.has('newsroom_session'), false, 'the cookie is cleared');
    assert.equal((await reader.devLogin('reader')).statusCode, 303, 'the login form of that page works');
  } finally {
    await t.close();
  }
});
