/**
 * The newsroom database of the read scenarios: 100,000 published stories in 12 rooms and 5 languages, one
 * packet version each, ~250,000 sources, 1,000,000 agent reviews by 500 bots, a consensus snapshot per
 * reviewed story, ~300,000 ledger events, and readers' acts by 20,000 readers: ~330,000 comments, ~100,000
 * reward votes and ~20,000 flags (BENCH_NEWSROOM_SCALE multiplies the counts, readers included).
 *
 * Seeding is set-based SQL (INSERT ... SELECT over generate_series and small text pools generated here), in
 * one session with synchronous_commit off, FK triggers off (session_replication_role = replica, when the
 * role may set it) and the plain indexes dropped while loading and rebuilt afterwards; then VACUUM (FREEZE,
 * ANALYZE). The stories load alone keeps triggers on: their three search vectors are computed on insert by the
 * service's trigger, which is most of the cost.
 *
 * The database is kept between runs (`bench_newsroom_v<SEED_VERSION>` by default, `..._x<scale>` at another
 * scale): a marker table
 * `bench_seed` records the seed version, scale and counts, and `bench_seed_migrations` the SHA-256 of every
 * migration applied when it was seeded. A later run reuses it when the version and scale match and no
 * applied migration changed on disk; new migrations are applied to it (and the tables re-analyzed). Anything
 * else (or BENCH_RESEED=1) drops it and seeds again. The run holds an advisory lock meanwhile, so two runs
 * never seed the same database at once.
 *
 * `npx tsx bench/seed/newsroom.ts` seeds (or checks) it without running any scenario.
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { openDatabase } from '../../src/platform/db/database.js';
import { listMigrations, migrationsDir, runMigrations } from '../../src/platform/db/migrate.js';
import { AGENT_PERMISSIONS } from '../../src/platform/auth/types.js';
import { NEWSROOM_SEED_VERSION, readSettings, type BenchSettings } from '../lib/settings.js';
import { SEED_LANGS, textPools } from './vocabulary.js';
import type { DB } from '../../src/tables.js';

const SEED_VERSION = NEWSROOM_SEED_VERSION;

export const ROOMS = [
  'politics',
  'economy',
  'science',
  'health',
  'technology',
  'climate',
  'world',
  'culture',
  'sports',
  'business',
  'education',
  'local',
] as const;

const BOTS = 500;
/** Sessions inserting stories in parallel (the machine has 2 cores). */
const STORY_SESSIONS = 2;
/** Bots 0..VERIFIED_BOTS-1 are VERIFIED (review weight 2); the others weigh 1. */
const VERIFIED_BOTS = 100;
/** Mean comments and reward votes per story (contested stories draw twice the comments). */
const MEAN_COMMENTS = 3;
const MEAN_VOTES = 1.5;
const POOL = { titles: 4000, sentences: 8000, paragraphs: 8000 };
const PUBLISHERS: [string, string][] = [
  ['Reuters', 'reuters.com'],
  ['Associated Press', 'apnews.com'],
  ['Agence France-Presse', 'afp.com'],
  ['BBC News', 'bbc.co.uk'],
  ['El País', 'elpais.com'],
  ['Le Monde', 'lemonde.fr'],
  ['Der Spiegel', 'spiegel.de'],
  ['Xinhua', 'xinhuanet.com'],
  ['The Guardian', 'theguardian.com'],
  ['Deutsche Welle', 'dw.com'],
  ['Nature', 'nature.com'],
  ['World Health Organization', 'who.int'],
  ['Eurostat', 'ec.europa.eu'],
  ['IMF', 'imf.org'],
  ['National Weather Service', 'weather.gov'],
  ['Bundesamt für Statistik', 'destatis.de'],
  ['INSEE', 'insee.fr'],
  ['INE', 'ine.es'],
  ['City Council Minutes', 'council.example.org'],
  ['Court Records', 'courts.example.org'],
];

export interface NewsroomSize {
  stories: number;
  reviews: number;
  ledgerEvents: number;
  /** Readers who comment, vote and flag. */
  readers: number;
}

export function newsroomSize(scale: number): NewsroomSize {
  return {
    stories: Math.max(100, Math.round(100_000 * scale)),
    reviews: Math.max(1_000, Math.round(1_000_000 * scale)),
    ledgerEvents: Math.max(300, Math.round(300_000 * scale)),
    readers: Math.max(1_000, Math.round(20_000 * scale)),
  };
}

export interface NewsroomInfo {
  name: string;
  url: string;
  version: number;
  scale: number;
  /** Row counts as seeded. */
  counts: Record<string, number>;
  seededAt: Date;
  /** How long the seed took (when it was made, possibly by an earlier run). */
  seedSeconds: number;
  /** Seconds per seeding step, in order. */
  steps: [string, number][];
  /** True when an existing database was reused by this run. */
  reused: boolean;
}

type Log = (message: string) => void;

/** A SQL array literal of text constants (CREATE TABLE AS takes no bind parameters). */
const textArray = (values: readonly string[]) => `ARRAY[${values.map((v) => `'${v.replace(/'/g, "''")}'`).join(', ')}]::text[]`;

/** The advisory lock held while a database is checked or seeded: one per database, so seeding one scale never waits for another. */
const seedLock = (name: string) => `bench newsroom seed ${name}`;

