import {
  backupStories,
  commentBackground,
  commentCountDrift,
  COMMENTS_PER_SECOND,
  countComments,
  restoreLeftovers,
  restoreStories,
  runActorPrefix,
  signedComment,
} from '../lib/comment-writes.js';
import type { BenchContext } from '../lib/context.js';
import type { BackgroundLoad, LabeledPath, LoadSpec } from '../lib/load.js';
import { storyDetailRead } from './newsroom-reads.js';
import type { Scenario, Side } from './types.js';

/**
 * Two instances of the service sharing one load, next to one instance: story detail reads (the 2,000 stories
 * of `story`) on the seeded newsroom database while human-signed comments arrive at a steady
 * COMMENTS_PER_SECOND on those stories. Both sides are real app processes behind the same round-robin proxy,
 * in a process of its own (test/helpers/round-robin-proxy.ts): the subject runs two instances, the baseline
 * one, so the proxy's cost is on both sides and the ratio is two instances / one. The comments go through the
 * proxy too: on two instances a write on one must invalidate the other's cached reads (the read generations
 * in Redis), and each instance reads a story written on the other from the database again.
 *
 * Both sides use the same database and the same Redis prefix, as instances of one deployment do; the comments
 * of each side are told apart by their readers' ids (`bench-<run>-one-<n>`, `bench-<run>-two-<n>`).
 *
 * verify() runs while the instances still run: a few probes write a comment on one instance of the subject
 * and read the story (its comment count, and its comments list) on the other, after having read it there
 * (so a stale cached body would be served if the write had not moved its generation on). Then it checks
 * that every comment answered 202 was stored exactly once, that each target story's comment count rose by
 * exactly its comments, and restores the rows the comments changed (bench/lib/comment-writes.ts).
 *
 * On one machine the instances share its cores with PostgreSQL, Redis, the proxy and the load generator:
 * this shows correctness under shared load, the balance, and the cost of a response with one instance or
 * two, not throughput growing with instances (docs/scaling.md).
 */

const PROBES = 4;

interface StoryBody {
  counts: { comments: number };
}
interface CommentPage {
  items: { id: string }[];
  nextCursor?: string | null;
}

async function getJson<T>(url: string): Promise<T> {
  const res = await fetch(url);
  const text = await res.text();
  if (res.status !== 200) throw new Error(`GET ${url}: ${res.status} ${text.slice(0, 200)}`);
  return JSON.parse(text) as T;
}

