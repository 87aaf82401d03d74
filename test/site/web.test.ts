import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { createReadsTestApp, type ReadsTestApp } from '../helpers/newsroom-factory.js';

/** What the web expects of the reader site: compression, ETags, head metadata, feeds, sitemap, robots.txt, 404 and 400 pages. */

const BASE = 'https://news.example';
const decode = (encoding: unknown, raw: Buffer) =>
  encoding === 'br' ? brotliDecompressSync(raw).toString() : encoding === 'gzip' ? gunzipSync(raw).toString() : raw.toString();
const xml = (body: string) => {
  assert.equal(XMLValidator.validate(body), true, body.slice(0, 300));
  return new XMLParser({ ignoreAttributes: false, isArray: (name) => ['entry', 'url', 'sitemap', 'link'].includes(name) }).parse(body);
};

describe('the reader site on the web', () => {
  let r: ReadsTestApp;
  const story: Record<string, string> = {};
  before(async () => {
    r = await createReadsTestApp({ PUBLIC_BASE_URL: BASE });
    const f = r.factory;
    story.science = (await f.story({ room: 'science', title: 'Tidal turbines power the island', summary: 'Three turbines now run.' })).id;
    story.local = (await f.story({ room: 'local', lang: 'fr', title: 'Le marché rouvre', summary: 'Le marché couvert rouvre lundi.' })).id;
    story.candidate = (await f.story({ room: 'science', stage: 'CANDIDATE', publishedAt: null, title: 'Unpublished candidate' })).id;
    story.hidden = (await f.story({ room: 'science', moderation: 'QUARANTINED', title: 'Quarantined story' })).id;
  });
  after(() => r.close());

  test('pages, style sheets and JSON are compressed when asked, decode to the same bytes, and stay plain otherwise', async () => {
    const css = /href="(\/assets\/site-[^"]+\.css)"/.exec((await r.app.inject('/')).body)![1]!;
    for (const url of ['/', `/stories/${story.science}?lang=fr`, css, `/v1/stories/${story.science}`]) {
      const plain = await r.app.inject(url);
      assert.equal(plain.statusCode, 200, url);
      assert.equal(
        plain.headers['content-encoding'],
        undefined,
        `${url}: no Accept-Encoding, no compression (${plain.rawPayload.length} bytes)`,
      );
      for (const encoding of ['br', 'gzip']) {
        const res = await r.app.inject({ url, headers: { 'accept-encoding': `${encoding}, identity;q=0.5` } });
        assert.equal(res.statusCode, 200, url);
        assert.equal(res.headers['content-encoding'], encoding, `${url} ${plain.rawPayload.length} bytes ${JSON.stringify(res.headers)}`);
        assert.match(String(res.headers.vary), /accept-encoding/i, url);
        assert.equal(decode(encoding, res.rawPayload), plain.body, `${url} (${encoding}) decodes to the plain body`);
        assert.ok(res.rawPayload.length < plain.rawPayload.length / 2, `${url} (${encoding}) is smaller`);
      }
    }
    const robots = await r.app.inject({ url: '/robots.txt', headers: { 'accept-encoding': 'gzip' } });
    assert.equal(robots.headers['content-encoding'], undefined, 'under the threshold: sent as is');
    const api = await r.app.inject({ url: '/v1/feed', headers: { 'if-none-match': '*' } });
    assert.equal(api.statusCode, 200, 'the JSON API has no ETags and answers If-None-Match as before');
    assert.equal(api.headers.etag, undefined);
  });

  test('a page has a weak ETag; If-None-Match answers 304 without a body, from the read cache too, until the page changes', async () => {
    const first = await r.app.inject('/rankings?lang=de');
    const etag = String(first.headers.etag);
    assert.match(etag, /^W\/"[A-Za-z0-9_-]{27}"$/);
    for (const encoding of ['', 'gzip']) {
      const res = await r.app.inject({ url: '/rankings?lang=de', headers: { 'if-none-match': etag, 'accept-encoding': encoding } });
      assert.equal(res.statusCode, 304);
      assert.equal(res.body, '');
      assert.equal(res.headers['x-read-cache'], 'hit', 'answered from the read cache');
      assert.equal(res.headers['content-encoding'], undefined);
      assert.equal(res.headers.etag, etag);
    }
    assert.equal((await r.app.inject({ url: '/rankings?lang=de', headers: { 'if-none-match': 'W/"other", ' + etag } })).statusCode, 304);
    assert.equal((await r.app.inject({ url: '/rankings?lang=de', headers: { 'if-none-match': 'W/"other"' } })).statusCode, 200);

    const home = await r.app.inject('/?mode=recent');
    await r.factory.story({ room: 'science', title: 'A newer story' });
    const changed = await r.app.inject({ url: '/?mode=recent', headers: { 'if-none-match': String(home.headers.etag) } });
    assert.equal(changed.statusCode, 200, 'a write changed the page: the old ETag no longer matches');
    assert.equal(changed.headers['x-read-cache'], 'miss');
    assert.ok(changed.body.includes('A newer story'));
    assert.notEqual(changed.headers.etag, home.headers.etag);
    const again = await r.app.inject({ url: '/?mode=recent', headers: { 'if-none-match': String(changed.headers.etag) } });
    assert.equal(again.statusCode, 304);
  });

  test('every page describes itself: description, canonical, hreflang, Open Graph and the Atom feeds', async () => {
    const page = (await r.app.inject(`/stories/${story.science}?lang=fr`)).body;
    const has = (tag: string) => assert.ok(page.includes(tag), tag);
    has('<meta name="description" content="Three turbines now run."/>');
    has(`<link rel="canonical" href="${BASE}/stories/${story.science}?lang=fr"/>`);
    for (const lang of ['en', 'es', 'fr', 'de', 'zh-Hans'])
      has(`<link rel="alternate" hreflang="${lang}" href="${BASE}/stories/${story.science}?lang=${lang}"/>`);
    has(`<link rel="alternate" hreflang="x-default" href="${BASE}/stories/${story.science}?lang=en"/>`);
    has('<meta property="og:title" content="Tidal turbines power the island"/>');
    has('<meta property="og:description" content="Three turbines now run."/>');
    has('<meta property="og:type" content="article"/>');
    has(`<meta property="og:url" content="${BASE}/stories/${story.science}?lang=fr"/>`);
    has('<meta property="og:locale" content="fr_FR"/>');
    has('<meta property="og:site_name" content="');
    has(`<link rel="alternate" type="application/atom+xml" title="`);
    has(`href="${BASE}/feed.atom?lang=fr"/>`);

    const feed = (await r.app.inject('/?room=science&mode=recent&lang=de')).body;
    assert.ok(feed.includes(`<link rel="canonical" href="${BASE}/?lang=de&amp;mode=recent&amp;room=science"/>`));
    assert.ok(feed.includes('<meta property="og:type" content="website"/>'));
    assert.ok(feed.includes(`href="${BASE}/rooms/science/feed.atom?lang=de"/>`), 'the room feed');
    assert.match(
      feed,
      /<nav aria-label="[^"]+"><h2>[^<]+<\/h2><ul class="chips">(<li><a href="\/\?lang=de[^"]*"[^>]*>[^<]+<\/a><\/li>)+<\/ul>/,
      'rooms as links',
    );
  });

  test('Atom feeds of the newsroom and of a room list the published, visible stories, newest first', async () => {
    const res = await r.app.inject('/feed.atom?lang=en');
    assert.equal(res.statusCode, 200);
    assert.equal(res.headers['content-type'], 'application/atom+xml; charset=utf-8');
    const all = xml(res.body).feed;
    const ids = all.entry.map((e: { id: string }) => e.id);
    assert.ok(ids.includes(`${BASE}/stories/${story.science}?lang=en`));
    assert.ok(ids.includes(`${BASE}/stories/${story.local}?lang=fr`), 'each story in its own language');
    for (const hidden of [story.candidate, story.hidden])
      assert.ok(!ids.some((id: string) => id.includes(hidden!)), 'only published, visible stories');
    assert.equal(all.link.find((l: Record<string, string>) => l['@_rel'] === 'self')['@_href'], `${BASE}/feed.atom?lang=en`);
    const json = (await r.app.inject('/v1/feed?mode=recent&limit=50')).json();
    assert.deepEqual(
      ids,
      json.items.map((i: { id: string; lang: string }) => `${BASE}/stories/${i.id}?lang=${i.lang}`),
      'the feed route, in its order',
    );

    const room = xml((await r.app.inject('/rooms/local/feed.atom?lang=fr')).body).feed;
    assert.deepEqual(
      room.entry.map((e: { title: { '#text': string } }) => e.title['#text']),
      ['Le marché rouvre'],
    );
    assert.equal((await r.app.inject('/rooms/Not_A_Room/feed.atom')).statusCode, 400);
  });

  test('robots.txt and the sitemap name the site, each listed story with its last change', async () => {
    const robots = await r.app.inject('/robots.txt');
    assert.equal(robots.headers['content-type'], 'text/plain; charset=utf-8');
    assert.match(robots.body, /^User-agent: \*$/m);
    assert.match(robots.body, /^Disallow: \/v1\/$/m);
    assert.match(robots.body, /^Disallow: \/console$/m, 'the console is never indexed');
    assert.doesNotMatch(robots.body, /Disallow: \/search/, 'a search page is a page people land on');
    assert.ok(robots.body.includes(`Sitemap: ${BASE}/sitemap.xml`));

    const index = xml((await r.app.inject('/sitemap.xml')).body).sitemapindex;
    assert.deepEqual(
      index.sitemap.map((s: { loc: string }) => s.loc),
      [`${BASE}/sitemaps/pages.xml`, `${BASE}/sitemaps/stories-1.xml`],
    );
    const pages = xml((await r.app.inject('/sitemaps/pages.xml')).body).urlset.url.map((u: { loc: string }) => u.loc);
    assert.equal(pages.length, 30);
    assert.ok(pages.includes(`${BASE}/ledger?lang=zh-Hans`));
    const stories = xml((await r.app.inject('/sitemaps/stories-1.xml')).body).urlset.url;
    const locs = stories.map((u: { loc: string }) => u.loc);
    assert.ok(locs.includes(`${BASE}/stories/${story.local}?lang=fr`));
    assert.ok(!locs.some((l: string) => l.includes(story.candidate!) || l.includes(story.hidden!)));
    for (const u of stories) assert.match(u.lastmod, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    assert.equal((await r.app.inject('/sitemaps/stories-2.xml')).statusCode, 404);
  });

  test('an unknown path is an HTML page for a browser and JSON for the API and API clients', async () => {
    const page = await r.app.inject({ url: '/no-such-page?lang=es', headers: { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' } });
    assert.equal(page.statusCode, 404);
    assert.match(String(page.headers['content-type']), /^text\/html/);
    assert.match(page.body, /^<!doctype html><html lang="es">/);
    assert.match(String(page.headers['content-security-policy']), /default-src 'none'/);
    assert.equal((await r.app.inject('/no-such-page')).statusCode, 404);
    assert.match(String((await r.app.inject('/no-such-page')).headers['content-type']), /^text\/html/, 'no Accept: a browser');
    for (const req of [
      { url: '/v1/no-such' },
      { url: '/v1/no-such', headers: { accept: 'text/html' } },
      { url: '/no-such-page', headers: { accept: 'application/json' } },
      { url: '/no-such-page', method: 'POST' as const },
      { url: '/healthz/nothing' },
      { url: '/V1/FEED' },
      { url: '//v1/feed' },
    ]) {
      const res = await r.app.inject(req);
      assert.equal(res.statusCode, 404, req.url);
      assert.equal(res.json().code, 'NOT_FOUND', req.url);
    }
  });

  test('a refused page names the parameter and what was wrong with it, in the reader language', async () => {
    const mode = await r.app.inject('/?mode=sideways&lang=de');
    assert.equal(mode.statusCode, 400);
    assert.ok(mode.body.includes('Der Parameter „mode“ hat einen Wert, den diese Seite nicht annimmt: „sideways“.'), mode.body);
    const unknown = await r.app.inject('/rankings?colour=blue');
    assert.equal(unknown.statusCode, 400);
    assert.ok(unknown.body.includes('“colour” is not a parameter of this page.'));
    const cursor = await r.app.inject('/?cursor=bm90LWEtY3Vyc29y');
    assert.equal(cursor.statusCode, 400);
    assert.ok(cursor.body.includes('The parameter “cursor” is not valid here'));
  });
});
