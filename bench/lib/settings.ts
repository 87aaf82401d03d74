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
  };
}