/** The URL of database `name` on the server of `adminUrl`. */
export function databaseUrlFor(adminUrl: string, name: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

async function migrationHashes(): Promise<Map<string, string>> {
  const dir = migrationsDir();
  const out = new Map<string, string>();
  for (const file of await listMigrations(dir))
    out.set(
      file,
      createHash('sha256')
        .update(await readFile(join(dir, file)))
        .digest('hex'),
    );
  return out;
}

/**
 * Makes sure the newsroom database exists, seeded with this SEED_VERSION and scale, and migrated to the
 * migrations on disk; returns what it holds. Seeds it (minutes) only when needed.
 */
export async function ensureNewsroomDatabase(settings: BenchSettings, log: Log): Promise<NewsroomInfo> {
  const { newsroomDb: name, newsroomScale: scale } = settings;
  const url = databaseUrlFor(settings.databaseUrl, name);
  const admin = new pg.Client({ connectionString: settings.databaseUrl });
  await admin.connect();
  try {
    await admin.query('SELECT pg_advisory_lock(hashtext($1))', [seedLock(name)]);
    const exists = (await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name])).rowCount === 1;
    if (exists && !settings.reseed) {
      const verdict = await reusable(url, scale, log);
      if (verdict.info) return verdict.info;
      log(`newsroom database ${name}: ${verdict.reason}; seeding it again`);
    } else if (exists) {
      log(`newsroom database ${name}: BENCH_RESEED=1, seeding it again`);
    }
    if (exists) await admin.query(`DROP DATABASE ${name} WITH (FORCE)`);
    await admin.query(`CREATE DATABASE ${name}`);
    return await seed(url, name, scale, log);
  } finally {
    await admin.query('SELECT pg_advisory_unlock(hashtext($1))', [seedLock(name)]).catch(() => undefined);
    await admin.end();
  }
}

/** Drops the newsroom database (BENCH_KEEP_DB=0). */
export async function dropNewsroomDatabase(settings: BenchSettings): Promise<void> {
  const admin = new pg.Client({ connectionString: settings.databaseUrl });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS ${settings.newsroomDb} WITH (FORCE)`);
  } finally {
    await admin.end();
  }
}

interface MarkerRow {
  version: number;
  scale: number;
  counts: Record<string, number>;
  seeded_at: Date;
  seed_seconds: number;
  /** [step, seconds] pairs (jsonb would reorder the keys of an object). */
  steps: [string, number][] | Record<string, number>;
}

/** The existing database's marker if it can be reused (pending migrations applied), else why not. */
async function reusable(url: string, scale: number, log: Log): Promise<{ info?: NewsroomInfo; reason: string }> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  let marker: MarkerRow | undefined;
  let recorded: Map<string, string>;
  try {
    const found = await client.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM pg_tables WHERE tablename IN ('bench_seed', 'bench_seed_migrations')`,
    );
    if (found.rows[0]?.n !== 2) return { reason: 'no complete seed marker (an interrupted seed?)' };
    marker = (await client.query<MarkerRow>('SELECT version, scale, counts, seeded_at, seed_seconds, steps FROM bench_seed')).rows[0];
    recorded = new Map(
      (await client.query<{ name: string; sha256: string }>('SELECT name, sha256 FROM bench_seed_migrations')).rows.map((r) => [
        r.name,
        r.sha256,
      ]),
    );
  } finally {
    await client.end();
  }
  if (!marker) return { reason: 'no complete seed marker (an interrupted seed?)' };
  if (marker.version !== SEED_VERSION) return { reason: `seed version ${marker.version}, this bench seeds version ${SEED_VERSION}` };
  if (marker.scale !== scale) return { reason: `seeded at scale ${marker.scale}, BENCH_NEWSROOM_SCALE is ${scale}` };
  const onDisk = await migrationHashes();
  for (const [file, hash] of recorded) {
    if (onDisk.get(file) !== hash) return { reason: `migration ${file} ${onDisk.has(file) ? 'changed' : 'is gone'} since the seed` };
  }

  const database = await openDatabase<DB>({ databaseUrl: url, dataDir: '', poolMax: 2 });
  try {
    const applied = await runMigrations(database);
    if (applied.length) {
      log(`newsroom database: applied new migrations ${applied.join(', ')}; analyzing`);
      await database.withSession(async (s) => {
        for (const file of applied)
          await s.query(
            `INSERT INTO bench_seed_migrations (name, sha256) VALUES ('${file}', '${onDisk.get(file)}')
             ON CONFLICT (name) DO UPDATE SET sha256 = excluded.sha256`,
          );
        await s.exec('ANALYZE');
      });
    }
  } finally {
    await database.close();
  }
  return {
    reason: 'ok',
    info: {
      name: new URL(url).pathname.slice(1),
      url,
      version: marker.version,
      scale: marker.scale,
      counts: marker.counts,
      seededAt: marker.seeded_at,
      seedSeconds: marker.seed_seconds,
      steps: Array.isArray(marker.steps) ? marker.steps : Object.entries(marker.steps),
      reused: true,
    },
  };
}

const TABLES = [
  'stories',
  'story_versions',
  'story_sources',
  'comments',
  'flags',
  'reward_votes',
  'agent_reviews',
  'consensus_snapshots',
  'ledger_events',
  'bots',
];

