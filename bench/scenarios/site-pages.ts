import { sql } from 'kysely';
import type { LabeledPath, LoadSpec } from '../lib/load.js';
import type { Newsroom } from '../lib/newsroom.js';
import { SEARCH_QUERIES } from './newsroom-reads.js';
import type { Scenario } from './types.js';

/**
 * The reader site's pages (src/web/site) next to the JSON routes that serve the same data, both on the
 * real service in the same run, on the seeded newsroom database: the subject cycles through the pages, the
 * baseline (the same service, same env) through the matching JSON URLs. Both run as deployed, with the
 * public read cache; `site-story-uncached` turns it off on both sides (the database path: the story page
 * reads the story, its consensus, versions, sources, comments and flags, where the JSON detail reads the story).
 * Every response must be 200 and an HTML page (subject) or a JSON object (baseline).
 */

interface PagePair {
  label: string;
  page: string;
  json: string;
}

interface PageDefinition {
  name: string;
  title: string;
  targetRatio?: number;
  uncached?: boolean;
  pairs(newsroom: Newsroom): Promise<PagePair[]>;
}

const isPage = { description: 'an HTML page', test: (body: string) => body.startsWith('<!doctype html><html lang="') };
const isJson = { description: 'a JSON object', test: (body: string) => body.startsWith('{') };

function pageScenario(def: PageDefinition): Scenario {
  let prepared: { pages: LabeledPath[]; json: LabeledPath[]; env: Record<string, string> } | undefined;
  const need = () => {
    if (!prepared) throw new Error(`${def.name}: setup() has not run`);
    return prepared;
  };
  const load = (paths: LabeledPath[], check: LoadSpec['checkBody']): LoadSpec => ({
    method: 'GET',
    path: paths[0]!.path,
    paths,
    warmEveryPath: !def.uncached,
    expectStatus: 200,
    checkBody: check,
  });
  return {
    name: def.name,
    title: def.title,
    targetRatio: def.targetRatio,
    groups: ['site'],
    async setup(ctx) {
      const newsroom = await ctx.newsroom();
      const pairs = await def.pairs(newsroom);
      if (pairs.length === 0) throw new Error(`${def.name}: no pages to read (is the newsroom database empty?)`);
      let pageBytes = 0;
      let jsonBytes = 0;
      for (const pair of pairs) {
        const [page, json] = [await newsroom.get(pair.page), await newsroom.get(pair.json)];
        if (page.status !== 200 || !isPage.test(page.body)) throw new Error(`${def.name}: GET ${pair.page} answered ${page.status}`);
        if (json.status !== 200 || !isJson.test(json.body)) throw new Error(`${def.name}: GET ${pair.json} answered ${json.status}`);
        pageBytes += Buffer.byteLength(page.body);
        jsonBytes += Buffer.byteLength(json.body);
      }
      prepared = {
        pages: pairs.map((p) => ({ label: p.label, path: p.page })),
        json: pairs.map((p) => ({ label: p.label, path: p.json })),
        env: { ...newsroom.appEnv, ...(def.uncached ? { READ_CACHE_TTL_MS: '0' } : {}) },
      };
      const avg = (bytes: number) => Math.round(bytes / pairs.length).toLocaleString('en-US');
      return [`${pairs.length} pages, each next to its JSON route; pages ${avg(pageBytes)} bytes on average, JSON ${avg(jsonBytes)} bytes`];
    },
    baseline: () => ({ server: 'app', env: need().env, load: load(need().json, isJson) }),
    subject: () => ({ server: 'app', env: need().env, load: load(need().pages, isPage) }),
  };
}

/** The same `count` visible published stories every run (ordered by a hash), spread over the table. */
async function storyIds(newsroom: Newsroom, count: number): Promise<string[]> {
  const { rows } = await sql<{ id: string }>`
    select id from stories where moderation_status not in ('QUARANTINED', 'BLOCKED') and publication_stage <> 'CANDIDATE'
    order by md5('bench:' || id) limit ${count}`.execute(newsroom.database.db);
  return rows.map((r) => encodeURIComponent(r.id));
}

const storyPage: PageDefinition = {
  name: 'site-story',
  title: 'story page /stories/:id vs GET /v1/stories/:id (2,000 stories)',
  targetRatio: 0.5,
  async pairs(newsroom) {
    return (await storyIds(newsroom, 2000)).map((id) => ({
      label: 'story',
      page: `/stories/${id}?lang=en`,
      json: `/v1/stories/${id}?lang=en`,
    }));
  },
};

const scenarios: PageDefinition[] = [
  {
    name: 'site-feed',
    title: 'feed page / vs GET /v1/feed (four modes)',
    async pairs() {
      return ['trending', 'graduated', 'developing', 'recent'].map((mode) => ({
        label: mode,
        page: `/?mode=${mode}`,
        json: `/v1/feed?mode=${mode}`,
      }));
    },
  },
  storyPage,
  {
    ...storyPage,
    name: 'site-story-uncached',
    title: `${storyPage.title}, read cache off on both`,
    targetRatio: undefined,
    uncached: true,
  },
  {
    name: 'site-machine-room',
    title: 'machine room page vs GET /v1/stories/:id/machine-room (500 stories)',
    async pairs(newsroom) {
      return (await storyIds(newsroom, 500)).map((id) => ({
        label: 'machine room',
        page: `/stories/${id}/machine-room`,
        json: `/v1/stories/${id}/machine-room`,
      }));
    },
  },
  {
    name: 'site-versions',
    title: 'version diff page vs GET /v1/stories/:id/versions (500 stories)',
    async pairs(newsroom) {
      return (await storyIds(newsroom, 500)).map((id) => ({
        label: 'versions',
        page: `/stories/${id}/versions`,
        json: `/v1/stories/${id}/versions`,
      }));
    },
  },
  {
    name: 'site-ledger',
    title: 'ledger page vs GET /v1/ledger/events (all and each bucket)',
    async pairs() {
      return [undefined, 'agent-review', 'provisional', 'graduated', 'under-review'].map((bucket) => ({
        label: bucket ?? 'all',
        page: bucket ? `/ledger?filters=${bucket}` : '/ledger',
        json: bucket ? `/v1/ledger/events?filters=${bucket}` : '/v1/ledger/events',
      }));
    },
  },
  {
    name: 'site-search',
    title: 'search page vs GET /v1/search (the search scenario queries)',
    async pairs() {
      return SEARCH_QUERIES.map(({ q, lang = 'en' }) => {
        const query = `q=${encodeURIComponent(q)}&lang=${lang}`;
        return { label: `q=${q}`, page: `/search?${query}`, json: `/v1/search?${query}` };
      });
    },
  },
  {
    name: 'site-modules',
    title: 'module pages and rankings vs their JSON routes',
    async pairs() {
      return [
        { label: 'developing', page: '/developing', json: '/v1/modules/developing' },
        { label: 'under review', page: '/under-review', json: '/v1/modules/under-review' },
        { label: 'reward window', page: '/reward-window', json: '/v1/modules/reward-window' },
        { label: 'rankings', page: '/rankings', json: '/v1/rankings/bots' },
      ];
    },
  },
];

export const sitePages: readonly Scenario[] = scenarios.map(pageScenario);
