import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { KyselyPlugin } from 'kysely';
import { createStoriesService } from '../../src/newsroom/stories/service.js';
import { createReadsTestApp, type ReadsTestApp, type SeededStory } from '../helpers/newsroom-factory.js';
import type { Json } from '../helpers/json.js';

/**
 * Story details read together (the misses of a read-cache refill) share one statement
 * (src/platform/db/bulk/statement-batcher.ts): each request still gets its own story, and an unknown or hidden one
 * its own 404.
 */
describe('story details read together', () => {
  let t: ReadsTestApp;
  let stories: SeededStory[];
  let hidden: SeededStory;
  before(async () => {
    t = await createReadsTestApp();
    stories = [];
    for (let i = 0; i < 8; i++) {
      stories.push(
        await t.factory.story({
          title: `Together ${i}`,
          sources: [
            { url: `https://example.org/together-${i}-a`, title: `Report ${i}` },
            { url: `https://example.org/together-${i}-b`, publisher: `Publisher ${i}` },
          ],
        }),
      );
    }
    hidden = await t.factory.story({ title: 'Hidden', moderation: 'BLOCKED' });
  });
  after(() => t.close());

  test('eight stories, a hidden one and an unknown one at once: each answer is its own', async () => {
    const ids = [...stories.map((s) => s.id), hidden.id, 'st_unknown_together'];
    const answers = await Promise.all(ids.map((id) => t.get<Json>(`/v1/stories/${id}`)));
    stories.forEach((story, i) => {
      const answer = answers[i]!;
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      assert.equal(answer.body.id, story.id);
      assert.equal(answer.body.title, `Together ${i}`);
      const sources = answer.body.sources as { url: string }[];
      assert.deepEqual(
        sources.map((s) => s.url),
        [`https://example.org/together-${i}-a`, `https://example.org/together-${i}-b`],
      );
    });
    assert.equal(answers[8]!.status, 404);
    assert.equal(answers[9]!.status, 404);
  });

  test('details asked for in one turn of the event loop are read by one statement', async () => {
    let statements = 0;
    const counting: KyselyPlugin = {
      transformQuery: (args) => args.node,
      transformResult: (args) => {
        statements++;
        return Promise.resolve(args.result);
      },
    };
    const service = createStoriesService({
      db: t.db.withPlugin(counting),
      clock: { now: () => t.clock.now() },
      parameters: () => Promise.reject(new Error('a story detail reads no parameters')),
    });
    const details = await Promise.all(stories.map((s) => service.detail(s.id, 'en')));
    assert.deepEqual(
      details.map((d) => d.id),
      stories.map((s) => s.id),
    );
    assert.equal(statements, 1);
    // one alone is one statement too, and a missing one fails only its own read
    const [missing, alone] = await Promise.allSettled([service.detail('st_unknown_together', 'en'), service.detail(stories[3]!.id, 'en')]);
    assert.equal(missing.status, 'rejected');
    assert.equal(alone.status === 'fulfilled' && alone.value.title, 'Together 3');
    assert.equal(statements, 2);
  });
});
