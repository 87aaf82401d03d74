import { writeFile } from 'node:fs/promises';
import { sql } from 'kysely';
import { splitCjkQuery } from '../../src/newsroom/search/cjk-query.js';
import type { BenchContext } from '../lib/context.js';
import type { LabeledPath, LoadSpec } from '../lib/load.js';
import type { Newsroom } from '../lib/newsroom.js';
import type { Scenario } from './types.js';

/**
 * The public newsroom reads on the seeded newsroom database (bench/seed/newsroom.ts: 100,000 stories,
 * 1,000,000 agent reviews, ~300,000 ledger events): feed, story detail, search and ledger.
 *
 * Each scenario's setup() picks its request URLs on that database through the real app built in the driver
 * process (walking pages for cursors, sampling story ids), fetches each URL once, checks it answers 200
 * with items, and keeps the body. Under load both sides cycle through the same URLs in the same order: the
 * service (buildApp on the newsroom database) and the static-json baseline, a bare Fastify route answering
 * each URL with the body the service answered for it (same size, no database). Every response must be 200
 * and pass the scenario's body check (non-empty items); anything else makes the row INVALID.
 *
 * The service runs as deployed, with its public read cache (src/platform/read-cache.ts): repeated URLs are
 * answered from memory while no write moves the read generation on. The `-uncached` rows and the latency
 * scenarios turn it off and measure the database path.
 *
 * Ratio targets are measured with BENCH_CONNECTIONS (50); p99 targets with BENCH_LATENCY_CONNECTIONS
 * (default 2). A closed loop of N connections keeps the slowest process of the machine saturated, and then
 * the latency is N / throughput (Little's law): with 10 or 50 connections a p99 measures the queue in front
 * of the server, not the time of a request. Light load measures the latter, at any page depth.
 */

export interface ReadDefinition {
  name: string;
  title: string;
  targetRatio?: number;
  targetP99Ms?: number;
  /** The service's route patterns for these URLs; the baseline registers the same. */
  routes: string[];
  check: { description: string; test(body: string): boolean };
  /**
   * true: the service runs with its public read cache off (READ_CACHE_TTL_MS=0), so every request takes the
   * database path. The latency targets (search, ledger) are about that path; the ratio targets are measured
   * both ways (`<name>` with the cache, as deployed, and `<name>-uncached`).
   */
  uncached?: boolean;
  /** The URLs to cycle through (in this order), and notes on how they were chosen. */
  requests(newsroom: Newsroom, ctx: BenchContext): Promise<{ paths: LabeledPath[]; notes: string[] }>;
}

/** The same reads with the read cache off: the database path, reported next to the cached row (no target). */
function uncachedVariant(def: ReadDefinition): ReadDefinition {
  const { targetRatio: _target, ...rest } = def;
  return { ...rest, name: `${def.name}-uncached`, title: `${def.title}, read cache off`, uncached: true };
}

const PAGE = 20; // the default limit of the feed, search and ledger: the measured requests use it
const WALK_LIMIT = 50; // the maximum limit: walking for cursors takes 2.5x fewer requests (cursors do not depend on the limit)

const seconds = (since: number) => ((performance.now() - since) / 1000).toFixed(1);

export function readScenario(def: ReadDefinition): Scenario {
  let prepared: { paths: LabeledPath[]; bodiesFile: string; appEnv: Record<string, string> } | undefined;
  const need = () => {
    if (!prepared) throw new Error(`${def.name}: setup() has not run`);
    return prepared;
  };
  // Cached reads warm up on every URL (their first read fills the cache); the baseline gets the same load.
  const load = (): LoadSpec => ({
    method: 'GET',
    path: need().paths[0]!.path,
    paths: need().paths,
    warmEveryPath: !def.uncached,
    expectStatus: 200,
    checkBody: def.check,
  });
  return {
    name: def.name,
    title: def.title,
    targetRatio: def.targetRatio,
    targetP99Ms: def.targetP99Ms,
    groups: ['newsroom'],
    ...(def.targetP99Ms !== undefined ? { connections: (settings) => settings.latencyConnections } : {}),
    async setup(ctx) {
      const newsroom = await ctx.newsroom();
      const started = performance.now();
      const { paths, notes } = await def.requests(newsroom, ctx);
      if (paths.length === 0) throw new Error(`${def.name}: no requests to send (is the newsroom database empty?)`);
      const bodies: Record<string, unknown> = {};
      let total = 0;
      let min = Infinity;
      let max = 0;
      const distinct = [...new Set(paths.map((p) => p.path))];
      for (const url of distinct) {
        const res = await newsroom.get(url);
        if (res.status !== 200 || !def.check.test(res.body)) {
          throw new Error(
            `${def.name}: GET ${url} answered ${res.status} ${res.body.slice(0, 300)} (expected 200 and ${def.check.description})`,
          );
        }
        bodies[url] = JSON.parse(res.body);
        const bytes = Buffer.byteLength(res.body);
        total += bytes;
        min = Math.min(min, bytes);
        max = Math.max(max, bytes);
      }
      const bodiesFile = ctx.tempFile(`${def.name}-bodies.json`);
      await writeFile(bodiesFile, JSON.stringify({ routes: def.routes, bodies }));
      prepared = { paths, bodiesFile, appEnv: newsroom.appEnv };
      return [
        ...notes,
        `${distinct.length} distinct URLs, sent in turn; bodies ${Math.round(total / distinct.length).toLocaleString('en-US')} bytes on average ` +
          `(${min.toLocaleString('en-US')}-${max.toLocaleString('en-US')}); setup ${seconds(started)} s`,
      ];
    },
    baseline: () => ({ server: 'static-json', options: { staticBodiesFile: need().bodiesFile }, load: load() }),
    subject: () => ({ server: 'app', env: { ...need().appEnv, ...(def.uncached ? { READ_CACHE_TTL_MS: '0' } : {}) }, load: load() }),
  };
}

