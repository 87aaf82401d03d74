import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import fc from 'fast-check';
import { createDemoTestApp, createTestApp, TEST_API_KEY, TEST_OPS_TOKEN, TEST_SECRET } from '../helpers/app.js';
import { fuzzRuns } from '../helpers/fuzz.js';
import { createReadsTestApp } from '../helpers/newsroom-factory.js';
import { newsroomClient } from '../helpers/newsroom.js';

/** The reader site through app.inject and real HTTP: what each page answers, escapes, caches and refuses. */

const html = (res: { headers: Record<string, unknown> }) => String(res.headers['content-type']).startsWith('text/html');
const storyIds = (body: string) => [...new Set([...body.matchAll(/href="\/stories\/(st_[A-Za-z0-9_-]+)\?/g)].map((m) => m[1]!))];

test('every page type answers HTML in the asked language under the site CSP; the JSON API and /docs keep theirs', async () => {
  const t = await createDemoTestApp({ RATE_LIMIT_PUBLIC_READS_PER_MINUTE: '100000' });
  try {
    const feed = await t.app.inject('/?lang=fr');
    const id = storyIds(feed.body)[0]!;
    const pages = [
      '/',
      '/?mode=graduated&room=local',
      `/stories/${id}`,
      `/stories/${id}/machine-room`,
      `/stories/${id}/versions`,
      '/ledger?filters=agent-review',
      '/rankings',
      '/developing',
      '/under-review',
      '/reward-window',
      '/search?q=&room=&state=&publicationStage=&reviewStatus=',
    ];
    for (const path of pages) {
      for (const lang of ['en', 'es', 'fr', 'de', 'zh-Hans']) {
        const url = `${path}${path.includes('?') ? '&' : '?'}lang=${lang}`;
        const res = await t.app.inject(url);
        assert.equal(res.statusCode, 200, url);
        assert.ok(html(res), url);
        assert.match(res.body, new RegExp(`^<!doctype html><html lang="${lang}">`), url);
        const csp = String(res.headers['content-security-policy']);
        assert.match(csp, /default-src 'none'/, url);
        assert.match(csp, /script-src 'self'(;|$)/, url);
        assert.doesNotMatch(res.body, /<script>|\son[a-z]+=|style="/i, `${url}: no inline script, handler or style`);
        for (const secret of [TEST_SECRET, TEST_API_KEY, TEST_OPS_TOKEN]) assert.ok(!res.body.includes(secret), `${url} leaks a secret`);
        assert.doesNotMatch(res.body, /\{[A-Za-z]+\}|>site\.[a-z]/, `${url}: an unfilled placeholder or catalogue key`);
      }
    }
    const json = await t.app.inject('/v1/feed');
    assert.match(String(json.headers['content-type']), /^application\/json/);
    assert.equal(json.headers['content-security-policy'], undefined, 'the JSON API is not a page');
    const docs = await t.app.inject('/docs');
    assert.equal(docs.statusCode, 200);
    assert.equal(docs.headers['content-security-policy'], undefined, 'the Swagger UI keeps its inline scripts');
    for (const asset of [...feed.body.matchAll(/(?:href|src)="(\/assets\/[^"]+)"/g)].map((m) => m[1]!)) {
      const res = await t.app.inject(asset);
      assert.equal(res.statusCode, 200, asset);
      assert.match(String(res.headers['cache-control']), /immutable/);
    }
  } finally {
    await t.close();
  }
});

/** A page's visible text: no head, no attributes, nothing folded in a details element (the codes kept for machines). */
const visibleText = (body: string) =>
  body
    .replace(/<head>[\s\S]*<\/head>/, '')
    .replace(/<details[\s\S]*?<\/details>/g, '')
    .replace(/<[^>]*>/g, ' ');
/** Codes for machines that a page's text never shows raw: states, review statuses, event types, action keys, ids, hashes. */
const RAW_CODES =
  /\b(CANDIDATE|PROVISIONAL|GRADUATED|EMERGING|CLEAR|CONTESTED|UNDER_REVIEW|RETRACTED|CORRECTION|RETRACTION|CHALLENGE|ALLOW|QUARANTINE|BLOCK|ACCEPT|REJECT|[A-Z]+_[A-Z_]+)\b|graduate:|flag_high_severity:|\bbot_[0-9a-f]{32}\b|\b[0-9a-f]{40,}\b|\bcl_[A-Za-z0-9_]+/;

test('no page of the demo newsroom shows a raw state, action key, bot id, claim id or hash in its text', async () => {
  const t = await createDemoTestApp({ RATE_LIMIT_PUBLIC_READS_PER_MINUTE: '100000' });
  try {
    const ids = storyIds((await t.app.inject('/?mode=recent&limit=50')).body);
    assert.ok(ids.length >= 5, 'the demo lists its stories');
    const pages = ['/', '/ledger', '/rankings', '/developing', '/under-review', '/reward-window', '/search'];
    for (const id of ids) pages.push(`/stories/${id}`, `/stories/${id}/machine-room`, `/stories/${id}/versions`);
    for (const lang of ['en', 'de']) {
      for (const path of pages) {
        const res = await t.app.inject(`${path}${path.includes('?') ? '&' : '?'}lang=${lang}`);
        assert.equal(res.statusCode, 200, path);
        const raw = RAW_CODES.exec(visibleText(res.body));
        assert.equal(raw, null, `${path}?lang=${lang} shows ${raw?.[0]}`);
      }
    }
  } finally {
    await t.close();
  }
});

test('bots are named, hashes folded, and counts written in the plural each language asks for', async () => {
  const r = await createReadsTestApp();
  try {
    const author = await r.factory.bot({ name: 'Harbour Desk' });
    const reviewer = await r.factory.bot({ name: 'Fact Checker Nine' });
    const story = await r.factory.story({ authorBotId: author, counts: { attestations: 1, objections: 0, comments: 21 } });
    const claims = ((await r.app.inject(`/v1/stories/${story.id}`)).json() as { claims: { id: string }[] }).claims;
    await r.factory.review(story, { botId: reviewer, claimIds: [claims[1]!.id] });
    const unnamed = `bot_${'c'.repeat(32)}`;
    await r.factory.review(story, { botId: unnamed, kind: 'OBJECTION' });

    const page = (await r.app.inject(`/stories/${story.id}`)).body;
    assert.ok(
      page.includes(`<a class="bot" href="/bots/${author}?lang=en" title="${author}">Harbour Desk</a>`),
      'the author by name, linked to its profile, its id on hover',
    );
    assert.ok(!visibleText(page).includes(author));
    assert.match(
      page,
      /<details class="reference"><summary>Fingerprint of version 1<\/summary><code class="hash">[0-9a-f]{64}<\/code><\/details>/,
    );
    assert.equal(
      (page.match(/Readers can read it while reviewing bots attest to it or object to it\./g) ?? []).length,
      1,
      'the stage is said once',
    );

    const room = (await r.app.inject(`/stories/${story.id}/machine-room`)).body;
    assert.ok(room.includes(`title="${reviewer}">Fact Checker Nine</a>`), 'a reviewer by name');
    assert.ok(room.includes(`title="${unnamed}">bot cccccc</a>`), 'a bot without a name by a short form of its id');
    assert.ok(room.includes(`title="${claims[1]!.id}">claim 2</a>`), 'a reviewed claim by its number');
    assert.ok(room.includes('<h2 id="attestations">1 attestation</h2>'));
    assert.ok(room.includes('<h2 id="objections">1 objection</h2>'));

    const cards: Record<string, string> = {
      en: '1 attestation · 0 objections · 21 comments',
      es: '1 atestación · 0 objeciones · 21 comentarios',
      fr: '1 attestation · 0 objection · 21 commentaires',
      de: '1 Attestierung · 0 Einwände · 21 Kommentare',
      'zh-Hans': '1 条证实 · 0 条异议 · 21 条评论',
    };
    for (const [lang, counts] of Object.entries(cards)) {
      const feed = (await r.app.inject(`/?lang=${lang}`)).body;
      assert.ok(feed.includes(counts), `${lang}: ${counts}`);
    }
    const fr = (await r.app.inject(`/stories/${story.id}?lang=fr`)).body;
    assert.ok(fr.includes('>0 signalement ou contestation</h2>'), 'French: 0 is singular');
  } finally {
    await r.close();
  }
});

test('text written by bots and readers is escaped on every page that shows it', async () => {
  const r = await createReadsTestApp();
  try {
    const hostile = '<script>alert("x")</script> & <img src=x onerror=alert(1)>';
    const story = await r.factory.story({
      title: `Ferry ${hostile}`,
      summary: `Summary ${hostile}`,
      body: `Body ${hostile}`,
      room: 'world',
    });
    await r.factory.comment(story.id, { body: `Comment ${hostile}` });
    await r.factory.revise(story, { title: `Ferry revised ${hostile}` });
    for (const url of [
      '/',
      `/stories/${story.id}`,
      `/stories/${story.id}/versions?from=1&to=2`,
      `/stories/${story.id}/machine-room`,
      '/search?q=Ferry',
    ]) {
      const res = await r.app.inject(url);
      assert.equal(res.statusCode, 200, url);
      assert.ok(!res.body.includes('<script>alert'), `${url} renders a script`);
      assert.ok(!res.body.includes('<img src=x'), `${url} renders an element`);
      assert.ok(
        res.body.includes('&lt;script>alert(&quot;x&quot;)&lt;/script> &amp; &lt;img src=x onerror=alert(1)>'),
        `${url} shows the text`,
      );
    }
  } finally {
    await r.close();
  }
});

test('the version diff marks the words a revision added and removed, between any two versions', async () => {
  const r = await createReadsTestApp();
  try {
    const story = await r.factory.story({ title: 'Council approves the harbour budget', body: 'The council met on Monday.' });
    const v2 = await r.factory.revise(story, { title: 'Council approves the ferry budget' });
    await r.factory.revise(v2, { body: 'The council met on Tuesday.' });
    const latest = await r.app.inject(`/stories/${story.id}/versions`);
    assert.equal(latest.statusCode, 200);
    assert.match(latest.body, /<del>Monday<\/del>/, 'by default the last revision: the body changed');
    assert.match(latest.body, /<ins>Tuesday<\/ins>/);
    const first = await r.app.inject(`/stories/${story.id}/versions?from=1&to=2&lang=de`);
    assert.match(first.body, /<del>harbour<\/del>/);
    assert.match(first.body, /<ins>ferry<\/ins>/);
    assert.ok(first.body.includes('Keine Änderung.'), 'an unchanged field says so, in German');
    const reversed = await r.app.inject(`/stories/${story.id}/versions?from=3&to=1`);
    assert.match(reversed.body, /<del>harbour<\/del>/, 'older to newer whatever the order asked');
    const missing = await r.app.inject(`/stories/${story.id}/versions?from=1&to=9`);
    assert.equal(missing.statusCode, 404);
    assert.ok(html(missing));
  } finally {
    await r.close();
  }
});

test('the feed and the ledger page through their cursors without repeating or losing an item', async () => {
  const r = await createReadsTestApp();
  try {
    const made = new Set<string>();
    for (let i = 0; i < 7; i++) {
      const story = await r.factory.story({ room: 'science', trendingScore: i });
      made.add(story.id);
      await r.factory.ledgerEvent(story.id, { type: 'UPDATE' });
    }
    await r.factory.story({ room: 'local' });
    for (const [start, list] of [
      ['/?mode=recent&room=science&limit=3', 'stories'],
      ['/?room=science&limit=2&lang=es', 'stories'],
    ] as const) {
      const seen: string[] = [];
      let url: string | undefined = start;
      while (url) {
        const res: LightMyRequestResponse = await r.app.inject(url);
        assert.equal(res.statusCode, 200, url);
        seen.push(...storyIds(res.body.slice(res.body.indexOf(`id="${list}"`))));
        url = /<a class="button" href="([^"]+)" data-more="stories"/.exec(res.body)?.[1]?.replaceAll('&amp;', '&');
      }
      assert.deepEqual(new Set(seen), made, start);
      assert.equal(seen.length, made.size, `${start}: no story twice`);
    }
    const events: string[] = [];
    let url: string | undefined = '/ledger?limit=3';
    while (url) {
      const res: LightMyRequestResponse = await r.app.inject(url);
      events.push(...storyIds(res.body.slice(res.body.indexOf('id="ledger-events"'))));
      url = /<a class="button" href="([^"]+)" data-more="ledger-events"/.exec(res.body)?.[1]?.replaceAll('&amp;', '&');
    }
    assert.equal(events.length, 7);
    assert.deepEqual(new Set(events), made);
  } finally {
    await r.close();
  }
});

test('a story page is served from the read cache until a signed write on that story, which shows at once', async () => {
  const t = await createTestApp({ RATE_LIMIT_PUBLIC_READS_PER_MINUTE: '100000' });
  try {
    const base = await t.listen();
    const nr = newsroomClient(base);
    const { storyId } = await nr.publishedStory();
    const page = `${base}/stories/${storyId}?lang=en`;
    const first = await fetch(page);
    assert.equal(first.status, 200);
    assert.equal(first.headers.get('x-read-cache'), 'miss');
    assert.equal((await fetch(page)).headers.get('x-read-cache'), 'hit');
    const comment = await nr.client.humanWrite(TEST_SECRET, `/v1/stories/${storyId}/comments`, {
      actorId: 'reader-site-1',
      verified: false,
      body: 'Seen on the reader site.',
    });
    assert.equal(comment.status, 202, JSON.stringify(comment.body));
    const after = await fetch(page);
    assert.equal(after.headers.get('x-read-cache'), 'miss');
    const body = await after.text();
    assert.ok(body.includes('Seen on the reader site.'));
    assert.ok(body.includes('>1 comment</h2>'), 'the heading counts the comment, in the singular');
  } finally {
    await t.close();
  }
});

test('dates and numbers are written the way each language writes them', async () => {
  const r = await createReadsTestApp();
  try {
    const story = await r.factory.story({ publishedAt: '2026-03-09T15:04:00.000Z' });
    const times = new Map<string, { exact: string; ago: string }>();
    for (const lang of ['en', 'de', 'zh-Hans']) {
      const res = await r.app.inject(`/stories/${story.id}?lang=${lang}`);
      // how long ago in words, the exact time (in UTC) on hover
      const [, exact = '', ago = ''] =
        /<time datetime="2026-03-09T15:04:00.000Z" title="([^"]+)" data-ago>([^<]+)<\/time>/.exec(res.body) ?? [];
      times.set(lang, { exact, ago });
    }
    assert.match(times.get('en')!.exact, /Mar 9, 2026.*03:04\sPM UTC/);
    assert.match(times.get('de')!.exact, /9\. März 2026.*15:04 UTC/);
    assert.match(times.get('zh-Hans')!.exact, /2026年3月9日/);
    assert.match(times.get('en')!.ago, /^(\d+ (seconds?|minutes?|hours?|days?|months?|years?) ago|yesterday|last \w+)$/);
    assert.match(times.get('de')!.ago, /^(vor \d+ \p{L}+|gestern|letzte[nsr]? \p{L}+)$/u);
    assert.match(times.get('zh-Hans')!.ago, /(前|昨天|上个月|去年)$/);
  } finally {
    await r.close();
  }
});

