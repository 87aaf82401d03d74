import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Locator } from 'playwright-core';
import { governanceApp, type GovernanceApp } from '../governance/support.js';
import { newsroomClient } from '../helpers/newsroom.js';
import type { Json } from '../helpers/json.js';
import { checkPage, needsChromium, openBrowser, type Browser } from './browser.js';

/**
 * "People first", counted: from the story page a logged-in reader comments, replies, votes, changes the vote,
 * flags, bookmarks, follows the room and sees what became of their flag, each in at most two clicks, at a phone's
 * (390 px) and a desktop's (1280 px) width, in a real browser (Debian's Chromium through playwright-core). Every
 * action starts from the story page loaded by its address; typing text is not a click, pressing a button, a
 * summary or a link is. The flag keeps the form's default severity (choosing another is a choice in a list, like
 * typing).
 */
const skip = needsChromium();
let g: GovernanceApp;
let base: string;
let browser: Browser;
let storyId = '';
let othersComment = '';

before(async () => {
  if (skip) return;
  g = await governanceApp({ HUMAN_PROOF_VERIFIER: 'dev', RATE_LIMIT_UNVERIFIED_WRITES_PER_MINUTE: '100000' });
  storyId = (await newsroomClient(g.t.baseUrl).publishedStory({ title: 'Harbour bridge closes for repairs' })).storyId;
  const posted = await g.post<Json>('reader', `/v1/stories/${storyId}/comments`, { body: 'How long will it stay closed?' });
  assert.equal(posted.status, 202, JSON.stringify(posted.body));
  othersComment = posted.body.id as string;
  base = g.t.baseUrl;
  browser = await openBrowser({ width: 390, height: 900 });
});

after(async () => {
  if (skip) return;
  await browser.close();
  await g.t.close();
});

/** The clicks of one action, counted from the story page. */
function counter() {
  let clicks = 0;
  return {
    click: async (target: Locator) => {
      clicks += 1;
      await target.click();
    },
    get clicks() {
      return clicks;
    },
  };
}

/**
 * Runs one action from the story page and asserts it took at most two clicks and that its result is then visible.
 */
async function fromStoryPage(name: string, act: (c: ReturnType<typeof counter>) => Promise<Locator>) {
  await browser.page.goto(`${base}/stories/${storyId}?lang=en`);
  const c = counter();
  const result = await act(c);
  assert.ok(c.clicks <= 2, `${name}: ${c.clicks} clicks`);
  assert.ok(c.clicks >= 1, `${name}: counted`);
  assert.ok(await result.isVisible(), `${name}: the result is visible`);
}

async function logIn(testName: string, displayName: string) {
  const { page } = browser;
  await page.goto(`${base}/login?lang=en&next=${encodeURIComponent(`/stories/${storyId}?lang=en`)}`);
  await page.getByLabel('Your test name').fill(testName);
  await page.getByRole('button', { name: 'Log in (development)' }).click();
  if (new URL(page.url()).pathname === '/me/name') {
    await page.getByLabel('Display name').fill(displayName);
    await page.locator('form[action="/me/name"] button[type="submit"]').click();
  }
  assert.equal(new URL(page.url()).pathname, `/stories/${storyId}`);
}

const logOut = () => browser.page.getByRole('button', { name: 'Log out' }).click();

const widths = [390, 1280] as const;