async function seed(url: string, name: string, scale: number, log: Log): Promise<NewsroomInfo> {
  const size = newsroomSize(scale);
  const readers = size.readers;
  const started = performance.now();
  const steps: [string, number][] = [];
  log(
    `seeding newsroom database ${name}: ${size.stories} stories, ${size.reviews} agent reviews, ~${size.ledgerEvents} ledger events (minutes on 2 cores)`,
  );

  // the migrations as they are when the seed applies them (files may change during a seed of an hour)
  const hashes = await migrationHashes();
  const database = await openDatabase<DB>({ databaseUrl: url, dataDir: '', poolMax: 1 });
  try {
    await runMigrations(database);
  } finally {
    await database.close();
  }

  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const step = async (label: string, fn: () => Promise<unknown>) => {
    const t0 = performance.now();
    await fn();
    const seconds = (performance.now() - t0) / 1000;
    steps.push([label, Math.round(seconds * 10) / 10]);
    log(`seed: ${label}: ${seconds.toFixed(1)} s`);
  };
  const q = (text: string, values?: unknown[]) => client.query(text, values);

  try {
    const prepareSession = async (c: pg.Client) => {
      await c.query(`SET synchronous_commit = off`);
      await c.query(`SET maintenance_work_mem = '1GB'`);
      await c.query(`SET work_mem = '256MB'`);
    };
    /** Skips the session's triggers, foreign keys included; false when the role may not (it needs superuser). */
    const skipTriggers = async (c: pg.Client) => {
      try {
        // Skips the FK triggers (1M agent_reviews -> stories lookups). Checked at the end.
        await c.query(`SET session_replication_role = replica`);
        return true;
      } catch {
        return false;
      }
    };
    await prepareSession(client);
    if (!(await skipTriggers(client)))
      log('seed: cannot set session_replication_role (not a superuser): foreign keys are checked row by row');
    // random() below is reproducible: every seed of a version and scale draws the same plan.
    await q(`SELECT setseed(0.2026)`);

    // Plain indexes are rebuilt once at the end instead of maintained row by row (GIN especially).
    const { rows: indexes } = await q(
      `SELECT i.indexname, i.indexdef FROM pg_indexes i
       WHERE i.schemaname = 'public' AND i.tablename = ANY($1)
         AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conname = i.indexname AND c.contype IN ('p', 'u', 'x'))`,
      [TABLES],
    );
    for (const ix of indexes as { indexname: string }[]) await q(`DROP INDEX ${ix.indexname}`);

    await step('text pools', async () => {
      for (const kind of ['titles', 'sentences', 'paragraphs'] as const) {
        await q(`CREATE UNLOGGED TABLE bench_text_${kind} (lang text NOT NULL, i int NOT NULL, s text NOT NULL, PRIMARY KEY (lang, i))`);
      }
      for (const lang of SEED_LANGS) {
        const pools = textPools(lang, POOL);
        for (const kind of ['titles', 'sentences', 'paragraphs'] as const) {
          await q(`INSERT INTO bench_text_${kind} (lang, i, s) SELECT $1, o - 1, s FROM unnest($2::text[]) WITH ORDINALITY AS t(s, o)`, [
            lang,
            pools[kind],
          ]);
        }
      }
    });

    await step('bots', () =>
      q(
        `INSERT INTO bots (bot_id, name, description, source, trust_tier, linked_human_id, wallet_address, wallet_chain_id,
                           verified_at, permissions, created_at, updated_at)
         SELECT 'bot_' || md5('bench-bot:' || b), 'bench-newsroom-bot-' || b, 'Seeded reviewer ' || b, 'SELF_SERVE',
                CASE WHEN b < ${VERIFIED_BOTS} THEN 'VERIFIED' ELSE 'UNVERIFIED' END,
                -- a VERIFIED bot carries its AgentKit binding (bots_verified_binding)
                CASE WHEN b < ${VERIFIED_BOTS} THEN 'h_bench_owner_' || b END,
                CASE WHEN b < ${VERIFIED_BOTS} THEN '0xb' || lpad(to_hex(b + 1), 39, '0') END,
                CASE WHEN b < ${VERIFIED_BOTS} THEN 'eip155:480' END,
                CASE WHEN b < ${VERIFIED_BOTS} THEN now() - interval '400 days' END,
                $1::text[], now() - interval '400 days', now() - interval '400 days'
         FROM generate_series(0, ${BOTS - 1}) b`,
        [AGENT_PERMISSIONS],
      ),
    );

    await step('plan', async () => {
      // One row of random draws per story (kept apart so each draw is used consistently below).
      await q(`CREATE UNLOGGED TABLE bench_rand AS
        SELECT g, random() AS r_lang, random() AS r_room, random() AS r_author, random() AS r_stage, random() AS r_age,
               random() AS r_mod, random() AS r_reviews, random() AS r_contest, random() AS r_trouble, random() AS r_sources,
               random() AS r_paras, random() AS r_text, random() AS r_grad, random() AS r_delay
        FROM generate_series(1, ${size.stories}) g`);
      // Review counts: exponential weights scaled to exactly size.reviews (largest remainders get the rest).
      await q(`CREATE UNLOGGED TABLE bench_review_counts AS
        WITH w AS (SELECT g, -ln(1 - r_reviews) AS w FROM bench_rand),
             x AS (SELECT g, w / sum(w) OVER () * ${size.reviews} AS x FROM w),
             f AS (SELECT g, floor(x)::int AS base, x - floor(x) AS frac FROM x),
             r AS (SELECT g, base, row_number() OVER (ORDER BY frac DESC, g) AS rn, ${size.reviews} - sum(base) OVER () AS remainder FROM f)
        SELECT g, base + CASE WHEN rn <= remainder THEN 1 ELSE 0 END AS n_reviews FROM r`);
      // Readers' acts per story: comments (exponential, mean 3, more on contested stories), reward votes (mean 1.5,
      // four in five up) and flags (one story in ten, 1-3); drawn apart from the stories' own draws.
      await q(`CREATE UNLOGGED TABLE bench_reader_draws AS
        SELECT g, floor(-ln(1 - random()) * ${MEAN_COMMENTS})::int AS n_comments, floor(-ln(1 - random()) * ${MEAN_VOTES})::int AS n_votes,
               random() AS r_flags
        FROM generate_series(1, ${size.stories}) g`);
      await q(`ALTER TABLE bench_reader_draws ADD PRIMARY KEY (g)`);
      await q(`CREATE UNLOGGED TABLE bench_plan AS
        SELECT r.g,
          'st_' || substr(md5('bench-story:' || r.g), 1, 20) AS id,
          CASE WHEN r_lang < 0.40 THEN 'en' WHEN r_lang < 0.60 THEN 'es' WHEN r_lang < 0.75 THEN 'fr' WHEN r_lang < 0.90 THEN 'de' ELSE 'zh-Hans' END AS lang,
          (${textArray(ROOMS)})[1 + floor(r_room * ${ROOMS.length})::int] AS room,
          floor(r_author * ${BOTS})::int AS author,
          CASE WHEN r_stage < 0.35 THEN 'GRADUATED' ELSE 'PROVISIONAL' END AS stage,
          -- six months of publications, denser toward now
          date_trunc('second', now()) - interval '180 days' * power(r_age, 1.4) - interval '1 minute' AS published_at,
          CASE WHEN r_mod < 0.003 THEN 'QUARANTINED' WHEN r_mod < 0.004 THEN 'BLOCKED' ELSE 'ALLOWED' END AS moderation,
          c.n_reviews,
          -- a tenth of the stories draw many objections
          CASE WHEN r_contest < 0.10 THEN round(c.n_reviews * 0.45)::int ELSE round(c.n_reviews * 0.08)::int END AS n_obj,
          r_trouble,
          1 + floor(r_sources * 4)::int AS n_sources,
          4 + floor(r_paras * 6)::int AS n_paragraphs,
          floor(r_text * ${POOL.paragraphs})::bigint AS text_seed,
          r_grad, r_delay,
          d.n_comments + CASE WHEN r_contest < 0.10 THEN d.n_comments ELSE 0 END AS n_comments,
          d.n_votes - d.n_votes / 5 AS n_up, d.n_votes / 5 AS n_down,
          CASE WHEN d.r_flags < 0.10 THEN 1 + floor(d.r_flags * 30)::int ELSE 0 END AS n_flags
        FROM bench_rand r JOIN bench_review_counts c USING (g) JOIN bench_reader_draws d USING (g)`);
      await q(`ALTER TABLE bench_plan ADD PRIMARY KEY (g)`);
      // One row per review: bot (never the author, distinct per story as 499 is prime) and kind.
      await q(`CREATE UNLOGGED TABLE bench_review_plan AS
        SELECT p.g, k, (p.author + 1 + ((p.g::bigint * 37 + k * 7) % 499))::int % ${BOTS} AS bot, k < p.n_reviews - p.n_obj AS attest
        FROM bench_plan p, generate_series(0, p.n_reviews - 1) k`);
      await q(`CREATE UNLOGGED TABLE bench_tally AS
        SELECT g,
          count(*) FILTER (WHERE attest)::int AS att_count,
          count(*) FILTER (WHERE NOT attest)::int AS obj_count,
          coalesce(sum(CASE WHEN bot < ${VERIFIED_BOTS} THEN 2 ELSE 1 END) FILTER (WHERE attest), 0)::int AS att_weight,
          coalesce(sum(CASE WHEN bot < ${VERIFIED_BOTS} THEN 2 ELSE 1 END) FILTER (WHERE NOT attest), 0)::int AS obj_weight
        FROM bench_review_plan GROUP BY g`);
      await q(`ALTER TABLE bench_tally ADD PRIMARY KEY (g)`);
      // Review status as the consensus rules would derive it, with some stories under review or retracted.
      await q(`CREATE UNLOGGED TABLE bench_story AS
        SELECT p.*, coalesce(t.att_count, 0) AS att_count, coalesce(t.obj_count, 0) AS obj_count,
               coalesce(t.att_weight, 0) AS att_weight, coalesce(t.obj_weight, 0) AS obj_weight,
               s.review_status,
               CASE WHEN s.review_status IN ('UNDER_REVIEW', 'RETRACTED') THEN 'UNDER_REVIEW' WHEN s.review_status = 'CONTESTED' THEN 'CONTESTED'
                    WHEN p.stage = 'GRADUATED' THEN 'GRADUATED' ELSE 'PROVISIONAL' END AS story_state,
               p.published_at - interval '1 minute' * (5 + floor(p.r_delay * 115)) AS created_at,
               CASE WHEN p.stage = 'GRADUATED' THEN least(p.published_at + interval '1 hour' * (6 + p.r_grad * 66), date_trunc('second', now())) END AS graduated_at
        FROM bench_plan p LEFT JOIN bench_tally t USING (g)
        CROSS JOIN LATERAL (SELECT CASE
          WHEN p.r_trouble < 0.01 THEN 'RETRACTED'
          WHEN p.r_trouble < 0.04 THEN 'UNDER_REVIEW'
          WHEN coalesce(t.obj_weight, 0) >= 2 AND coalesce(t.obj_weight, 0) >= 0.4 * (coalesce(t.att_weight, 0) + coalesce(t.obj_weight, 0)) THEN 'CONTESTED'
          WHEN coalesce(t.att_weight, 0) >= 3 OR p.stage = 'GRADUATED' THEN 'CLEAR'
          ELSE 'EMERGING' END AS review_status) s`);
      await q(`ALTER TABLE bench_story ADD PRIMARY KEY (g)`);
      // Sources: 1-4 per story, from a fixed list of publishers.
      await q(`CREATE UNLOGGED TABLE bench_sources AS
        SELECT p.g, k, 'src_' || substr(md5(p.id || ':source:' || k), 1, 20) AS id,
          'https://www.' || (${textArray(PUBLISHERS.map((p) => p[1]))})[1 + (p.g * 31 + k * 17) % ${PUBLISHERS.length}] || '/' || p.room || '/' || to_char(p.published_at, 'YYYY/MM/DD') || '/' || p.g || '-' || k AS url,
          (${textArray(PUBLISHERS.map((p) => p[0]))})[1 + (p.g * 31 + k * 17) % ${PUBLISHERS.length}] AS publisher,
          t.s AS title,
          CASE WHEN (p.g + k) % 20 < 12 THEN 'VERIFIED' WHEN (p.g + k) % 20 < 19 THEN 'UNREVIEWED' ELSE 'DISPUTED' END AS status
        FROM bench_plan p CROSS JOIN generate_series(1, p.n_sources) k
        JOIN bench_text_titles t ON t.lang = p.lang AND t.i = (p.g::bigint * 13 + k * 101) % ${POOL.titles}`);
      await q(`CREATE UNLOGGED TABLE bench_source_json AS
        SELECT g, jsonb_agg(jsonb_build_object('url', url, 'title', title, 'publisher', publisher) ORDER BY k) AS sources FROM bench_sources GROUP BY g`);
      await q(`ALTER TABLE bench_source_json ADD PRIMARY KEY (g)`);
      await q(`CREATE UNLOGGED TABLE bench_hashes (g int PRIMARY KEY, hash text NOT NULL)`);
      await q(
        `ANALYZE bench_story; ANALYZE bench_source_json; ANALYZE bench_text_titles; ANALYZE bench_text_sentences; ANALYZE bench_text_paragraphs`,
      );
    });

    // Stories and their version-1 packets, in batches (progress; one batch is one statement). The packet is
    // built once per story and hashed; the same row feeds the stories and story_versions inserts.
    // The stories' search vectors are kept by the service's own trigger (to_tsvector of the text, three times), so
    // these sessions keep triggers on: under session_replication_role = replica the trigger would not run and the
    // stories would have no vectors (search would find nothing). Their foreign keys are checked row by row too.
    // Two sessions: to_tsvector is CPU-bound, one core each.
    const batch = 5_000;
    const storyStarted = performance.now();
    const storySql = `WITH batch AS (SELECT * FROM bench_story WHERE g BETWEEN $1 AND $2),
         bodies AS (
           SELECT b.g, string_agg(pp.s, E'\\n\\n' ORDER BY k) AS body
           FROM batch b CROSS JOIN generate_series(1, b.n_paragraphs) k
           JOIN bench_text_paragraphs pp ON pp.lang = b.lang AND pp.i = (b.g::bigint * 7919 + k * 104729 + b.text_seed) % ${POOL.paragraphs}
           GROUP BY b.g
         ),
         claims AS (
           SELECT b.g, jsonb_agg(jsonb_build_object('id', 'cl_' || substr(md5(b.id || ':claim:' || k), 1, 20), 'text', cs.s) ORDER BY k) AS claims,
                  string_agg(cs.s, E'\\n' ORDER BY k) AS claims_text
           FROM batch b CROSS JOIN generate_series(1, 3) k
           JOIN bench_text_sentences cs ON cs.lang = b.lang AND cs.i = (b.g::bigint * 15485863 + k * 32452843) % ${POOL.sentences}
           GROUP BY b.g
         ),
         gen AS (
           SELECT b.*, t.s AS title, s1.s || ' ' || s2.s AS summary, bo.body, c.claims, c.claims_text, coalesce(j.sources, '[]'::jsonb) AS sources
           FROM batch b
           JOIN bodies bo ON bo.g = b.g
           JOIN claims c ON c.g = b.g
           JOIN bench_text_titles t ON t.lang = b.lang AND t.i = (b.g::bigint * 2654435761) % ${POOL.titles}
           JOIN bench_text_sentences s1 ON s1.lang = b.lang AND s1.i = (b.g::bigint * 40503) % ${POOL.sentences}
           JOIN bench_text_sentences s2 ON s2.lang = b.lang AND s2.i = (b.g::bigint * 40503 + 4093) % ${POOL.sentences}
           LEFT JOIN bench_source_json j ON j.g = b.g
         ),
         packets AS (
           SELECT gen.*, jsonb_build_object('room', room, 'lang', lang, 'title', title, 'summary', summary, 'body', body, 'claims', claims, 'sources', sources) AS packet
           FROM gen
         ),
         hashed AS MATERIALIZED (
           SELECT packets.*, encode(sha256(convert_to(packet::text, 'UTF8')), 'hex') AS hash FROM packets
         ),
         ins_stories AS (
           INSERT INTO stories (id, author_bot_id, room, lang, title, summary, body, claims_text, current_version, current_packet_hash,
                                publication_stage, review_status, moderation_status, attestation_count, objection_count,
                                comment_count, flag_count, reward_vote_count, trending_score,
                                created_at, published_at, graduated_at, reward_window_ends_at, updated_at)
           SELECT id, 'bot_' || md5('bench-bot:' || author), room, lang, title, summary, body, claims_text, 1, hash,
                  stage, review_status, moderation, att_count, obj_count, n_comments, n_flags, n_up + n_down,
                  -- the service's trending score: log10 of engagement plus publication time in units of 12.5 hours
                  log(greatest(1, 1 + 3 * att_weight + 2 * n_up + n_comments - n_down - obj_weight)::float8) + extract(epoch FROM published_at)::float8 / 45000,
                  created_at, published_at, graduated_at, published_at + interval '72 hours',
                  greatest(published_at, coalesce(graduated_at, published_at))
           FROM hashed ORDER BY g
         ),
         ins_hashes AS (INSERT INTO bench_hashes (g, hash) SELECT g, hash FROM hashed)
         INSERT INTO story_versions (story_id, version, packet_hash, packet, created_by, created_at)
         SELECT id, 1, hash, packet, 'bot_' || md5('bench-bot:' || author), published_at FROM hashed`;
    let nextFrom = 1;
    let done = 0;
    const workers = await Promise.all(
      Array.from({ length: STORY_SESSIONS }, async () => {
        const c = new pg.Client({ connectionString: url });
        await c.connect();
        await prepareSession(c);
        return c;
      }),
    );
    try {
      await Promise.all(
        workers.map(async (c) => {
          while (nextFrom <= size.stories) {
            const from = nextFrom;
            const to = Math.min(size.stories, from + batch - 1);
            nextFrom = to + 1;
            await c.query(storySql, [from, to]);
            done += to - from + 1;
            log(`seed: stories ${done}/${size.stories} (${((performance.now() - storyStarted) / 1000).toFixed(1)} s)`);
          }
        }),
      );
    } finally {
      await Promise.all(workers.map((c) => c.end()));
    }
    steps.push(['stories + story_versions', Math.round((performance.now() - storyStarted) / 100) / 10]);

    await step('story_sources', () =>
      q(`INSERT INTO story_sources (id, story_id, url, title, publisher, status, active, added_in_version, created_at)
         SELECT src.id, s.id, src.url, src.title, src.publisher, src.status, true, 1, s.created_at
         FROM bench_sources src JOIN bench_story s USING (g) ORDER BY src.g, src.k`),
    );

    // Readers' acts: reader r is `bench-reader-<r>`; every fourth is verified (bound to `h_bench_reader_<r>`). A
    // story's readers are distinct per act kind (flags and votes are one per reader and story).
    const reader = (expr: string) => `'bench-reader-' || (${expr})`;
    const readerFields = (expr: string) =>
      `${reader(expr)}, (${expr}) % 4 = 0, CASE WHEN (${expr}) % 4 = 0 THEN 'h_bench_reader_' || (${expr}) END`;
    const commentId = (k: string) => `'cm_' || substr(md5(s.id || ':comment:' || ${k}), 1, 24)`;
    await step('comments', () =>
      q(`INSERT INTO comments (id, story_id, actor_id, verified, linked_human_id, parent_id, body, created_at)
         SELECT ${commentId('k')}, s.id, ${readerFields(`(s.g::bigint * 7919 + k * 104729) % ${readers}`)},
                -- every third comment answers the one before it
                CASE WHEN k % 3 = 0 THEN ${commentId('k - 1')} END,
                t.s, least(s.published_at + interval '7 minutes' * k, date_trunc('second', now()))
         FROM bench_story s CROSS JOIN generate_series(1, s.n_comments) k
         JOIN bench_text_sentences t ON t.lang = s.lang AND t.i = (s.g::bigint * 131 + k * 7907) % ${POOL.sentences}
         ORDER BY s.g, k`),
    );
    await step('flags', () =>
      q(`INSERT INTO flags (id, story_id, actor_id, verified, linked_human_id, severity, claim_id, reason, created_at)
         SELECT 'fl_' || substr(md5(s.id || ':flag:' || k), 1, 24), s.id, ${readerFields(`(s.g::bigint * 31 + k * 7919) % ${readers}`)},
                (ARRAY['LOW', 'MEDIUM', 'HIGH'])[1 + (k - 1) % 3],
                CASE WHEN k % 2 = 0 THEN 'cl_' || substr(md5(s.id || ':claim:' || (1 + k % 3)), 1, 20) END,
                'The figure in the story does not match its source.', least(s.published_at + interval '23 minutes' * k, date_trunc('second', now()))
         FROM bench_story s CROSS JOIN generate_series(1, s.n_flags) k
         ORDER BY s.g, k`),
    );
    await step('reward_votes', () =>
      q(`INSERT INTO reward_votes (id, story_id, actor_id, verified, linked_human_id, vote, weight, created_at)
         SELECT 'rv_' || substr(md5(s.id || ':vote:' || k), 1, 24), s.id, ${readerFields(`(s.g::bigint * 131 + k * 104729) % ${readers}`)},
                CASE WHEN k <= s.n_up THEN 'UP' ELSE 'DOWN' END, 1, least(s.published_at + interval '11 minutes' * k, date_trunc('second', now()))
         FROM bench_story s CROSS JOIN generate_series(1, s.n_up + s.n_down) k
         ORDER BY s.g, k`),
    );

    await step('agent_reviews', () =>
      q(`INSERT INTO agent_reviews (id, story_id, packet_hash, bot_id, verified, kind, weight, confidence, note, claim_ids, evidence, created_at)
         SELECT 'ar_' || substr(md5(s.id || ':review:' || r.k), 1, 24), s.id, h.hash, 'bot_' || md5('bench-bot:' || r.bot),
                r.bot < ${VERIFIED_BOTS}, CASE WHEN r.attest THEN 'ATTESTATION' ELSE 'OBJECTION' END,
                CASE WHEN r.bot < ${VERIFIED_BOTS} THEN 2 ELSE 1 END,
                (50 + (s.g * 13 + r.k * 7) % 50) / 100.0,
                CASE WHEN r.attest THEN CASE WHEN r.k % 4 = 0 THEN 'Checked the claims against the cited sources.' END
                     ELSE 'Claim ' || (1 + r.k % 3) || ' is not supported by the cited source.' END,
                ARRAY['cl_' || substr(md5(s.id || ':claim:' || (1 + r.k % 3)), 1, 20)],
                CASE WHEN r.attest THEN '[]'::jsonb
                     ELSE jsonb_build_array(jsonb_build_object('url', 'https://evidence.example.org/' || s.g || '/' || r.k, 'note', 'Contradicting figure')) END,
                s.published_at + interval '9 minutes' * (r.k + 1)
         FROM bench_review_plan r JOIN bench_story s USING (g) JOIN bench_hashes h USING (g)
         ORDER BY r.g, r.k`),
    );

    await step('consensus_snapshots', () =>
      q(`INSERT INTO consensus_snapshots (story_id, packet_hash, snapshot, computed_at)
         SELECT s.id, h.hash, jsonb_build_object(
                  'storyId', s.id, 'packetHash', h.hash, 'version', 1,
                  'attestations', jsonb_build_object('count', s.att_count, 'weight', s.att_weight),
                  'objections', jsonb_build_object('count', s.obj_count, 'weight', s.obj_weight),
                  'flags', jsonb_build_object('count', s.n_flags, 'low', (s.n_flags + 2) / 3, 'medium', (s.n_flags + 1) / 3, 'high', s.n_flags / 3),
                  'rewardVotes', jsonb_build_object('count', s.n_up + s.n_down, 'up', s.n_up, 'down', s.n_down, 'weightUp', s.n_up, 'weightDown', s.n_down),
                  'reviewStatus', s.review_status, 'publicationStage', s.stage, 'storyState', s.story_state,
                  'graduation', jsonb_build_object('gateMet', s.stage = 'GRADUATED', 'requiredHumanAction', 'graduate:' || s.id, 'humanActionRecorded', s.stage = 'GRADUATED'),
                  'thresholds', jsonb_build_object('minAttestations', 3, 'contestedObjectionRatio', 0.4, 'minObjections', 2, 'graduationMinAttestations', 5),
                  'computedAt', to_char((s.published_at + interval '9 minutes' * s.n_reviews) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')),
                s.published_at + interval '9 minutes' * s.n_reviews
         FROM bench_story s JOIN bench_hashes h USING (g) WHERE s.n_reviews > 0`),
    );

    await step('ledger_events', async () => {
      // Each story's publication, graduation, challenge and retraction, then corrections and returns to
      // provisional on random stories up to the target count; inserted in time order so seq follows time.
      await q(`CREATE UNLOGGED TABLE bench_events AS
        SELECT g, 'UPDATE' AS type, 'Published as provisional: ' AS prefix, 'PROVISIONAL' AS story_state, 'PUBLISHED' AS editorial_state,
               'PROVISIONAL' AS promotion_state, 'provisional' AS bucket, 'safety scan ALLOW' AS reason, published_at AS at FROM bench_story
        UNION ALL
        SELECT g, 'UPDATE', 'Graduated: ', 'GRADUATED', 'GRADUATED', 'GRADUATED', 'graduated', 'CLEAR -> GRADUATED', graduated_at FROM bench_story WHERE stage = 'GRADUATED'
        UNION ALL
        SELECT g, 'CHALLENGE', CASE WHEN story_state = 'CONTESTED' THEN 'Contested by reviewing agents: ' ELSE 'Under review: ' END, story_state, 'CHALLENGED', stage,
               'under-review', 'EMERGING -> ' || story_state, least(published_at + interval '1 hour' * (2 + r_delay * 40), date_trunc('second', now()))
        FROM bench_story WHERE story_state IN ('CONTESTED', 'UNDER_REVIEW')`);
      await q(`INSERT INTO bench_events
        SELECT g, 'RETRACTION', 'Retracted: ', 'UNDER_REVIEW', 'RETRACTED', stage, 'under-review', 'retracted after review',
               least(published_at + interval '1 hour' * (44 + r_delay * 40), date_trunc('second', now()))
        FROM bench_story WHERE review_status = 'RETRACTED'`);
      const { rows } = await q(`SELECT count(*)::int AS n FROM bench_events`);
      const filler = Math.max(0, size.ledgerEvents - (rows[0] as { n: number }).n);
      await q(`INSERT INTO bench_events
        SELECT s.g,
               CASE WHEN f % 3 = 0 THEN 'UPDATE' ELSE 'CORRECTION' END,
               CASE WHEN f % 3 = 0 THEN 'Back to provisional: ' ELSE 'Corrected by reviewing agents: ' END,
               CASE WHEN f % 3 = 0 THEN 'PROVISIONAL' ELSE s.story_state END,
               CASE WHEN f % 3 = 0 THEN 'PUBLISHED' ELSE 'REVISED' END,
               s.stage,
               CASE WHEN f % 3 = 0 THEN 'provisional' ELSE 'agent-review' END,
               CASE WHEN f % 3 = 0 THEN 'CONTESTED -> PROVISIONAL' ELSE 'revision accepted by reviewing agents' END,
               s.published_at + (date_trunc('second', now()) - s.published_at) * x.r
        FROM (SELECT f, 1 + floor(random() * ${size.stories})::int AS g, random() AS r FROM generate_series(1, ${filler}) f) x
        JOIN bench_story s ON s.g = x.g`);
      await q(`INSERT INTO ledger_events (id, story_id, type, title, story_state, editorial_state, promotion_state, ledger_bucket, reason, created_at)
        SELECT 'le_' || substr(md5('bench-ledger:' || row_number() OVER (ORDER BY e.at, e.g, e.type)), 1, 20), s.id, e.type,
               e.prefix || st.title, e.story_state, e.editorial_state, e.promotion_state, e.bucket, e.reason, e.at
        FROM bench_events e JOIN bench_story s USING (g) JOIN stories st ON st.id = s.id
        ORDER BY e.at, e.g, e.type`);
    });

    await step('indexes', async () => {
      for (const ix of indexes as { indexname: string; indexdef: string }[]) await q(ix.indexdef);
    });

    await q(`RESET session_replication_role`).catch(() => undefined);
    await step('foreign key check', async () => {
      const { rows } = await q(`SELECT
        (SELECT count(*) FROM agent_reviews r WHERE NOT EXISTS (SELECT 1 FROM stories s WHERE s.id = r.story_id))::int AS reviews,
        (SELECT count(*) FROM story_versions v WHERE NOT EXISTS (SELECT 1 FROM stories s WHERE s.id = v.story_id))::int AS versions,
        (SELECT count(*) FROM story_sources v WHERE NOT EXISTS (SELECT 1 FROM stories s WHERE s.id = v.story_id))::int AS sources,
        (SELECT count(*) FROM consensus_snapshots v WHERE NOT EXISTS (SELECT 1 FROM stories s WHERE s.id = v.story_id))::int AS snapshots,
        (SELECT count(*) FROM ledger_events v WHERE NOT EXISTS (SELECT 1 FROM stories s WHERE s.id = v.story_id))::int AS ledger,
        ((SELECT count(*) FROM comments v WHERE NOT EXISTS (SELECT 1 FROM stories s WHERE s.id = v.story_id))
          + (SELECT count(*) FROM comments v WHERE v.parent_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM comments p WHERE p.id = v.parent_id)))::int AS comments,
        (SELECT count(*) FROM flags v WHERE NOT EXISTS (SELECT 1 FROM stories s WHERE s.id = v.story_id))::int AS flags,
        (SELECT count(*) FROM reward_votes v WHERE NOT EXISTS (SELECT 1 FROM stories s WHERE s.id = v.story_id))::int AS votes`);
      const orphans = Object.entries(rows[0] as Record<string, number>).filter(([, n]) => n > 0);
      if (orphans.length) throw new Error(`seed produced rows without their story: ${JSON.stringify(Object.fromEntries(orphans))}`);
    });

    // The stories' trigger computes their search vectors; a load that skipped it (session_replication_role) would
    // leave search finding nothing.
    await step('search vectors check', async () => {
      const { rows } = await q(
        `SELECT count(*)::int AS n FROM stories WHERE search_vector IS NULL OR search_vector_simple IS NULL OR search_vector_cjk IS NULL`,
      );
      const missing = (rows[0] as { n: number }).n;
      if (missing > 0) throw new Error(`seed left ${missing} stories without their search vectors (their trigger did not run)`);
    });

    await step('drop helper tables', () =>
      q(`DROP TABLE bench_rand, bench_reader_draws, bench_review_counts, bench_plan, bench_review_plan, bench_tally, bench_story, bench_sources, bench_source_json,
                    bench_hashes, bench_events, bench_text_titles, bench_text_sentences, bench_text_paragraphs`),
    );

    await step('vacuum (freeze, analyze)', async () => {
      for (const table of TABLES) await q(`VACUUM (FREEZE, ANALYZE) ${table}`);
    });

    const { rows: countRows } = await q(`SELECT
      (SELECT count(*) FROM stories)::int AS stories,
      (SELECT count(*) FROM story_versions)::int AS story_versions,
      (SELECT count(*) FROM story_sources)::int AS story_sources,
      (SELECT count(*) FROM agent_reviews)::int AS agent_reviews,
      (SELECT count(*) FROM consensus_snapshots)::int AS consensus_snapshots,
      (SELECT count(*) FROM ledger_events)::int AS ledger_events,
      (SELECT count(*) FROM comments)::int AS comments,
      (SELECT count(*) FROM flags)::int AS flags,
      (SELECT count(*) FROM reward_votes)::int AS reward_votes,
      (SELECT count(*) FROM bots)::int AS bots,
      pg_database_size(current_database())::bigint / 1048576 AS database_mb`);
    const counts = Object.fromEntries(Object.entries(countRows[0] as Record<string, number | string>).map(([k, v]) => [k, Number(v)]));
    const seedSeconds = Math.round((performance.now() - started) / 100) / 10;
    const seededAt = new Date();

    await q(
      `CREATE TABLE bench_seed (version int NOT NULL, scale float8 NOT NULL, counts jsonb NOT NULL, seeded_at timestamptz NOT NULL, seed_seconds float8 NOT NULL, steps jsonb NOT NULL)`,
    );
    await q(`CREATE TABLE bench_seed_migrations (name text PRIMARY KEY, sha256 text NOT NULL)`);
    await q(`INSERT INTO bench_seed_migrations (name, sha256) SELECT * FROM unnest($1::text[], $2::text[])`, [
      [...hashes.keys()],
      [...hashes.values()],
    ]);
    // Written last: a seed interrupted before this line is seeded again by the next run.
    await q(`INSERT INTO bench_seed VALUES ($1, $2, $3, $4, $5, $6)`, [
      SEED_VERSION,
      scale,
      JSON.stringify(counts),
      seededAt,
      seedSeconds,
      JSON.stringify(steps),
    ]);
    log(`seeded ${name} in ${seedSeconds} s: ${JSON.stringify(counts)}`);
    return { name, url, version: SEED_VERSION, scale, counts, seededAt, seedSeconds, steps, reused: false };
  } finally {
    await client.end();
  }
}

