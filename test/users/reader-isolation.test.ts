import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { fuzzRuns } from '../helpers/fuzz.js';
import { newsroomClient } from '../helpers/newsroom.js';
import type { Json } from '../helpers/json.js';
import { allBookmarkPages, readerAs, type Reader } from './reader-helpers.js';

const STORIES = 4;
const WORDS = ['Climate', 'ferry', 'Café', 'élection', 'space race'];

/** A spelling of one of WORDS: any case, decomposed or not, with stray whitespace. */
const topicSpelling = fc
  .record({ word: fc.constantFrom(...WORDS), upper: fc.boolean(), nfd: fc.boolean(), pad: fc.constantFrom('', ' ', '\t ', '  \n') })
  .map(({ word, upper, nfd, pad }) => {
    const cased = upper ? word.toUpperCase() : word;
    return `${pad}${nfd ? cased.normalize('NFD') : cased}${pad}`;
  });

type Op = { op: 'bookmark' | 'unbookmark' | 'read'; story: number } | { op: 'follow' | 'unfollow'; topic: string };
const operation: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ op: fc.constantFrom('bookmark' as const, 'unbookmark' as const, 'read' as const), story: fc.nat(STORIES - 1) }),
  fc.record({ op: fc.constantFrom('follow' as const, 'unfollow' as const), topic: topicSpelling }),
);

/** Two different actor ids (docs/api-conventions.md, "Identifiers"), often one a prefix or a case variant of the other. */
const actorName = fc.stringMatching(/^[A-Za-z0-9_:@-]{1,30}$/);
const actorPair = fc
  .oneof(
    fc.tuple(actorName, actorName),
    actorName.map((n) => [n, `${n}x`] as [string, string]),
    actorName.map((n) => [n, n.toUpperCase() === n ? n.toLowerCase() : n.toUpperCase()] as [string, string]),
  )
  .filter(([x, y]) => x !== y);

let runCounter = 0;

describe('one reader never sees or changes another reader’s data', () => {
  let t: TestApp;
  let newsroom: ReturnType<typeof newsroomClient>;
  const stories: string[] = [];

  before(async () => {
    t = await createTestApp({ RATE_LIMIT_PUBLIC_READS_PER_MINUTE: '100000', RATE_LIMIT_HUMAN_WRITES_PER_MINUTE: '100000' });
    newsroom = newsroomClient(await t.listen());
    for (let i = 0; i < STORIES; i += 1) stories.push((await newsroom.publishedStory()).storyId);
  });
  after(() => t.close());

  async function apply(reader: Reader, op: Op): Promise<void> {
    const res =
      'topic' in op
        ? await (op.op === 'follow' ? reader.follow(op.topic) : reader.unfollow(op.topic))
        : await (op.op === 'bookmark'
            ? reader.bookmark(stories[op.story]!)
            : op.op === 'unbookmark'
              ? reader.unbookmark(stories[op.story]!)
              : reader.readStory(stories[op.story]!));
    assert.ok(res.status === 200 || res.status === 202, `${JSON.stringify(op)}: ${res.status} ${JSON.stringify(res.body)}`);
  }

  /** What a reader holds, through the list routes and through the export. */
  async function holdings(reader: Reader) {
    const bookmarks = (await allBookmarkPages(reader, 3)).map((b) => b.storyId as string);
    const topics = ((await reader.topics()).body.items as Json[]).map((x) => x.topic as string);
    const exported = (await reader.export()).body;
    return {
      bookmarks: bookmarks.sort(),
      topics: topics.sort(),
      exported: {
        bookmarks: (exported.sections.bookmarks as Json[]).map((b) => b.storyId as string).sort(),
        topics: (exported.sections.topics as Json[]).map((x) => x.topic as string).sort(),
        history: (exported.sections.history.items as Json[]).map((h) => h.storyId as string).sort(),
      },
      actorId: exported.actorId as string,
    };
  }

  test('random pairs of readers doing random things: each sees exactly their own, and the export holds every listed item', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.record({ who: fc.constantFrom('a' as const, 'b' as const), op: operation }), { maxLength: 14 }),
        fc.boolean(),
        actorPair,
        async (steps, bHistory, [aName, bName]) => {
          // the run number keeps runs apart (they share the database); the names are the random part
          runCounter += 1;
          const a = readerAs(newsroom.client, `${aName}.${runCounter}`);
          const b = readerAs(newsroom.client, `${bName}.${runCounter}`);
          await a.preferences({ personalization: true });
          await b.preferences({ personalization: bHistory });
          // the model: what each reader should hold
          const model = {
            a: { bookmarks: new Set<string>(), topics: new Set<string>(), history: new Set<string>() },
            b: { bookmarks: new Set<string>(), topics: new Set<string>(), history: new Set<string>() },
          };
          for (const { who, op } of steps) {
            await apply(who === 'a' ? a : b, op);
            const m = model[who];
            if (op.op === 'bookmark') m.bookmarks.add(stories[op.story]!);
            if (op.op === 'unbookmark') m.bookmarks.delete(stories[op.story]!);
            if (op.op === 'read' && (who === 'a' || bHistory)) m.history.add(stories[op.story]!);
            const key = 'topic' in op ? op.topic.normalize('NFC').toLowerCase().trim() : '';
            if (op.op === 'follow') m.topics.add(key);
            if (op.op === 'unfollow') m.topics.delete(key);
          }
          for (const [who, reader] of [
            ['a', a],
            ['b', b],
          ] as const) {
            const held = await holdings(reader);
            const m = model[who];
            assert.equal(held.actorId, reader.actorId);
            assert.deepEqual(held.bookmarks, [...m.bookmarks].sort(), `${who} bookmarks`);
            assert.deepEqual(held.topics, [...m.topics].sort(), `${who} topics`);
            assert.deepEqual(held.exported.history, [...m.history].sort(), `${who} history`);
            // the export holds every bookmark and topic the list routes return
            assert.deepEqual(held.exported.bookmarks, held.bookmarks);
            assert.deepEqual(held.exported.topics, held.topics);
          }
          // B cannot remove A's bookmarks, topics or history: B's deletes and clear touch B only
          const aBefore = await holdings(a);
          for (const id of aBefore.bookmarks) assert.equal((await b.unbookmark(id)).body.removed, model.b.bookmarks.delete(id));
          for (const topic of aBefore.topics) assert.equal((await b.unfollow(topic)).body.removed, model.b.topics.delete(topic));
          const cleared = await b.clearHistory();
          assert.equal(cleared.body.cleared, model.b.history.size);
          assert.deepEqual(await holdings(a), aBefore);
        },
      ),
      { numRuns: fuzzRuns(40, 4) },
    );
  });
});
