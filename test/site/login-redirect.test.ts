import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createTestApp } from '../helpers/app.js';
import { siteBrowser } from '../helpers/site-browser.js';

/**
 * The page a login comes back to, end to end through the development login: a `next` that a browser would read
 * as another host (a TAB it drops between two slashes) brings the person back to the site's home page.
 */

const SITE = 'http://localhost';
/** The page the browser opens for a 303's Location, from the login page it posted on. */
const opened = (location: unknown) => new URL(String(location), `${SITE}/login?lang=en`);

test('a login opened with next=/<TAB>/evil.example/ comes back to the site, with or without a preferred language', async () => {
  const t = await createTestApp({ HUMAN_PROOF_VERIFIER: 'dev' });
  try {
    const alice = siteBrowser(t.app);
    // the link a stranger hands out; the browser posts the login form's `back` field as the page wrote it
    const page = await alice.get('/login?lang=en&next=%2F%09%2Fevil.example%2F');
    assert.equal(page.statusCode, 200);
    const back = /<form method="post" action="\/login\/dev">.*?name="back" value="([^"]*)"/s.exec(page.body)?.[1];
    const login = await alice.post('/login/dev', { _csrf: alice.csrf(), lang: 'en', back: back!, name: 'alice' });
    assert.equal(login.statusCode, 303);
    assert.equal(login.headers.location, '/?lang=en');
    assert.equal(opened(login.headers.location).origin, SITE);
    assert.equal(back, '/?lang=en', 'the login page itself offers the home page');

    // a post whose `back` holds the TAB itself: the post decides again, whatever the page wrote
    await alice.get('/login?lang=en');
    const posted = await alice.post('/login/dev', { _csrf: alice.csrf(), lang: 'en', back: '/\t/evil.example/', name: 'alice' });
    assert.equal(posted.statusCode, 303);
    assert.equal(posted.headers.location, '/?lang=en');
    assert.equal(opened(posted.headers.location).origin, SITE);

    // with a preferred language the site puts it in the page's address, which must not make `//evil.example`
    const prefs = await alice.submit('/me?lang=en', '/me/preferences', { siteLang: 'fr', personalization: '1' });
    assert.equal(prefs.posted.headers.location, '/me?lang=fr');
    await alice.get('/login?lang=en');
    const again = await alice.post('/login/dev', { _csrf: alice.csrf(), lang: 'en', back: '/\t/evil.example/', name: 'alice' });
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
