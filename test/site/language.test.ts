import assert from 'node:assert/strict';
import { test } from 'node:test';
import { acceptedLang } from '../../src/web/site/languages.js';
import { createTestApp } from '../helpers/app.js';
import { siteBrowser } from '../helpers/site-browser.js';

/**
 * A page's language when its address names none: a logged-in reader's saved language, else the first of the five
 * the browser accepts (Accept-Language, q-values honoured), else English. Any language but English is a redirect
 * to the address with `lang`, so the read cache (one body per path and query) never serves one language's page to
 * a reader of another; an address with `lang` is answered in it whatever the browser says.
 */

test('Accept-Language picks among the five by q-value, by primary language, else none', () => {
  assert.equal(acceptedLang(undefined), null);
  assert.equal(acceptedLang(''), null);
  assert.equal(acceptedLang('de-DE,de;q=0.9,en;q=0.8'), 'de');
  assert.equal(acceptedLang('fr;q=0.2, es;q=0.8'), 'es');
  assert.equal(acceptedLang('ja, fr-CA;q=0.5, en;q=0.4'), 'fr');
  assert.equal(acceptedLang('zh-CN,zh;q=0.9'), 'zh-Hans');
  assert.equal(acceptedLang('zh-Hans-SG'), 'zh-Hans');
  assert.equal(acceptedLang('zh-TW, de;q=0.5'), 'de', 'traditional Chinese is not one of the five');
  assert.equal(acceptedLang('es;q=0, en'), 'en', 'q=0 refuses a language');
  assert.equal(acceptedLang('ja, *;q=0.5'), null);
  assert.equal(acceptedLang('de;q=0.5, fr;q=0.5'), 'de', 'equal weights keep the order of the header');
  assert.equal(acceptedLang(';;;,q=,de;q=abc'), null);
});

test('a first visit without lang follows the browser, the read cache stays right, and a saved language wins', async () => {
  const t = await createTestApp({ HUMAN_PROOF_VERIFIER: 'dev', READ_CACHE_TTL_MS: '60000', RATE_LIMIT_PUBLIC_READS_PER_MINUTE: '100000' });
  try {
    const get = (url: string, acceptLanguage?: string) =>
      t.app.inject({ url, headers: acceptLanguage ? { 'accept-language': acceptLanguage } : {} });

    // English (or nothing the site speaks): the page, which says it varies by the header
    for (const header of [undefined, 'en-GB,en;q=0.9', 'ja']) {
      const home = await get('/', header);
      assert.equal(home.statusCode, 200, String(header));
      assert.match(home.body, /^<!doctype html><html lang="en">/);
      assert.match(String(home.headers.vary), /accept-language/i);
    }
    // now the English page of `/` sits in the read cache: a German browser still gets German
    const german = await get('/', 'de-DE,de;q=0.9,en;q=0.8');
    assert.equal(german.statusCode, 302);
    assert.equal(german.headers.location, '/?lang=de');
    assert.match(String(german.headers.vary), /accept-language/i);
    assert.match(String(german.headers['cache-control']), /no-store/);
    assert.match((await get('/?lang=de', 'fr')).body, /^<!doctype html><html lang="de">/);

    // the rest of the address is kept; q-values decide
    const ledger = await get('/ledger?filters=PUBLISHED', 'fr;q=0.2, es;q=0.8');
    assert.equal(ledger.statusCode, 302);
    assert.equal(ledger.headers.location, '/ledger?filters=PUBLISHED&lang=es');
    assert.equal((await get('/search?q=x', 'zh-CN')).headers.location, '/search?q=x&lang=zh-Hans');
    // an address that names its language is answered in it
    const named = await get('/ledger?lang=fr', 'de');
    assert.equal(named.statusCode, 200);
    assert.match(named.body, /<html lang="fr">/);
    // feeds and assets are no pages: not redirected
    assert.equal((await get('/feed.atom', 'de')).statusCode, 200);

    // a logged-in reader: their saved language, whatever the browser says
    const reader = siteBrowser(t.app);
    await reader.devLogin('polyglot');
    assert.equal((await reader.get('/ledger', { 'accept-language': 'de' })).headers.location, '/ledger?lang=de', 'nothing saved yet');
    await reader.submit('/me?lang=en', '/me/preferences', { siteLang: 'fr', personalization: '1' });
    for (const path of ['/', '/ledger', '/rankings', '/me']) {
      const page = await reader.get(path, { 'accept-language': 'de' });
      assert.equal(page.statusCode, 302, path);
      assert.equal(page.headers.location, `${path}?lang=fr`, path);
    }
    // an English choice is kept too: no redirect, the English page
    await reader.submit('/me?lang=fr', '/me/preferences', { siteLang: 'en', personalization: '1' });
    const home = await reader.get('/', { 'accept-language': 'de' });
    assert.equal(home.statusCode, 200);
    assert.match(home.body, /<html lang="en">/);
  } finally {
    await t.close();
  }
});