interface WalkStep {
  /** Rows before the page this cursor opens. */
  offset: number;
  cursor: string;
}

/**
 * Follows nextCursor from the first page (limit WALK_LIMIT) until `maxRows` rows were seen or the listing
 * ends. Returns the cursor of every page after the first and the ids seen (to check the pagination).
 */
async function walk(newsroom: Newsroom, url: (cursor: string | undefined) => string, key: 'items' | 'events', maxRows: number) {
  const steps: WalkStep[] = [];
  const ids: string[] = [];
  let cursor: string | undefined;
  for (;;) {
    const res = await newsroom.get(url(cursor));
    if (res.status !== 200) throw new Error(`walking ${url(cursor)}: ${res.status} ${res.body.slice(0, 300)}`);
    const page = JSON.parse(res.body) as { nextCursor?: string } & Record<string, { id: string }[]>;
    for (const item of page[key] ?? []) ids.push(item.id);
    if (!page.nextCursor || ids.length >= maxRows) return { steps, ids, complete: !page.nextCursor };
    cursor = page.nextCursor;
    steps.push({ offset: ids.length, cursor });
  }
}

/** `count` steps spread evenly over those whose offset lies in [from, to). */
function spread(steps: WalkStep[], from: number, to: number, count: number): WalkStep[] {
  const inRange = steps.filter((s) => s.offset >= from && s.offset < to);
  if (inRange.length <= count) return inRange;
  return Array.from({ length: count }, (_, i) => inRange[Math.floor((i * inRange.length) / count)]!);
}

/** Interleaves groups (a, b, c, a, b, c, ...) so every stretch of the load mixes all depths. */
function interleave<T>(groups: T[][]): T[] {
  const out: T[] = [];
  for (let i = 0; i < Math.max(0, ...groups.map((g) => g.length)); i++) for (const g of groups) if (i < g.length) out.push(g[i]!);
  return out;
}

const pageOf = (offset: number) => Math.floor(offset / PAGE) + 1;

const hasItems = { description: 'a non-empty "items" array', test: (body: string) => body.includes('"items":[{') };
const hasEvents = { description: 'a non-empty "events" array', test: (body: string) => body.startsWith('{"events":[{') };

