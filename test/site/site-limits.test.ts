import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { siteBrowser } from '../helpers/site-browser.js';

/**
 * The site's per-address limits (RATE_LIMIT_SITE_LOGINS_PER_MINUTE, RATE_LIMIT_SITE_FORMS_PER_MINUTE) at their
 * defaults, through inject and over real HTTP behind a proxy: the login steps and the form posts of one client
 * address are counted in the shared rate-limit store (Redis with TEST_REDIS_URL), past the budget a 429 page
 * says how long to wait in the form's language, and nothing is written for a refused post.
 */

const AT_DEFAULTS = { RATE_LIMIT_SITE_LOGINS_PER_MINUTE: undefined, RATE_LIMIT_SITE_FORMS_PER_MINUTE: undefined };

const rows = async (t: TestApp, table: 'site_sessions' | 'login_challenges') =>
  Number(
    (
      await t.db.owner.db
        .selectFrom(table)
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

/** A 429 page that names its wait: the Retry-After header (seconds) and the same number in `sentence`. */
function assertTooMany(res: LightMyRequestResponse, sentence: (seconds: number) => string) {
  assert.equal(res.statusCode, 429, res.body.slice(0, 300));
  assert.match(String(res.headers['content-type']), /^text\/html/);
  const seconds = Number(res.headers['retry-after']);
  assert.ok(Number.isInteger(seconds) && seconds >= 1 && seconds <= 60, `Retry-After: ${String(res.headers['retry-after'])}`);
  assert.ok(res.body.includes(sentence(seconds)), `the page says: ${sentence(seconds)}`);
}

const english = (s: number) => `Too many requests: try again in ${s} seconds.`;
const german = (s: number) => `Zu viele Anfragen: Versuchen Sie es in ${s} Sekunden erneut.`;
const french = (s: number) => `Trop de requêtes : réessayez dans ${s} secondes.`;

test('the 11th development login of a minute from one address is refused with a 429 page; another address still logs in', async () => {
  const t = await createTestApp({ ...AT_DEFAULTS, HUMAN_PROOF_VERIFIER: 'dev' });
  try {
    assert.equal(t.config.rateLimits.siteLoginsPerMinute, 10);
    const browser = siteBrowser(t.app, '198.51.100.7');
    for (let i = 1; i <= 10; i++) {
      await browser.get('/login?lang=en');
      const login = await browser.post('/login/dev', { _csrf: browser.csrf(), lang: 'en', back: '/?lang=en', name: `person-${i}` });
      assert.equal(login.statusCode, 303, `login ${i}: ${login.body.slice(0, 200)}`);
      // the budget, in the IETF RateLimit fields
      assert.equal(login.headers['ratelimit-policy'], '"site-logins";q=10;w=60');
      assert.match(String(login.headers.ratelimit), new RegExp(`^"site-logins";r=${10 - i};t=\\d+$`));
    }
    await browser.get('/login?lang=en');
    const token = browser.csrf();
    const [challenges, sessions] = [await rows(t, 'login_challenges'), await rows(t, 'site_sessions')];
    const refused = await browser.post('/login/dev', { _csrf: token, lang: 'en', back: '/?lang=en', name: 'person-11' });
    assertTooMany(refused, english);
    assert.match(String(refused.headers.ratelimit), /^"site-logins";r=0;t=\d+$/);
    const inGerman = await browser.post('/login/dev', { _csrf: token, lang: 'de', back: '/?lang=de', name: 'person-12' });
    assertTooMany(inGerman, german);
    assert.match(inGerman.body, /<html lang="de"/);
    assert.equal(await rows(t, 'login_challenges'), challenges, 'no login challenge is made for a refused login');
    assert.equal(await rows(t, 'site_sessions'), sessions, 'no session is written for a refused login');

    const neighbour = siteBrowser(t.app, '198.51.100.8');
    const other = await neighbour.devLogin('neighbour');
    // logged in (a first login goes by the name page on its way back)
    assert.equal(other.headers.location, `/me/name?lang=en&next=${encodeURIComponent('/?lang=en')}`, 'another address has its own budget');
  } finally {
    await t.close();
  }
});

test('the World ID login steps share the login budget of the address', async () => {
  const t = await createTestApp({
    ...AT_DEFAULTS,
    HUMAN_PROOF_VERIFIER: 'remote',
    WORLDID_APP_ID: 'app_newsroom_test',
    WORLDID_VERIFY_URL: 'http://127.0.0.1:9/api/v2/verify/app_newsroom_test',
  });
  try {
    const browser = siteBrowser(t.app, '198.51.100.9');
    for (let i = 1; i <= 10; i++) {
      await browser.get('/login?lang=fr');
      const step = i % 2 ? '/login/start' : '/login/finish';
      const fields: Record<string, string> =
        i % 2 ? {} : { nullifier_hash: '0x1', merkle_root: '0x2', proof: '0x3', verification_level: 'orb' };
      const res = await browser.post(step, { _csrf: browser.csrf(), lang: 'fr', ...fields });
      assert.equal(res.statusCode, 303, `${step} ${i}: ${res.body.slice(0, 200)}`);
    }
    await browser.get('/login?lang=fr');
    assertTooMany(await browser.post('/login/start', { _csrf: browser.csrf(), lang: 'fr' }), french);
  } finally {
    await t.close();
  }
});

test('the 61st form post of a minute from one address is refused, on the site and in the console; logins and other addresses keep their budgets', async () => {
  const t = await createTestApp({ ...AT_DEFAULTS, HUMAN_PROOF_VERIFIER: 'dev' });
  try {
    assert.equal(t.config.rateLimits.siteFormPostsPerMinute, 60);
    const reader = siteBrowser(t.app, '203.0.113.40');
    await reader.devLogin('reader');
    await reader.get('/me?lang=en');
    const token = reader.csrf();
    for (let i = 1; i <= 60; i++) {
      const res = await reader.post('/me/topics', { _csrf: token, lang: 'en', back: '/me?lang=en', topic: `topic-${i}`, kind: 'TAG' });
      assert.equal(res.statusCode, 303, `form ${i}: ${res.body.slice(0, 200)}`);
    }
    assertTooMany(await reader.post('/me/topics', { _csrf: token, lang: 'en', back: '/me?lang=en', topic: 'one-too-many' }), english);
    // the console's forms are the site's forms: the same budget, refused before the console's door
    assertTooMany(await reader.post('/console/audit/verify', { _csrf: token, lang: 'fr', back: '/console?lang=fr' }), french);
    const topics = await reader.get('/me?lang=en');
    assert.ok(!topics.body.includes('one-too-many'), 'the refused form did nothing');

    // logging in is counted apart: the address may still log in
    const again = siteBrowser(t.app, '203.0.113.40');
    assert.equal((await again.devLogin('reader')).statusCode, 303);
    const neighbour = siteBrowser(t.app, '203.0.113.41');
    await neighbour.devLogin('neighbour');
    const followed = await neighbour.submit('/me?lang=en', '/me/topics', { topic: 'mine', kind: 'TAG' });
    assert.equal(followed.posted.statusCode, 303, 'another address has its own budget');
  } finally {
    await t.close();
  }
});

test('a post another site makes a browser send is refused without using up the reader’s budget', async () => {
  const t = await createTestApp({ ...AT_DEFAULTS, HUMAN_PROOF_VERIFIER: 'dev', RATE_LIMIT_SITE_FORMS_PER_MINUTE: '2' });
  try {
    const reader = siteBrowser(t.app, '203.0.113.50');
    await reader.devLogin('reader');
    await reader.get('/me?lang=en');
    const fields = { _csrf: reader.csrf(), lang: 'en', back: '/me?lang=en', topic: 'forged', kind: 'TAG' as const };
    for (let i = 0; i < 5; i++) {
      const forged = await reader.post('/me/topics', fields, { 'sec-fetch-site': 'cross-site', origin: 'https://evil.example' });
      assert.equal(forged.statusCode, 403);
    }
    assert.equal((await reader.post('/me/topics', { ...fields, topic: 'first' })).statusCode, 303);
    assert.equal((await reader.post('/me/topics', { ...fields, topic: 'second' })).statusCode, 303);
    assertTooMany(await reader.post('/me/topics', { ...fields, topic: 'third' }), english);
  } finally {
    await t.close();
  }
});

test('over real HTTP behind a trusted proxy, each forwarded client address has its own login budget', async () => {
  const t = await createTestApp({
    ...AT_DEFAULTS,
    HUMAN_PROOF_VERIFIER: 'dev',
    TRUST_PROXY: '127.0.0.1',
    RATE_LIMIT_SITE_LOGINS_PER_MINUTE: '2',
  });
  try {
    const base = await t.listen();
    /** A dev login over HTTP as the proxy forwards it for `client`: the form page (its cookie and token), then the post. */
    const login = async (client: string, lang = 'en') => {
      const headers = { 'x-forwarded-for': client };
      const page = await fetch(`${base}/login?lang=${lang}`, { headers });
      const cookie = page.headers
        .getSetCookie()
        .map((c) => c.split(';')[0])
        .join('; ');
      const token = /name="_csrf" value="([^"]+)"/.exec(await page.text())?.[1] ?? '';
      return fetch(`${base}/login/dev`, {
        method: 'POST',
        redirect: 'manual',
        headers: { ...headers, cookie, 'content-type': 'application/x-www-form-urlencoded', origin: base, 'sec-fetch-site': 'same-origin' },
        body: new URLSearchParams({ _csrf: token, lang, name: `someone-${client}` }).toString(),
      });
    };
    assert.equal((await login('192.0.2.1')).status, 303);
    assert.equal((await login('192.0.2.1')).status, 303);
    const refused = await login('192.0.2.1', 'de');
    assert.equal(refused.status, 429);
    const seconds = Number(refused.headers.get('retry-after'));
    assert.ok(seconds >= 1 && seconds <= 60);
    assert.ok((await refused.text()).includes(german(seconds)));
    assert.equal((await login('192.0.2.2')).status, 303, 'another client behind the same proxy');
  } finally {
    await t.close();
  }
});