/** Every comment id of a story, walking its comments list on one instance. */
async function commentIds(base: string, storyId: string): Promise<Set<string>> {
  const ids = new Set<string>();
  let cursor: string | undefined;
  do {
    const page = await getJson<CommentPage>(
      `${base}/v1/stories/${encodeURIComponent(storyId)}/comments?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
    );
    for (const item of page.items) ids.add(item.id);
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
  return ids;
}

/**
 * Reads a story on `reader` (twice: the second read is served from its cache), writes a comment on it through
 * `writer`, and reads it on `reader` again: the comment count must be one more and the comments list must hold
 * the new comment. Returns what went wrong, if anything.
 */
async function probe(ctx: BenchContext, writer: string, reader: string, storyId: string, n: number): Promise<string | undefined> {
  const storyUrl = `${reader}/v1/stories/${encodeURIComponent(storyId)}`;
  await getJson<StoryBody>(storyUrl);
  const before = await getJson<StoryBody>(storyUrl);
  const listed = await commentIds(reader, storyId);
  const comment = signedComment(ctx, storyId, `${runActorPrefix(ctx.runId)}probe-${n}`, `Probe ${n}: read on the other instance.`);
  const res = await fetch(`${writer}${comment.path}`, {
    method: 'POST',
    headers: { ...comment.headers, 'content-type': 'application/json' },
    body: comment.body,
  });
  const text = await res.text();
  if (res.status !== 202) return `probe ${n}: the comment answered ${res.status} ${text.slice(0, 200)}`;
  const { id } = JSON.parse(text) as { id: string };
  const after = await getJson<StoryBody>(storyUrl);
  if (after.counts.comments !== before.counts.comments + 1)
    return `probe ${n}: story ${storyId} read on the other instance counts ${after.counts.comments} comments, expected ${before.counts.comments + 1}`;
  const listedAfter = await commentIds(reader, storyId);
  if (!listedAfter.has(id) || listedAfter.size !== listed.size + 1)
    return `probe ${n}: the comments of ${storyId} read on the other instance ${listedAfter.has(id) ? `number ${listedAfter.size}, expected ${listed.size + 1}` : `lack ${id}`}`;
  return undefined;
}

function instancesScenario(): Scenario {
  let paths: LabeledPath[] = [];
  let targets: string[] = [];
  let appEnv: Record<string, string> = {};
  const backgrounds = new Map<string, BackgroundLoad>();
  const side = (instances: number, tag: string): Side => {
    const background = backgrounds.get(tag);
    if (!background) throw new Error('instances-story: setup() has not run');
    const load: LoadSpec = {
      method: 'GET',
      path: paths[0]!.path,
      paths,
      warmEveryPath: true,
      expectStatus: 200,
      checkBody: storyDetailRead.check,
      background,
    };
    return { server: 'app', env: appEnv, proxy: { instances }, load };
  };

  return {
    name: 'instances-story',
    title: `GET /v1/stories/:id while ${COMMENTS_PER_SECOND} comments/s arrive: 2 instances (ratio to 1), round-robin proxy on both`,
    groups: ['instances'],
    async setup(ctx) {
      const newsroom = await ctx.newsroom();
      const leftovers = await restoreLeftovers(newsroom);
      const picked = await storyDetailRead.requests(newsroom, ctx);
      paths = picked.paths;
      if (paths.length === 0) throw new Error('instances-story: no stories to read (is the newsroom database empty?)');
      targets = [...new Set(paths.map((p) => decodeURIComponent(p.path.slice('/v1/stories/'.length))))];
      appEnv = newsroom.appEnv;
      await backupStories(newsroom, ctx.runId, targets);
      backgrounds.set('one', commentBackground(ctx, targets, 'one'));
      backgrounds.set('two', commentBackground(ctx, targets, 'two'));
      return [
        ...leftovers,
        ...picked.notes,
        `both sides: the app behind a round-robin proxy in its own process (baseline 1 instance, scenario 2), ${paths.length} story URLs in turn, ` +
          `and ${COMMENTS_PER_SECOND} human-signed comments per second through the proxy on the same stories; one database and one Redis prefix; ` +
          'the rows the comments change are restored afterwards',
      ];
    },
    baseline: () => side(1, 'one'),
    subject: () => side(2, 'two'),
    async verify(ctx, outcome) {
      const newsroom = await ctx.newsroom();
      const problems: string[] = [];
      const [first, second] = outcome.servers.subject;
      if (first && second) {
        for (let n = 0; n < PROBES; n++) {
          // in turn: written on instance 1 and read on 2, then the other way
          const [writer, reader] = n % 2 === 0 ? [first, second] : [second, first];
          const problem = await probe(ctx, writer, reader, targets[(n * 487) % targets.length]!, n).catch((err: unknown) => String(err));
          if (problem) problems.push(problem);
        }
      } else problems.push('the scenario side has fewer than two instances to probe');
      if (problems.length === 0)
        outcome.note(
          `${PROBES} probes: a comment written on one instance was counted and listed at once by the other (which had read the story before)`,
        );

      let stored = 0;
      for (const [tag, label, bg] of [
        ['one', 'baseline', outcome.background.baseline],
        ['two', 'scenario', outcome.background.subject],
      ] as const) {
        const { rows, actors } = await countComments(newsroom, ctx.runId, tag);
        stored += rows;
        const accepted = bg?.accepted ?? 0;
        if (rows !== actors) problems.push(`${label}: ${rows - actors} comments stored more than once`);
        if (rows < accepted || rows > accepted + (bg?.maxUnanswered ?? 0))
          problems.push(`${label}: ${accepted} comments answered 202 but ${rows} were stored`);
        else outcome.note(`${label}: ${accepted} comments answered 202, ${rows} stored, each once`);
      }
      const drift = await commentCountDrift(newsroom, ctx.runId);
      if (drift.length > 0) problems.push(`comment counts that did not rise by their comments: ${drift.slice(0, 5).join(', ')}`);
      else outcome.note(`each of the ${targets.length} target stories' comment count rose by exactly its new comments`);
      const probes = (await countComments(newsroom, ctx.runId, 'probe')).rows;
      const undone = await restoreStories(newsroom, ctx.runId);
      if (undone.comments !== stored + probes)
        problems.push(`restoring the newsroom database deleted ${undone.comments} comments, expected ${stored + probes}`);
      return problems;
    },
  };
}

export const instancesStory = instancesScenario();
