/** Knobs of one bench run, read from the environment (and only here). */
export interface BenchSettings {
  /** BENCH_DURATION: measured seconds per side of a scenario (default 10). */
  durationSeconds: number;
  /** BENCH_ROUNDS: each side is measured in this many interleaved slices of BENCH_DURATION / BENCH_ROUNDS s (default 5). */
  rounds: number;
  /** BENCH_CONNECTIONS: concurrent keep-alive connections of autocannon (default 50). */
  connections: number;
  /** BENCH_WARMUP_REQUESTS: requests sent to each server before it is measured, not counted (default 10000). */
  warmupRequests: number;
  /** BENCH_FEED_FACTOR: before each slice, sign (best req/s so far) x slice seconds x this requests (default 3). */
  feedFactor: number;
  /** BENCH_PAUSE_MS: idle time before each measured slice so PostgreSQL and Redis settle (default 500). */
  pauseMs: number;
  /** BENCH_DATABASE_URL: PostgreSQL server on which a scratch database is created (default local trust). */
  databaseUrl: string;
  /** BENCH_REDIS_URL: Redis server (default local). */
  redisUrl: string;
  /** BENCH_CPU_PROF: directory; when set, every server process writes V8 .cpuprofile files in a subdirectory of it. */
  cpuProfileDir: string | undefined;
  /** BENCH_WARMUP_SECONDS: upper bound of each of the two warm-up halves, for slow scenarios (default 5). */
  warmupSeconds: number;
  /**
   * BENCH_LATENCY_CONNECTIONS: connections of the scenarios whose target is a p99 latency (default 2: light
   * load, so the p99 is the time of a request rather than the queue in front of a saturated server).
   */
  latencyConnections: number;
  /** BENCH_NEWSROOM_DB: the kept, seeded database of the newsroom read scenarios (default: defaultNewsroomDb below). */
  newsroomDb: string;
  /** BENCH_NEWSROOM_SCALE: multiplies the seeded counts (default 1: 100,000 stories, 1,000,000 reviews, ~300,000 ledger events). */
  newsroomScale: number;
  /** BENCH_RESEED=1: drop and seed the newsroom database again even when it is reusable. */
  reseed: boolean;
  /** BENCH_KEEP_DB=0: drop the newsroom database at the end of the run (default 1: keep it for the next run). */
  keepNewsroomDb: boolean;
}

function positiveInt(name: string, fallback: number, min = 1): number {
  const raw = process.env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min) throw new Error(`${name} must be an integer >= ${min}, got "${raw}"`);
  return n;
}

function positiveNumber(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n <= 0) throw new Error(`${name} must be a positive number, got "${raw}"`);
  return n;
}

function flag(name: string, fallback: boolean): boolean {
  const raw = process.env[name]?.trim();
  if (raw === undefined || raw === '') return fallback;
  if (['1', 'true', 'yes'].includes(raw.toLowerCase())) return true;
  if (['0', 'false', 'no'].includes(raw.toLowerCase())) return false;
  throw new Error(`${name} must be 1 or 0, got "${raw}"`);
}

function databaseName(name: string, fallback: string): string {
  const raw = process.env[name]?.trim() || fallback;
  // The bench drops and creates this database: it must be recognisably the bench's own.
  if (!/^bench_[a-z0-9_]{1,50}$/.test(raw)) throw new Error(`${name} must match bench_[a-z0-9_]+ (the bench may drop it), got "${raw}"`);
  return raw;
}

/** Bump when the newsroom seed's data changes (bench/seed/newsroom.ts): a kept database of another version is seeded again. */
export const NEWSROOM_SEED_VERSION = 4;

/**
 * The kept newsroom database of a scale: `bench_newsroom_v<seed version>`, with `_x<scale>` when the scale is not 1,
 * so that seeding at another scale never drops the database of the usual one.
 */
function defaultNewsroomDb(scale: number): string {
  const base = `bench_newsroom_v${NEWSROOM_SEED_VERSION}`;
  return scale === 1 ? base : `${base}_x${String(scale).replace(/[^0-9]/g, '_')}`;
}

export function readSettings(): BenchSettings {
  return {
    durationSeconds: positiveInt('BENCH_DURATION', 10),
    rounds: positiveInt('BENCH_ROUNDS', 5),
    connections: positiveInt('BENCH_CONNECTIONS', 50),
    warmupRequests: positiveInt('BENCH_WARMUP_REQUESTS', 10000),
    feedFactor: positiveNumber('BENCH_FEED_FACTOR', 3),
    pauseMs: positiveInt('BENCH_PAUSE_MS', 500, 0),
    databaseUrl: process.env.BENCH_DATABASE_URL?.trim() || 'postgres://postgres@127.0.0.1:5432/postgres',
    redisUrl: process.env.BENCH_REDIS_URL?.trim() || 'redis://127.0.0.1:6379',
    cpuProfileDir: process.env.BENCH_CPU_PROF?.trim() || undefined,
    warmupSeconds: positiveNumber('BENCH_WARMUP_SECONDS', 5),
    latencyConnections: positiveInt('BENCH_LATENCY_CONNECTIONS', 2),
    newsroomDb: databaseName('BENCH_NEWSROOM_DB', defaultNewsroomDb(positiveNumber('BENCH_NEWSROOM_SCALE', 1))),
    newsroomScale: positiveNumber('BENCH_NEWSROOM_SCALE', 1),
    reseed: flag('BENCH_RESEED', false),
    keepNewsroomDb: flag('BENCH_KEEP_DB', true),
  };
}
