import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createDemoTestApp } from '../helpers/app.js';
import { flashOf, siteBrowser } from '../helpers/site-browser.js';

/** Display names and profiles on the reader site; no page shows an account, linked-human or bot id in its text. */

const storyIds = (body: string) => [...new Set([...body.matchAll(/href="\/stories\/(st_[A-Za-z0-9_-]+)\?/g)].map((m) => m[1]!))];
/** A page's visible text: no head, no attributes, nothing folded in a details element. */
const visibleText = (body: string) =>
  body
    .replace(/<head>[\s\S]*<\/head>/, '')
    .replace(/<details[\s\S]*?<\/details>/g, '')
    .replace(/<[^>]*>/g, ' ');
const RAW_IDS = /\bacct_[0-9a-z]{8,}|\bh_[0-9a-f]{32}\b|\bbot_[0-9a-f]{32}\b/;

test('a reader chooses a name (a taken one is refused in words), comments under it, and their profile lists the comment', async () => {
  const t = await createDemoTestApp({ RATE_LIMIT_PUBLIC_READS_PER_MINUTE: '100000', HUMAN_PROOF_VERIFIER: 'dev' });
  try {
    const id = storyIds((await t.app.inject('/?lang=en&mode=recent')).body)[0]!;
    const story = `/stories/${id}?lang=en`;

    const bea = siteBrowser(t.app);
    await bea.devLogin('bea');
    await bea.get('/me/name?lang=en');
    assert.equal(
      (await bea.post('/me/name', { _csrf: bea.csrf(), lang: 'en', back: '/?lang=en', name: 'Harbour Watcher' })).statusCode,
      303,
    );

    const alice = siteBrowser(t.app);
    await alice.devLogin('alice');
    const before = await alice.get(story);
    assert.match(before.body, /href="\/me\/name\?lang=en&amp;next=[^"]+">Choose a name before your first comment\./);
    // a taken name (in another case) comes back as a sentence on the name page, in the page's language
    await alice.get('/me/name?lang=de');
    const taken = await alice.post('/me/name', { _csrf: alice.csrf(), lang: 'de', back: story, name: 'harbour watcher' });
    assert.equal(taken.statusCode, 303);
    assert.match(String(taken.headers.location), /^\/me\/name\?lang=de&next=/);
    assert.equal(flashOf((await alice.get(String(taken.headers.location))).body), 'Dieser Name ist vergeben: Wählen Sie einen anderen.');
    const reserved = await alice.post('/me/name', { _csrf: alice.csrf(), lang: 'en', back: story, name: 'Adm1n' });
    assert.equal(
      flashOf((await alice.get(String(reserved.headers.location))).body),
      'That name is reserved: it looks like a staff role. Choose another one.',
    );
    const chosen = await alice.post('/me/name', { _csrf: alice.csrf(), lang: 'en', back: story, name: 'Alice Ferreira' });
    assert.equal(chosen.headers.location, story, 'on to where she was going');

    await alice.get(story);
    const commented = await alice.post(`/stories/${id}/comment`, {
      _csrf: alice.csrf(),
      lang: 'en',
      back: story,
      body: 'Checked the tide tables.',
    });
    assert.equal(commented.statusCode, 303);
    const page = (await t.app.inject(story)).body;
    assert.match(page, /<a class="person" href="\/people\/Alice%20Ferreira\?lang=en">Alice Ferreira<\/a>/, 'the name links to the profile');

    const profile = await t.app.inject('/people/alice%20ferreira?lang=en');
    assert.equal(profile.statusCode, 200, 'any case finds the person');
    assert.match(profile.body, /<h1>Alice Ferreira<\/h1>/);
    assert.ok(profile.body.includes('Checked the tide tables.'), 'the profile lists the comment');
    assert.ok(profile.body.includes(`href="/stories/${id}?lang=en#comment-`), 'with a link to its story');
    assert.equal((await t.app.inject('/people/Nobody%20Here?lang=en')).statusCode, 404);

    const me = (await alice.get('/me?lang=en')).body;
    assert.match(me, /You appear as <a class="person" href="\/people\/Alice%20Ferreira\?lang=en">Alice Ferreira<\/a>/);

    // no page shows a raw id in its text: public pages, profiles, and the reader's own pages
    const botId = /href="\/bots\/([^?"]+)\?/.exec((await t.app.inject('/rankings?lang=en')).body)?.[1];
    assert.ok(botId, 'the rankings link each bot to its profile');
    const bot = await t.app.inject(`/bots/${botId}?lang=en`);
    assert.equal(bot.statusCode, 200);
    assert.match(bot.body, /Rank 1 in this week’s rankings|Not in this week’s rankings|Rank \d+/);
    const pages = [
      '/?lang=en',
      story,
      `/stories/${id}/machine-room?lang=en`,
      `/stories/${id}/versions?lang=en`,
      '/search?lang=en&q=tide',
      '/rankings?lang=en',
      '/ledger?lang=en',
      '/people/Alice%20Ferreira?lang=en',
      `/bots/${botId}?lang=en`,
      '/how-it-works?lang=en',
      '/developing?lang=en',
      '/under-review?lang=en',
      '/reward-window?lang=en',
    ];
    for (const path of pages) {
      for (const visitor of [null, alice]) {
        const res = visitor ? await visitor.get(path) : await t.app.inject(path);
        assert.equal(res.statusCode, 200, path);
        const raw = RAW_IDS.exec(visibleText(res.body));
        assert.equal(raw, null, `${path} shows ${raw?.[0]}`);
      }
    }
    for (const path of [
      '/me?lang=en',
      '/me/name?lang=en',
      '/me/activity?lang=en',
      '/me/notifications?lang=en',
      '/me/history/clear?lang=en',
    ]) {
      const res = await alice.get(path);
      assert.equal(res.statusCode, 200, path);
      if (path.startsWith('/me?')) assert.ok(RAW_IDS.test(res.body), `${path}: the account id is on the page, folded`);
      const raw = RAW_IDS.exec(visibleText(res.body));
      assert.equal(raw, null, `${path} shows ${raw?.[0]}`);
    }
  } finally {
    await t.close();
  }
});
