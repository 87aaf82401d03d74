import type { BaselineName } from '../baselines.js';
import type { BenchContext } from '../lib/context.js';
import type { LoadSpec } from '../lib/load.js';

/** One side of a scenario: which server to start, and the load to put on it. */
export interface Side {
  /** `app`: the real service (buildApp) on the scratch database; otherwise a bare baseline server. */
  server: 'app' | BaselineName;
  load: LoadSpec;
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
  targetRatio: number;
  /** Runs once before both sides are measured (seed data, build fixtures). */
  setup?(ctx: BenchContext): Promise<void>;
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
}
