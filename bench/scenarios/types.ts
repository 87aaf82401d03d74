import type { BaselineName, BaselineOptions } from '../baselines.js';
import type { BenchContext } from '../lib/context.js';
import type { LoadSpec } from '../lib/load.js';
import type { BenchSettings } from '../lib/settings.js';

/** One side of a scenario: which server to start, and the load to put on it. */
export interface Side {
  /** `app`: the real service (buildApp) on the scratch database; otherwise a bare baseline server. */
  server: 'app' | BaselineName;
  load: LoadSpec;
  /** The real app only: entries over ctx.appEnv (e.g. DATABASE_URL of the seeded newsroom database). */
  env?: Record<string, string>;
  /** Baselines only: entries over the default baseline options (e.g. the bodies a static baseline serves). */
  options?: Partial<BaselineOptions>;
}

/**
 * A bench scenario: the real service next to a bare baseline, both measured in the same run with the same
 * connections and duration. To add one, write bench/scenarios/<name>.ts exporting a Scenario and list it in
 * bench/scenarios/index.ts. Scenarios that read seeded data seed it in setup() through ctx.database().
 */
export interface Scenario {
  /** Name on the command line: `npm run bench -- <name>`. */
  name: string;
  /** Label of the table row. */
  title: string;
  /** Minimum acceptable req/s ratio scenario / baseline (0.8 = 80%). */
  targetRatio?: number;
  /** Maximum acceptable p99 latency of the service in ms (measured with `connections`). */
  targetP99Ms?: number;
  /**
   * Extra names that select this scenario on the command line (`npm run bench -- newsroom`). A name also
   * selects every scenario named `<name>-...` (`feed` runs feed and feed-deep).
   */
  groups?: readonly string[];
  /** Connections of autocannon for both sides (default BENCH_CONNECTIONS). */
  connections?(settings: BenchSettings): number;
  /**
   * Runs once before both sides are measured (seed data, build fixtures). May return notes (what was
   * seeded, which requests are sent) printed with the checks below the table.
   */
  setup?(ctx: BenchContext): Promise<void | string[]>;
  baseline(ctx: BenchContext): Side;
  subject(ctx: BenchContext): Side;
  /**
   * Runs after both sides: checks in the data that the requests did what the scenario claims (e.g. each
   * write inserted a row). Returns the problems found; any problem marks the scenario INVALID.
   */
  verify?(ctx: BenchContext, outcome: VerifyInput): Promise<string[]>;
}

export interface VerifyInput {
  /** Responses with the expected status per side, warm-up included. */
  accepted: { baseline: number; subject: number };
  /**
   * Requests a side may have had handled without their response being counted (in flight when a run
   * closed its connections): a side's row count may exceed `accepted` by up to this.
   */
  maxUnanswered: number;
  /** Background requests of the service side (LoadSpec.background) answered with their expected status, warm-up included, and the same margin. */
  background?: { accepted: number; maxUnanswered: number };
}
