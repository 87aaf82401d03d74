import assert from 'node:assert/strict';
import { test } from 'node:test';
import { XMLValidator } from 'fast-xml-parser';
import { createTestApp } from '../helpers/app.js';
import { newsroomClient } from '../helpers/newsroom.js';
import { newsroomFactory } from '../helpers/newsroom-factory.js';
import { carried, exactXmlParser, isXmlChar } from '../helpers/xml.js';

/**
 * What bots write reaches the Atom feeds as text, whatever it holds: a title or summary made to close its element
 * and add a link of its own, or to leave the document unbalanced, is read back by an XML parser as the same
 * text, and each entry still has one link, to the story on this site.
 */

const BASE = 'https://news.example';
/** Closes the title and adds an entry link to another site, in a document that stays well-formed. */
const INJECTED = 'X]]>]]></title><link rel="alternate" href="https://evil.example/phish"/><title type="html"><![CDATA[X';
/** Leaves the document unbalanced, with characters XML cannot carry and whitespace an XML parser would change. */
const UNBALANCED = 'Breaking]]></title></entry><entry><![CDATA[ & <b>bold</b> \u0001\u000b\uffff "quoted" \'single\'\r\n\tend';
const SUMMARY = '</summary><link href="https://evil.example/summary"/><summary>]]><!-- & \u0008 --> \ud83d\ude00 &amp; end';
/** A bot's name is not in the feeds (they name no author); made hostile all the same. */
const BOT_NAME = 'Bot]]></name><uri>https://evil.example/bot</uri><name><![CDATA[';
/** A room the API refuses (rooms are slugs), as a stored row could still hold it. */
const ROOM = 'science"/><link href="https://evil.example/room"/><category term="x]]>';

type Entry = {
  id: string[];
  title: Record<string, string>[];
  link: Record<string, string>[];
  summary: Record<string, string>[];
  category: Record<string, string>[];
};

/** The feed document, checked well-formed and free of CDATA and of characters XML cannot carry. */
function feedOf(body: string) {
  assert.equal(XMLValidator.validate(body), true, body);
  assert.ok(!body.includes('<![CDATA['), 'no CDATA section');
  assert.ok(
    [...body].every((ch) => isXmlChar(ch.codePointAt(0)!)),
    'only characters XML can carry',
  );
  const parser = exactXmlParser(['entry', 'id', 'title', 'link', 'summary', 'category']);
  return (parser.parse(body) as { feed: { title: unknown[]; link: Record<string, string>[]; entry: Entry[] } }).feed;
}

test('hostile titles, summaries, bot names and rooms stay text in the Atom feeds, each entry linking to its story only', async () => {
  const t = await createTestApp({ PUBLIC_BASE_URL: BASE, RATE_LIMIT_PUBLIC_READS_PER_MINUTE: '100000' });
  try {
    const base = await t.listen();
    const nr = newsroomClient(base);
    const author = await nr.joinBot(BOT_NAME);
    const stories = new Map<string, { title: string; summary: string; room: string }>();
    for (const title of [INJECTED, UNBALANCED]) {
      const candidate = await nr.submit(author, { room: 'world', title, summary: SUMMARY });
      assert.equal((await nr.publish(candidate.hash)).body.decision, 'ALLOW');
      stories.set(`${BASE}/stories/${candidate.storyId}?lang=en`, { title, summary: SUMMARY, room: 'world' });
    }
    const refused = await nr.client.agentWrite(author, '/v1/candidates', {
      botId: author.botId,
      verified: false,
      ...nr.packet({ room: ROOM }),
    });
    assert.equal(refused.status, 400, 'the API takes rooms as slugs only');
    const seeded = await newsroomFactory(t.app.ctx.database.db).story({ room: ROOM, title: 'A room of its own', summary: 'Seeded.' });
    stories.set(`${BASE}/stories/${seeded.id}?lang=en`, { title: 'A room of its own', summary: 'Seeded.', room: ROOM });

    for (const path of ['/feed.atom?lang=en', '/rooms/world/feed.atom?lang=fr']) {
      const res = await fetch(`${base}${path}`);
      assert.equal(res.status, 200, path);
      const feed = feedOf(await res.text());
      assert.equal(feed.title.length, 1, path);
      assert.deepEqual(
        feed.link.map((l) => l['@_rel']),
        ['alternate', 'self'],
        path,
      );
      const expected = [...stories].filter(([, s]) => path === '/feed.atom?lang=en' || s.room === 'world');
      assert.deepEqual(new Set(feed.entry.map((e) => e.id[0])), new Set(expected.map(([url]) => url)), path);
      for (const entry of feed.entry) {
        const story = stories.get(entry.id[0]!)!;
        assert.equal(entry.id.length, 1);
        assert.deepEqual(
          entry.link.map((l) => l['@_href']),
          [entry.id[0]],
          `${path}: one link, to the story on this site`,
        );
        assert.equal(entry.title.length, 1, path);
        assert.equal(entry.title[0]!['#text'], carried(story.title), path);
        assert.equal(entry.summary.length, 1, path);
        assert.equal(entry.summary[0]!['#text'], carried(story.summary), path);
        assert.deepEqual(
          entry.category.map((c) => c['@_term']),
          [story.room],
          path,
        );
      }
    }
    assert.equal((await fetch(`${base}/rooms/${encodeURIComponent(ROOM)}/feed.atom`)).status, 400, 'a room feed takes a slug only');
  } finally {
    await t.close();
  }
});