test('from the story page, every reader action takes at most two clicks, at 390 and 1280 px', { skip }, async () => {
  const { page } = browser;
  const actions = () => page.locator('section.actions');
  const flash = () => page.locator('.flash');
  const item = (id: string) => page.locator(`li#comment-${id}`);

  for (const width of widths) {
    await page.setViewportSize({ width, height: 900 });
    await logIn(`clicks-${width}`, `Clicker ${width}`);

    await fromStoryPage(`comment at ${width}`, async (c) => {
      await page.getByLabel('Your comment').fill(`A comment at ${width} px.`);
      await c.click(page.getByRole('button', { name: 'Post the comment' }));
      assert.equal(await flash().innerText(), 'Your comment is posted.');
      return page.locator('.comment-body', { hasText: `A comment at ${width} px.` });
    });

    await fromStoryPage(`reply at ${width}`, async (c) => {
      await c.click(item(othersComment).locator('summary', { hasText: 'Reply' }).first());
      await item(othersComment).getByLabel('Your reply', { exact: true }).first().fill(`Three weeks, at ${width} px.`);
      await c.click(item(othersComment).getByRole('button', { name: 'Post the reply' }).first());
      assert.equal(await flash().innerText(), 'Your reply is posted.');
      return item(othersComment).locator('li.comment .comment-body', { hasText: `Three weeks, at ${width} px.` });
    });

    await fromStoryPage(`vote at ${width}`, async (c) => {
      await c.click(page.getByRole('button', { name: 'Reward', exact: true }));
      assert.match(await flash().innerText(), /^Your vote is recorded with weight \d+\.$/);
      return actions().locator('#my-vote strong', { hasText: 'You voted “Reward”' });
    });

    await fromStoryPage(`change the vote at ${width}`, async (c) => {
      await c.click(page.locator('#my-vote summary', { hasText: 'Change' }));
      await c.click(page.locator('#my-vote').getByRole('button', { name: 'Do not reward' }));
      assert.match(await flash().innerText(), /^Your vote is changed: weight \d+\.$/);
      return actions().locator('#my-vote strong', { hasText: 'You voted “Do not reward”' });
    });

    await fromStoryPage(`flag at ${width}`, async (c) => {
      await page.getByLabel('What is wrong').fill(`The bridge reopens in May, not June (${width} px).`);
      await c.click(page.getByRole('button', { name: 'Send the flag' }));
      assert.equal(await flash().innerText(), 'Your flag is recorded.');
      return actions().getByText('You flagged this');
    });

    await fromStoryPage(`bookmark at ${width}`, async (c) => {
      await c.click(page.getByRole('button', { name: 'Bookmark this story' }));
      assert.equal(await flash().innerText(), 'The story is bookmarked.');
      return actions().getByText('Bookmarked', { exact: true });
    });

    await fromStoryPage(`follow at ${width}`, async (c) => {
      const follow = page.getByRole('button', { name: /^Follow the room / });
      const room = (await follow.innerText()).replace('Follow the room ', '');
      await c.click(follow);
      assert.equal(await flash().innerText(), `You follow ${room}.`);
      return actions().getByText(`Following ${room}`);
    });
    await logOut();
  }

  // what the service recorded: one vote each (changed), one flag each, both bookmarks
  const db = g.t.app.ctx.database.db;
  const votes = await db.selectFrom('reward_votes').select('vote').where('story_id', '=', storyId).execute();
  assert.deepEqual(
    votes.map((v) => v.vote),
    ['DOWN', 'DOWN'],
  );
  assert.equal((await db.selectFrom('flags').select('id').where('story_id', '=', storyId).execute()).length, 2);
  assert.equal((await db.selectFrom('user_bookmarks').select('actor_id').where('story_id', '=', storyId).execute()).length, 2);

  // a content admin corrects the story: from the story page, one click shows what became of the flag
  const note = 'The bridge reopens in May.';
  const corrected = await g.post<Json>('admin', `/v1/admin/stories/${storyId}/correction`, {
    changes: { summary: 'The harbour bridge is closed until May.' },
    note,
  });
  assert.equal(corrected.status, 202, JSON.stringify(corrected.body));
  for (const width of widths) {
    await page.setViewportSize({ width, height: 900 });
    await logIn(`clicks-${width}`, `Clicker ${width}`);
    await fromStoryPage(`what became of my flag at ${width}`, async (c) => {
      await c.click(page.getByRole('link', { name: 'My activity', exact: true }));
      assert.equal(new URL(page.url()).pathname, '/me/activity');
      return page.locator('section[aria-labelledby="my-flags"]').getByText(`The story was corrected since: ${note}`);
    });
    await logOut();
  }
});

/** An account, linked-human or bot id (see names-profiles.test.ts). */
const RAW_IDS = /\bacct_[0-9a-z]{8,}|\bh_[0-9a-f]{32}\b|\bbot_[0-9a-f]{32}\b/;

test('every page of the site passes checkPage (axe-core among its checks) at 390 and 1280 px, logged out and in', { skip }, async () => {
  const { page } = browser;
  await page.goto(`${base}/rankings?lang=en`);
  const bot = await page.locator('a[href^="/bots/"]').first().getAttribute('href');
  assert.ok(bot, 'the rankings link a bot');
  const story = `/stories/${storyId}`;
  const pages = [
    '/?lang=en',
    `${story}?lang=en`,
    `${story}/machine-room?lang=en`,
    `${story}/versions?lang=en`,
    `${story}/versions?lang=en&from=1&to=1`,
    '/ledger?lang=en',
    '/rankings?lang=en',
    '/how-it-works?lang=en',
    '/developing?lang=en',
    '/under-review?lang=en',
    '/reward-window?lang=en',
    '/search?lang=en&q=bridge',
    '/people/Clicker%20390?lang=en',
    `${bot}`,
  ];
  const own = ['/me?lang=en', '/me/name?lang=en', '/me/activity?lang=en', '/me/notifications?lang=en', '/me/history/clear?lang=en'];
  for (const width of widths) {
    await page.setViewportSize({ width, height: 900 });
    for (const [who, paths] of [
      ['anonymous', [...pages, '/login?lang=en']],
      ['logged-in', [...pages, ...own]],
    ] as const) {
      if (who === 'logged-in') await logIn('clicks-390', 'Clicker 390');
      for (const path of paths) {
        const response = await page.goto(`${base}${path}`);
        assert.equal(response?.status(), 200, path);
        const name = `every-${who}-${width}-${path.replace(/[^a-z0-9]+/gi, '-')}`;
        assert.deepEqual(await checkPage(browser, name), [], `${path} (${who}) at ${width} px`);
        // what a person reads: no id outside a details element or a title attribute
        const text = await page.evaluate(() => {
          const body = document.body.cloneNode(true) as HTMLElement;
          for (const folded of body.querySelectorAll('details')) folded.remove();
          return body.innerText;
        });
        if (path === '/me?lang=en') assert.ok(RAW_IDS.test(await page.content()), 'My newsroom folds the account id: the scan sees ids');
        const raw = RAW_IDS.exec(text);
        assert.equal(raw, null, `${path} (${who}) shows ${raw?.[0]}`);
      }
      if (who === 'logged-in') await logOut();
    }
  }
});