/** One line describing the seeded database, for the report. */
export function describeNewsroom(info: NewsroomInfo): string {
  const c = info.counts;
  const n = (k: string) => (c[k] ?? 0).toLocaleString('en-US');
  return (
    `newsroom database ${info.name} (seed v${info.version}, scale ${info.scale}${info.reused ? ', reused' : ', seeded by this run'}): ` +
    `${n('stories')} stories, ${n('story_versions')} versions, ${n('story_sources')} sources, ${n('agent_reviews')} agent reviews, ` +
    `${n('consensus_snapshots')} consensus snapshots, ${n('ledger_events')} ledger events, ${n('comments')} comments, ${n('flags')} flags, ` +
    `${n('reward_votes')} reward votes, ${n('bots')} bots, ${n('database_mb')} MB; ` +
    `seeded ${info.seededAt.toISOString()} in ${info.seedSeconds} s (${info.steps.map(([k, v]) => `${k} ${v} s`).join(', ')})`
  );
}

// `npx tsx bench/seed/newsroom.ts`: seed (or check) the newsroom database and print what it holds.
if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  ensureNewsroomDatabase(readSettings(), (m) => console.error(`[seed] ${m}`)).then(
    (info) => console.log(describeNewsroom(info)),
    (err: unknown) => {
      console.error(err);
      process.exitCode = 1;
    },
  );
}