const feedUrl = (limit: number | undefined, cursor?: string) =>
  `/v1/feed?mode=trending${limit ? `&limit=${limit}` : ''}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;

export const feedFirstRead: ReadDefinition = {
  name: 'feed',
  title: 'GET /v1/feed?mode=trending (first page)',
  targetRatio: 0.5,
  routes: ['/v1/feed'],
  check: hasItems,
  async requests() {
    return { paths: [{ label: 'page 1', path: feedUrl(undefined) }], notes: [] };
  },
};
export const feedFirst = readScenario(feedFirstRead);
export const feedFirstUncached = readScenario(uncachedVariant(feedFirstRead));

/** Depth bands of the deep feed pages (page numbers at the default limit of 20). */
const FEED_BANDS: [number, number][] = [
  [2, 100],
  [101, 1000],
  [1001, Number.MAX_SAFE_INTEGER],
];

const feedDeepRead: ReadDefinition = {
  name: 'feed-deep',
  title: 'GET /v1/feed?mode=trending&cursor= (deep pages)',
  targetRatio: 0.5,
  routes: ['/v1/feed'],
  check: hasItems,
  async requests(newsroom) {
    const started = performance.now();
    const { steps, ids, complete } = await walk(newsroom, (c) => feedUrl(WALK_LIMIT, c), 'items', Number.MAX_SAFE_INTEGER);
    const { db } = newsroom.database;
    const { rows } = await sql<{ n: number }>`
      select count(*)::int as n from stories
      where moderation_status not in ('QUARANTINED', 'BLOCKED') and publication_stage <> 'CANDIDATE' and review_status <> 'RETRACTED' and published_at is not null`.execute(
      db,
    );
    const listed = rows[0]?.n ?? 0;
    const unique = new Set(ids).size;
    if (!complete || unique !== ids.length || ids.length !== listed) {
      throw new Error(
        `feed-deep: walking the trending feed gave ${ids.length} items (${unique} distinct, complete ${complete}) for ${listed} listed stories`,
      );
    }
    const groups = FEED_BANDS.map(([from, to]) =>
      spread(steps, (from - 1) * PAGE, to * PAGE, 100).map((s) => ({
        label: to === Number.MAX_SAFE_INTEGER ? `pages ${from}+` : `pages ${from}-${to}`,
        path: feedUrl(undefined, s.cursor),
      })),
    );
    return {
      paths: interleave(groups),
      notes: [
        `walked the whole trending feed in ${seconds(started)} s: ${steps.length + 1} pages of ${WALK_LIMIT}, ${ids.length.toLocaleString('en-US')} stories, ` +
          `each exactly once (= the listed stories in the database); cursors of up to 100 pages per band, pages counted at limit ${PAGE} (the deepest is page ${pageOf(steps.at(-1)?.offset ?? 0)})`,
      ],
    };
  },
};
export const feedDeep = readScenario(feedDeepRead);
export const feedDeepUncached = readScenario(uncachedVariant(feedDeepRead));

export const storyDetailRead: ReadDefinition = {
  name: 'story',
  title: 'GET /v1/stories/:id (random stories)',
  targetRatio: 0.5,
  routes: ['/v1/stories/:id'],
  check: { description: 'a story body', test: (body: string) => body.startsWith('{"id":"st_') },
  async requests(newsroom) {
    // The same 2,000 stories every run (ordered by a hash, not by random()), spread over the whole table.
    const { db } = newsroom.database;
    const { rows } = await sql<{ id: string }>`
      select id from stories where moderation_status not in ('QUARANTINED', 'BLOCKED') order by md5('bench:' || id) limit 2000`.execute(db);
    return {
      paths: rows.map((r) => ({ label: 'story', path: `/v1/stories/${encodeURIComponent(r.id)}` })),
      notes: [`${rows.length} visible stories picked by hash across the table`],
    };
  },
};
export const storyDetail = readScenario(storyDetailRead);
export const storyDetailUncached = readScenario(uncachedVariant(storyDetailRead));

/**
 * Search queries: words of the seeded vocabulary (bench/seed/vocabulary.ts, Zipf-distributed: the first
 * words occur in nearly every story of their language, the later ones in fewer), in five languages, a
 * phrase and an OR. The Chinese stories are written without spaces: their queries go through the bigram
 * vector (a common word, and a rarer three-character one).
 */
export const SEARCH_QUERIES: { q: string; lang?: string }[] = [
  { q: 'government' },
  { q: 'inflation' },
  { q: 'climate energy' },
  { q: '"government report"' },
  { q: 'earthquake or hurricane' },
  { q: 'elecciones', lang: 'es' },
  { q: 'grève', lang: 'fr' },
  { q: 'regierung', lang: 'de' },
  { q: '政府', lang: 'zh-Hans' },
  { q: '太阳能' },
];

const searchUrl = (q: { q: string; lang?: string }) => `/v1/search?q=${encodeURIComponent(q.q)}${q.lang ? `&lang=${q.lang}` : ''}`;

export const search = readScenario({
  name: 'search',
  uncached: true,
  title: 'GET /v1/search?q= (common words)',
  targetP99Ms: 50,
  routes: ['/v1/search'],
  check: { description: 'a non-empty "items" array', test: (body: string) => body.startsWith('{"items":[{') },
  async requests(newsroom) {
    // How many stories each query matches (what the ranking has to sort), for the notes.
    const { db } = newsroom.database;
    const matches: string[] = [];
    for (const query of SEARCH_QUERIES) {
      const lang = query.lang ?? 'en';
      // the service's match (src/newsroom/search/repository.ts): the bigram vector for a query with CJK characters
      const { cjk } = splitCjkQuery(query.q);
      const match = cjk
        ? sql`search_vector_cjk @@ to_tsquery('simple'::regconfig, ${cjk})`
        : sql`(search_vector @@ websearch_to_tsquery(lang_regconfig(${lang}), ${query.q}) or search_vector_simple @@ websearch_to_tsquery('simple'::regconfig, ${query.q}))`;
      const { rows } = await sql<{ n: number }>`
        select count(*)::int as n from stories
        where moderation_status not in ('QUARANTINED', 'BLOCKED') and publication_stage <> 'CANDIDATE' and ${match}`.execute(db);
      matches.push(`${query.q}${query.lang ? ` (${query.lang})` : ''}: ${(rows[0]?.n ?? 0).toLocaleString('en-US')}`);
    }
    return {
      paths: SEARCH_QUERIES.map((query) => ({ label: `q=${query.q}${query.lang ? ` [${query.lang}]` : ''}`, path: searchUrl(query) })),
      notes: [`stories matched per query: ${matches.join(', ')}`],
    };
  },
});

const ledgerUrl = (filters: string | undefined, limit: number | undefined, cursor?: string) => {
  const params = [
    filters ? `filters=${encodeURIComponent(filters)}` : '',
    limit ? `limit=${limit}` : '',
    cursor ? `cursor=${encodeURIComponent(cursor)}` : '',
  ].filter(Boolean);
  return `/v1/ledger/events${params.length ? `?${params.join('&')}` : ''}`;
};

/**
 * Cursors at each depth (rows before the page): 10 consecutive pages starting at each, walked from the
 * first page. Depths beyond the end of the listing are left out.
 */
async function ledgerDepths(newsroom: Newsroom, filters: string | undefined, depths: number[], label: (page: number) => string) {
  const max = Math.max(...depths);
  const { steps } = await walk(newsroom, (c) => ledgerUrl(filters, WALK_LIMIT, c), 'events', max + 10 * WALK_LIMIT + 1);
  const groups: LabeledPath[][] = [];
  const reached: number[] = [];
  for (const depth of depths) {
    if (depth === 0) {
      // as often as each deep page group, so every depth weighs the same in the p99
      groups.push(Array.from({ length: 10 }, () => ({ label: label(1), path: ledgerUrl(filters, undefined) })));
      reached.push(1);
      continue;
    }
    const at = steps.filter((s) => s.offset >= depth).slice(0, 10);
    if (at.length === 0) continue;
    groups.push(at.map((s) => ({ label: label(pageOf(depth)), path: ledgerUrl(filters, undefined, s.cursor) })));
    reached.push(pageOf(depth));
  }
  return { paths: interleave(groups), reached };
}

export const ledgerFirst = readScenario({
  name: 'ledger',
  uncached: true,
  title: 'GET /v1/ledger/events (first page)',
  targetP99Ms: 20,
  routes: ['/v1/ledger/events'],
  check: hasEvents,
  async requests() {
    return { paths: [{ label: 'page 1', path: ledgerUrl(undefined, undefined) }], notes: [] };
  },
});

export const ledgerDeep = readScenario({
  name: 'ledger-deep',
  uncached: true,
  title: 'GET /v1/ledger/events?cursor= (pages 11 to 10001)',
  targetP99Ms: 20,
  routes: ['/v1/ledger/events'],
  check: hasEvents,
  async requests(newsroom) {
    const started = performance.now();
    const { paths, reached } = await ledgerDepths(newsroom, undefined, [200, 2_000, 20_000, 200_000], (page) => `page ${page}`);
    return {
      paths,
      notes: [`cursors of 10 consecutive pages from pages ${reached.join(', ')} (limit ${PAGE}), walked in ${seconds(started)} s`],
    };
  },
});

export const ledgerBucket = readScenario({
  name: 'ledger-bucket',
  uncached: true,
  title: 'GET /v1/ledger/events?filters= (bucket filter, pages 1 to 1001)',
  targetP99Ms: 20,
  routes: ['/v1/ledger/events'],
  check: hasEvents,
  async requests(newsroom) {
    const started = performance.now();
    const groups: LabeledPath[][] = [];
    const notes: string[] = [];
    for (const filters of ['graduated', 'provisional,under-review']) {
      const { paths, reached } = await ledgerDepths(newsroom, filters, [0, 2_000, 20_000], (page) => `${filters} page ${page}`);
      groups.push(paths);
      notes.push(`filters=${filters}: pages ${reached.join(', ')}`);
    }
    return {
      paths: interleave(groups),
      notes: [`${notes.join('; ')} (10 consecutive pages from each deep one), walked in ${seconds(started)} s`],
    };
  },
});

export const newsroomReads: readonly Scenario[] = [
  feedFirst,
  feedFirstUncached,
  feedDeep,
  feedDeepUncached,
  storyDetail,
  storyDetailUncached,
  search,
  ledgerFirst,
  ledgerDeep,
  ledgerBucket,
];
