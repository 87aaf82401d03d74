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
  /**
   * When set, the side runs `instances` server processes of `server` behind a round-robin proxy in a process of
   * its own, and the load (background included) goes to the proxy. The checks then give each instance's share
   * of the requests and CPU, and the proxy's CPU.
   */
  proxy?: { instances: number };
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
  /** Per side with a background load (LoadSpec.background): its requests answered with their expected status. */
  background: { baseline?: BackgroundOutcome; subject?: BackgroundOutcome };
  /**
   * The addresses of each side's server processes (not the proxy's), still running while verify() runs: probes
   * may send requests to one instance and read through another.
   */
  servers: { baseline: string[]; subject: string[] };
  /** Adds a line to the scenario's notes in the checks (what was checked and found, beyond the problems). */
  note(line: string): void;
}

export interface BackgroundOutcome {
  /** Answered with the expected status, warm-up included. */
  accepted: number;
  /**
   * Background requests that ended in a connection error or a timeout: the only ones the server may have
   * handled without their answer being counted (a run waits for every background request it sent).
   */
  maxUnanswered: number;
}