test('a refused page is an HTML page with its status in the asked language, and no query makes a page fail', async () => {
  const r = await createReadsTestApp();
  try {
    const story = await r.factory.story();
    const unknown = await r.app.inject('/stories/st_nothing_here?lang=es');
    assert.equal(unknown.statusCode, 404);
    assert.ok(html(unknown));
    assert.ok(unknown.body.includes('No encontrado'));
    const extra = await r.app.inject('/?lang=de&debug=1');
    assert.equal(extra.statusCode, 400);
    assert.ok(extra.body.includes('<html lang="de">'));
    const paths = ['/', `/stories/${story.id}`, `/stories/${story.id}/versions`, '/ledger', '/search', '/rankings', '/developing'];
    const value = fc.oneof(
      fc.string(),
      fc.constantFrom('', 'en', 'zh-Hans', 'recent', 'graduated', 'science', '0', '-1', '99999999999', 'W10.AAAA', '%', '<b>'),
    );
    const name = fc.constantFrom('lang', 'mode', 'room', 'cursor', 'limit', 'from', 'to', 'filters', 'q', 'state', 'reviewStatus', 'x');
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...paths), fc.array(fc.tuple(name, value), { maxLength: 4 }), async (path, params) => {
        const query = params.map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join('&');
        const res = await r.app.inject(`${path}?${query}`);
        assert.ok([200, 400, 404].includes(res.statusCode), `${path}?${query}: ${res.statusCode}`);
        assert.ok(html(res), `${path}?${query}`);
      }),
      { numRuns: fuzzRuns(300) },
    );
  } finally {
    await r.close();
  }
});
