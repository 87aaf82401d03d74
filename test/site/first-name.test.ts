import assert from 'node:assert/strict';
import { test } from 'node:test';
import { t as label } from '../../src/web/words/index.js';
import { createDemoTestApp } from '../helpers/app.js';
import { flashOf, siteBrowser } from '../helpers/site-browser.js';

/**
 * A person's name at their first login: the login lands on the name page, which keeps the page they came from
 * and goes on to it once they chose; a reader without a name who comments is sent to choose one first, and
 * nothing is posted until then. A person who has a name logs in straight back to where they were.
 */
test('a first login lands on the name page and goes on to the page it came from; a nameless comment waits for a name', async () => {
  const t = await createDemoTestApp({ HUMAN_PROOF_VERIFIER: 'dev', RATE_LIMIT_PUBLIC_READS_PER_MINUTE: '100000' });
  try {
    const id = /href="\/stories\/(st_[A-Za-z0-9_-]+)\?/.exec((await t.app.inject('/?lang=en&mode=recent')).body)![1]!;
    const story = `/stories/${id}?lang=en`;
    const alice = siteBrowser(t.app);

    await alice.get(`/login?lang=en&next=${encodeURIComponent(story)}`);
    const login = await alice.post('/login/dev', { _csrf: alice.csrf(), lang: 'en', back: story, name: 'first-timer' });
    assert.equal(login.statusCode, 303);
    assert.equal(login.headers.location, `/me/name?lang=en&next=${encodeURIComponent(story)}`);
    const namePage = await alice.get(String(login.headers.location));
    assert.equal(namePage.statusCode, 200);
    assert.match(namePage.body, new RegExp(`name="back" value="${story.replace(/[?]/g, '\\?')}"`), 'the page it came from is kept');

    // skipping the name and commenting: sent to the name page, with the reason; nothing posted
    await alice.get(story);
    const comment = await alice.post(`/stories/${id}/comment`, { _csrf: alice.csrf(), lang: 'en', back: story, body: 'Nameless words.' });
    assert.equal(comment.statusCode, 303);
    assert.equal(comment.headers.location, `/me/name?lang=en&next=${encodeURIComponent(story)}`);
    const sent = await alice.get(String(comment.headers.location));
    assert.equal(flashOf(sent.body), label('en', 'account.refused.NAME_NEEDED'));
    assert.doesNotMatch((await alice.get(story)).body, /Nameless words\./);

    // chosen: back on the story, where the comment now goes through under the name
    const named = await alice.post('/me/name', { _csrf: alice.csrf(), lang: 'en', back: story, name: 'Alice Marsh' });
    assert.equal(named.headers.location, story);
    const posted = await alice.submit(story, `/stories/${id}/comment`, { body: 'Named words.' });
    assert.equal(flashOf(posted.page.body), 'Your comment is posted.');
    assert.match(posted.page.body, /Alice Marsh/);

    // a person with a name logs in straight back to the page
    await alice.get('/me?lang=en');
    await alice.post('/logout', { _csrf: alice.csrf(), lang: 'en', back: '/?lang=en' });
    await alice.get('/login?lang=en');
    const again = await alice.post('/login/dev', { _csrf: alice.csrf(), lang: 'en', back: story, name: 'first-timer' });
    assert.equal(again.headers.location, story);

    // the console's staff choose theirs too on the way (the console names the people who file and approve)
    const staff = siteBrowser(t.app, '203.0.113.78');
    await staff.get('/login?lang=en');
    const toConsole = await staff.post('/login/dev', { _csrf: staff.csrf(), lang: 'en', back: '/console?lang=en', name: 'staffer' });
    assert.equal(toConsole.headers.location, `/me/name?lang=en&next=${encodeURIComponent('/console?lang=en')}`);

    // in the reader's language: a German first login and the German reason
    const bea = siteBrowser(t.app, '203.0.113.77');
    await bea.get('/login?lang=de');
    const de = await bea.post('/login/dev', { _csrf: bea.csrf(), lang: 'de', back: `/stories/${id}?lang=de`, name: 'bea' });
    assert.equal(de.headers.location, `/me/name?lang=de&next=${encodeURIComponent(`/stories/${id}?lang=de`)}`);
    await bea.get(`/stories/${id}?lang=de`);
    const deComment = await bea.post(`/stories/${id}/comment`, {
      _csrf: bea.csrf(),
      lang: 'de',
      back: `/stories/${id}?lang=de`,
      body: 'x',
    });
    assert.equal(flashOf((await bea.get(String(deComment.headers.location))).body), label('de', 'account.refused.NAME_NEEDED'));
  } finally {
    await t.close();
  }
});
