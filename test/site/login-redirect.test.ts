import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createTestApp } from '../helpers/app.js';
import { siteBrowser } from '../helpers/site-browser.js';

/**
 * The page a login comes back to, end to end through the development login: a `next` or `back` with a byte a
 * browser would drop (a TAB between two slashes makes `//evil.example`) is refused at the door, and one in plain
 * ASCII that a browser would still read as another host (`/.//evil.example/`) brings the person back home.
 */

const SITE = 'http://localhost';
/** The page the browser opens for a 303's Location, from the login page it posted on. */
const opened = (location: unknown) => new URL(String(location), `${SITE}/login?lang=en`);

test('a login opened with next=/<TAB>/evil.example/ never leaves the site, with or without a preferred language', async () => {
  const t = await createTestApp({ HUMAN_PROOF_VERIFIER: 'dev' });
  try {
    const alice = siteBrowser(t.app);
    // the link a stranger hands out: the page refuses the address, naming the field
    const page = await alice.get('/login?lang=en&next=%2F%09%2Fevil.example%2F');
    assert.equal(page.statusCode, 400);
    assert.match(page.body, /next/);
    assert.equal(page.headers.location, undefined);

    // a post whose `back` holds the TAB itself is refused too, and logs nobody in
    await alice.get('/login?lang=en');
    const posted = await alice.post('/login/dev', { _csrf: alice.csrf(), lang: 'en', back: '/\t/evil.example/', name: 'alice' });
    assert.equal(posted.statusCode, 400);
    assert.equal(posted.headers.location, undefined);

    // plain ASCII that resolves to another host comes back to the home page
    await alice.get('/login?lang=en');
    const dots = await alice.post('/login/dev', { _csrf: alice.csrf(), lang: 'en', back: '/.//evil.example/', name: 'alice' });
    assert.equal(dots.statusCode, 303);
    // a first login (no display name yet) goes by the name page, which then goes on to the home page
    const namePage = opened(dots.headers.location);
    assert.equal(`${namePage.origin}${namePage.pathname}`, `${SITE}/me/name`);
    assert.equal(namePage.searchParams.get('next'), '/?lang=en');
    await alice.get(`${namePage.pathname}${namePage.search}`);
    const named = await alice.post('/me/name', {
      _csrf: alice.csrf(),
      lang: 'en',
      back: namePage.searchParams.get('next')!,
      name: 'Alice',
    });
    assert.equal(named.headers.location, '/?lang=en');
    assert.equal(opened(named.headers.location).origin, SITE);

    // with a preferred language the site puts it in the page's address, which must not make `//evil.example`
    const prefs = await alice.submit('/me?lang=en', '/me/preferences', { siteLang: 'fr', personalization: '1' });
    assert.equal(prefs.posted.headers.location, '/me?lang=fr');
    await alice.get('/login?lang=en');
    const again = await alice.post('/login/dev', { _csrf: alice.csrf(), lang: 'en', back: '/.//evil.example/', name: 'alice' });
    assert.equal(again.statusCode, 303);
    assert.equal(again.headers.location, '/?lang=fr');
    assert.equal(opened(again.headers.location).origin, SITE);

    // and a good page to come back to still is
    await alice.get('/login?lang=en');
    const good = await alice.post('/login/dev', { _csrf: alice.csrf(), lang: 'en', back: '/search?q=tide&lang=en', name: 'alice' });
    assert.equal(good.headers.location, '/search?q=tide&lang=fr');
  } finally {
    await t.close();
  }
});
