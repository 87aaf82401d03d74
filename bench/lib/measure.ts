import { setTimeout as sleep } from 'node:timers/promises';
import type { BackgroundOutcome, Scenario, Side } from '../scenarios/types.js';
import type { BenchContext } from './context.js';
import { Feed, LatencyRecorder, PathCycle, runLoad, type BackgroundResult, type RunResult } from './load.js';
import { startBehindProxy, startServer, type RunningServer, type ServerSample, type ServerSpec } from './servers.js';

export interface SideResult {
  /** `real app` or `bare <baseline>`. */
  server: string;
  /** Responses per second over the measured slices. */
  rps: number;
  p50: number;
  p99: number;
  responses: number;
  durationSeconds: number;
  statusCounts: Record<string, number>;
  expectStatus: number;
  /** Responses whose status was not the expected one. */
  unexpected: number;
  errors: number;
  timeouts: number;
  mismatches: number;
  /** Requests re-sent because the prepared ones ran out. */
  feedExhausted: number;
  samples: string[];
  /** req/s of each measured slice, in order. */
  sliceRps: number[];
  /** Share of one core the server process used while measured (100 = one full core). */
  serverCpuPercent: number;
  /** Share of one core the load generator (autocannon, this process) used: near 100 the client is the limit. */
  clientCpuPercent: number;
  /** Server CPU time per measured response, in microseconds: less sensitive to a busy machine than req/s. */
  cpuMicrosPerResponse: number;
  /** The part of cpuMicrosPerResponse spent in the kernel (system calls: mostly sending and receiving on sockets). */
  systemMicrosPerResponse: number;
  /** Responses with the expected status, warm-up included: what scenario.verify() checks against the data. */
  accepted: number;
  /** Unexpected outcomes of the warm-up (not measured, but they say the setup is wrong). */
  warmupProblems: string[];
  /** Single-use requests prepared (signed) for this side, warm-up included; 0 when the load needs none. */
  prepared: number;
  /** Latency per path label (loads with `paths`), in the order the labels were first seen. */
  labels: { label: string; count: number; p50: number; p99: number }[];
  /** The background requests (LoadSpec.background) of the measured slices, when the load has some. */
  background?: BackgroundSummary;
  /** Sides behind a proxy (Side.proxy): each server process in turn; serverCpuPercent and cpuMicrosPerResponse are their sum. */
  instances?: InstanceSummary[];
  /** Sides behind a proxy: the proxy's process over the measured slices. */
  proxy?: { cpuPercent: number; cpuMicrosPerRequest: number };
}

/** One server process of a side behind a proxy, over the measured slices. */
export interface InstanceSummary {
  /** Requests the proxy sent it (the load's and the background's). */
  forwarded: number;
  /** Its part of all the requests the proxy sent (0-1). */
  share: number;
  /** Share of one core it used (100 = one full core). */
  cpuPercent: number;
  /** Its CPU time per request it was sent, in microseconds. */
  cpuMicrosPerRequest: number;
}

export interface BackgroundSummary {
  label: string;
  expectStatus: number;
  /** The steady rate asked for, and the rate answered over the measured slices. */
  targetRate: number;
  rate: number;
  responses: number;
  statusCounts: Record<string, number>;
  unexpected: number;
  errors: number;
  timeouts: number;
  feedExhausted: number;
  samples: string[];
}

export interface ScenarioResult {
  name: string;
  title: string;
  targetRatio: number | undefined;
  targetP99Ms: number | undefined;
  /** Connections of autocannon for both sides. */
  connections: number;
  /** What setup() said about the data and requests (printed with the checks). */
  notes: string[];
  baseline: SideResult;
  subject: SideResult;
  /** Problems found by scenario.verify() after the runs; undefined when the scenario has no verify(). */
  verifyProblems: string[] | undefined;
  /** Set when the scenario could not be measured at all (its setup or a server failed): the row is FAILED. */
  failure?: string;
}

/** The result of a scenario that threw before it could be measured. */
export function failedScenario(scenario: Scenario, settings: BenchContext['settings'], err: unknown): ScenarioResult {
  const side = (server: string): SideResult => ({
    server,
    rps: 0,
    p50: 0,
    p99: 0,
    responses: 0,
    durationSeconds: 0,
    statusCounts: {},
    expectStatus: 0,
    unexpected: 0,
    errors: 0,
    timeouts: 0,
    mismatches: 0,
    feedExhausted: 0,
    samples: [],
    sliceRps: [],
    serverCpuPercent: 0,
    clientCpuPercent: 0,
    cpuMicrosPerResponse: 0,
    systemMicrosPerResponse: 0,
    accepted: 0,
    warmupProblems: [],
    prepared: 0,
    labels: [],
  });
  return {
    name: scenario.name,
    title: scenario.title,
    targetRatio: scenario.targetRatio,
    targetP99Ms: scenario.targetP99Ms,
    connections: scenario.connections?.(settings) ?? settings.connections,
    notes: [],
    baseline: side('-'),
    subject: side('-'),
    verifyProblems: undefined,
    failure: err instanceof Error ? (err.stack ?? err.message) : String(err),
  };
}

/** Why a side's numbers cannot be trusted, if they cannot. */
export function problemsOf(side: SideResult): string[] {
  const problems: string[] = [];
  if (side.responses === 0) problems.push('no responses');
  if (side.unexpected > 0) problems.push(`${side.unexpected} responses without status ${side.expectStatus}`);
  if (side.errors > 0) problems.push(`${side.errors} connection errors`);
  if (side.timeouts > 0) problems.push(`${side.timeouts} timeouts`);
  if (side.mismatches > 0) problems.push(`${side.mismatches} unexpected bodies`);
  if (side.feedExhausted > 0) problems.push(`pre-signed requests ran out (${side.feedExhausted} re-sent): raise BENCH_FEED_FACTOR`);
  const bg = side.background;
  if (bg) {
    if (bg.responses === 0) problems.push(`no ${bg.label} answered`);
    if (bg.unexpected > 0) problems.push(`${bg.unexpected} ${bg.label} without status ${bg.expectStatus}`);
    if (bg.errors > 0) problems.push(`${bg.errors} connection errors of ${bg.label}`);
    if (bg.timeouts > 0) problems.push(`${bg.timeouts} timeouts of ${bg.label}`);
    if (bg.feedExhausted > 0) problems.push(`pre-signed ${bg.label} ran out (${bg.feedExhausted} re-sent)`);
    // A background that could not keep its rate did not put the load the scenario claims.
    if (bg.rate < bg.targetRate * 0.9)
      problems.push(`${bg.label} ran at ${bg.rate.toFixed(1)}/s, below 90% of the ${bg.targetRate}/s asked for`);
  }
  return problems;
}

interface SideState {
  label: string;
  side: Side;
  /** Where the load goes: the server, or the proxy in front of the instances. */
  url: string;
  /** The server processes (one, or the instances behind the proxy). */
  servers: RunningServer[];
  proxy: RunningServer | undefined;
  stop(): Promise<void>;
  /** Per server process: CPU time over the measured slices; with a proxy, the requests it was sent. */
  instanceCpuMicros: number[];
  /** The system (kernel) part of the server processes' CPU time over the measured slices. */
  systemMicros: number;
  forwarded: number[];
  proxyCpuMicros: number;
  feed: Feed | undefined;
  /** The prepared requests of the background load, when the side has one. */
  backgroundFeed: Feed | undefined;
  /** Background outcomes of the measured slices (the warm-up's are only checked). */
  backgroundRuns: BackgroundResult[];
  /** Background responses with the expected status during the warm-up, and its errors and timeouts. */
  backgroundWarmAccepted: number;
  backgroundWarmLost: number;
  cycle: PathCycle | undefined;
  latencies: LatencyRecorder;
  labelLatencies: Map<string, LatencyRecorder>;
  /** Best req/s seen so far: sizes the next top-up of the feed. */
  rate: number;
  runs: RunResult[];
  /** Expected-status responses of the warm-up. */
  warmAccepted: number;
  sliceRps: number[];
  clientCpuMicros: number;
  wallMicros: number;
  warmupProblems: string[];
}

const log = (message: string) => console.error(`[bench] ${message}`);

/** What every process of a side reports at one moment (the servers', then the proxy's). */
async function sampleSide(state: SideState): Promise<{ servers: ServerSample[]; proxy: ServerSample | undefined }> {
  const [servers, proxy] = await Promise.all([Promise.all(state.servers.map((s) => s.sample())), state.proxy?.sample()]);
  return { servers, proxy };
}

/** The side's server process, or its instances behind the round-robin proxy (Side.proxy). */
async function startSide(ctx: BenchContext, side: Side, label: string) {
  const spec = serverSpec(ctx, side);
  if (!side.proxy) {
    const server = await startServer(spec, ctx.settings, label);
    return { url: server.url, servers: [server], proxy: undefined, stop: () => server.stop() };
  }
  if (!Number.isInteger(side.proxy.instances) || side.proxy.instances < 1)
    throw new Error(`${label}: proxy.instances must be a positive integer`);
  const group = await startBehindProxy(spec, side.proxy.instances, ctx.settings, label);
  return { url: group.url, servers: group.instances, proxy: group.proxy, stop: () => group.stop() };
}

/** The server process a side runs: the service with the bench's environment, or a baseline with its options. */
export function serverSpec(ctx: BenchContext, side: Side): ServerSpec {
  if (side.server === 'app') return { kind: 'app', env: { ...ctx.appEnv, ...side.env } };
  return {
    kind: 'baseline',
    name: side.server,
    options: {
      databaseUrl: ctx.databaseUrl,
      redisUrl: ctx.redisUrl,
      redisKeyPrefix: `${ctx.redisKeyPrefix}baseline:`,
      aud: ctx.aud,
      // the app's DATABASE_POOL_MAX default: both sides get the same number of PostgreSQL connections
      poolMax: 10,
      ...side.options,
    },
  };
}

function backgroundProblems(bg: BackgroundResult | undefined, expectStatus: number, label: string): string[] {
  if (!bg) return [];
  const unexpected = bg.responses - (bg.statusCounts[String(expectStatus)] ?? 0);
  const problems: string[] = [];
  if (unexpected > 0) problems.push(`${unexpected} ${label} without status ${expectStatus}: ${JSON.stringify(bg.statusCounts)}`);
  if (bg.errors > 0) problems.push(`${bg.errors} connection errors of ${label}`);
  if (bg.timeouts > 0) problems.push(`${bg.timeouts} timeouts of ${label}`);
  return [...problems, ...bg.samples.map((s) => `unexpected ${label} response: ${s}`)];
}

function runProblems(run: RunResult, expectStatus: number): string[] {
  const problems: string[] = [];
  const unexpected = run.responses - (run.statusCounts[String(expectStatus)] ?? 0);
  if (unexpected > 0) problems.push(`${unexpected} responses without status ${expectStatus}: ${JSON.stringify(run.statusCounts)}`);
  if (run.errors > 0) problems.push(`${run.errors} connection errors`);
  if (run.timeouts > 0) problems.push(`${run.timeouts} timeouts`);
  if (run.mismatches > 0) problems.push(`${run.mismatches} unexpected bodies`);
  return [...problems, ...run.samples.map((s) => `unexpected response: ${s}`)];
}

/**
 * Measures one scenario: the baseline and the service each in its own server process, both started and
 * warmed up first, then measured in BENCH_ROUNDS interleaved slices (baseline, app, app, baseline, ...) that
 * add up to BENCH_DURATION seconds per side. Interleaving matters on a shared 2-core machine: anything else
 * that runs meanwhile (a test suite, autovacuum, a checkpoint) slows both sides alike instead of whichever
 * side happened to run at that moment, so the ratio stays meaningful even when the absolute numbers move.
 */
export async function measureScenario(ctx: BenchContext, scenario: Scenario): Promise<ScenarioResult> {
  const { settings } = ctx;
  const sliceSeconds = settings.durationSeconds / settings.rounds;
  const connections = scenario.connections?.(settings) ?? settings.connections;
  const notes = (await scenario.setup?.(ctx)) ?? [];

  const states: SideState[] = [];
  try {
    for (const [which, side] of [
      ['baseline', scenario.baseline(ctx)],
      ['scenario', scenario.subject(ctx)],
    ] as const) {
      const label = `${scenario.name}/${which}`;
      const started = await startSide(ctx, side, label.replace('/', '-'));
      states.push({
        label,
        side,
        ...started,
        instanceCpuMicros: started.servers.map(() => 0),
        systemMicros: 0,
        forwarded: started.servers.map(() => 0),
        proxyCpuMicros: 0,
        feed: side.load.feed ? new Feed(side.load.feed) : undefined,
        backgroundFeed: side.load.background ? new Feed(side.load.background.feed) : undefined,
        backgroundRuns: [],
        backgroundWarmAccepted: 0,
        backgroundWarmLost: 0,
        cycle: side.load.paths ? new PathCycle(side.load.paths) : undefined,
        latencies: new LatencyRecorder(),
        labelLatencies: new Map(),
        rate: 0,
        runs: [],
        warmAccepted: 0,
        sliceRps: [],
        clientCpuMicros: 0,
        wallMicros: 0,
        warmupProblems: [],
      });
    }

    for (const state of states) {
      // Warm-up in two halves (JIT, pools, connections); the second half's rate sizes the first top-up. Each
      // half stops after BENCH_WARMUP_SECONDS at most (slow routes).
      const half = Math.max(connections, Math.ceil(settings.warmupRequests / 2));
      state.feed?.ensure(2 * (half + connections));
      const bg = state.side.load.background;
      // enough for both halves at their longest (a background run lasts as long as the run it accompanies)
      state.backgroundFeed?.ensure(Math.ceil(2 * (bg?.rate ?? 0) * (settings.warmupSeconds + 2)) + 2 * (bg?.connections ?? 0));
      for (const feed of [state.feed, state.backgroundFeed]) if (feed) feed.signWhenEmpty = true;
      log(`${state.label}: warming up (${2 * half} requests, at most ${2 * settings.warmupSeconds} s, ${connections} connections)`);
      const warmOptions = {
        connections,
        amount: half,
        maxSeconds: settings.warmupSeconds,
        feed: state.feed,
        cycle: state.cycle,
        backgroundFeed: state.backgroundFeed,
      };
      // every path at least once per instance (behind a round robin, each instance sees about half of each pass)
      const everyPath = state.side.load.warmEveryPath && state.side.load.paths ? state.side.load.paths.length * state.servers.length : 0;
      const first = await runLoad(
        state.url,
        state.side.load,
        everyPath ? { ...warmOptions, amount: Math.max(half, everyPath), maxSeconds: undefined } : warmOptions,
      );
      const second = await runLoad(state.url, state.side.load, warmOptions);
      state.rate = second.activeSeconds > 0 ? second.responses / second.activeSeconds : 0;
      state.warmAccepted = [first, second].reduce((n, r) => n + (r.statusCounts[String(state.side.load.expectStatus)] ?? 0), 0);
      state.warmupProblems = [...runProblems(first, state.side.load.expectStatus), ...runProblems(second, state.side.load.expectStatus)];
      if (bg) {
        for (const run of [first, second]) {
          state.warmupProblems.push(...backgroundProblems(run.background, bg.expectStatus, bg.label));
          state.backgroundWarmAccepted += run.background?.statusCounts[String(bg.expectStatus)] ?? 0;
          state.backgroundWarmLost += (run.background?.errors ?? 0) + (run.background?.timeouts ?? 0);
        }
      }
      log(`${state.label}: warm-up ran at ${Math.round(state.rate)} req/s`);
      for (const p of state.warmupProblems) log(`${state.label}: warm-up: ${p}`);
      // only the measured slices count, and they never sign while measuring
      for (const feed of [state.feed, state.backgroundFeed]) {
        if (!feed) continue;
        feed.signWhenEmpty = false;
        feed.exhausted = 0;
      }
    }

    for (let round = 0; round < settings.rounds; round++) {
      const order = round % 2 === 0 ? states : [...states].reverse();
      for (const state of order) {
        // Sign what this slice needs now, while no measurement runs. The warm-up rate is the least reliable
        // estimate (JIT, a busy machine), so the first slice gets twice the margin.
        const margin = settings.feedFactor * (round === 0 ? 2 : 1);
        state.feed?.ensure(Math.ceil(state.rate * sliceSeconds * margin) + connections);
        const bg = state.side.load.background;
        if (bg) state.backgroundFeed?.ensure(Math.ceil(bg.rate * (sliceSeconds + 2) * 2) + bg.connections);
        await sleep(settings.pauseMs);
        const before = await sampleSide(state);
        const clientBefore = process.cpuUsage();
        const started = performance.now();
        const run = await runLoad(state.url, state.side.load, {
          connections,
          durationSeconds: sliceSeconds,
          feed: state.feed,
          cycle: state.cycle,
          latencies: state.latencies,
          labelLatencies: state.labelLatencies,
          backgroundFeed: state.backgroundFeed,
        });
        if (run.background) state.backgroundRuns.push(run.background);
        state.wallMicros += (performance.now() - started) * 1000;
        const client = process.cpuUsage(clientBefore);
        state.clientCpuMicros += client.user + client.system;
        const after = await sampleSide(state);
        after.servers.forEach((s, i) => {
          state.instanceCpuMicros[i]! += s.cpuMicros - before.servers[i]!.cpuMicros;
          state.systemMicros += s.systemMicros - before.servers[i]!.systemMicros;
        });
        if (after.proxy && before.proxy) {
          state.proxyCpuMicros += after.proxy.cpuMicros - before.proxy.cpuMicros;
          after.proxy.forwarded?.forEach((n, i) => (state.forwarded[i]! += n - (before.proxy?.forwarded?.[i] ?? 0)));
        }
        const rps = run.responses / run.durationSeconds;
        state.rate = Math.max(state.rate, rps);
        state.runs.push(run);
        state.sliceRps.push(rps);
        log(`${state.label}: slice ${round + 1}/${settings.rounds}: ${Math.round(rps)} req/s ${JSON.stringify(run.statusCounts)}`);
      }
    }

    const [baseline, subject] = states.map(summarize) as [SideResult, SideResult];
    const background = (state: SideState, side: SideResult): BackgroundOutcome | undefined =>
      side.background
        ? {
            accepted: state.backgroundWarmAccepted + (side.background.statusCounts[String(side.background.expectStatus)] ?? 0),
            maxUnanswered: state.backgroundWarmLost + side.background.errors + side.background.timeouts,
          }
        : undefined;
    const [baselineBackground, subjectBackground] = [background(states[0]!, baseline), background(states[1]!, subject)];
    // A run ends by closing its connections: up to one request per connection may have been handled by the
    // server without its response being counted. Two warm-up runs plus the slices.
    const maxUnanswered = connections * (2 + settings.rounds);
    // While the servers still run: a scenario may probe them.
    const verifyProblems = scenario.verify
      ? await scenario.verify(ctx, {
          accepted: { baseline: baseline.accepted, subject: subject.accepted },
          maxUnanswered,
          background: {
            ...(baselineBackground ? { baseline: baselineBackground } : {}),
            ...(subjectBackground ? { subject: subjectBackground } : {}),
          },
          servers: { baseline: states[0]!.servers.map((s) => s.url), subject: states[1]!.servers.map((s) => s.url) },
          note: (line) => notes.push(line),
        })
      : undefined;
    for (const p of verifyProblems ?? []) log(`${scenario.name}: data check: ${p}`);
    return {
      name: scenario.name,
      title: scenario.title,
      targetRatio: scenario.targetRatio,
      targetP99Ms: scenario.targetP99Ms,
      connections,
      notes,
      baseline,
      subject,
      verifyProblems,
    };
  } finally {
    await Promise.all(states.map((s) => s.stop()));
  }
}

function summarize(state: SideState): SideResult {
  const statusCounts: Record<string, number> = {};
  let responses = 0;
  let durationSeconds = 0;
  let errors = 0;
  let timeouts = 0;
  let mismatches = 0;
  const samples: string[] = [];
  for (const run of state.runs) {
    for (const [status, count] of Object.entries(run.statusCounts)) statusCounts[status] = (statusCounts[status] ?? 0) + count;
    responses += run.responses;
    durationSeconds += run.durationSeconds;
    errors += run.errors;
    timeouts += run.timeouts;
    mismatches += run.mismatches;
    for (const s of run.samples) if (samples.length < 3) samples.push(s);
  }
  const [p50, p99] = state.latencies.percentiles(50, 99) as [number, number];
  const expectStatus = state.side.load.expectStatus;
  const bgLoad = state.side.load.background;
  let background: BackgroundSummary | undefined;
  if (bgLoad) {
    const bgCounts: Record<string, number> = {};
    let bgResponses = 0;
    let bgErrors = 0;
    let bgTimeouts = 0;
    const bgSamples: string[] = [];
    for (const run of state.backgroundRuns) {
      for (const [status, count] of Object.entries(run.statusCounts)) bgCounts[status] = (bgCounts[status] ?? 0) + count;
      bgResponses += run.responses;
      bgErrors += run.errors;
      bgTimeouts += run.timeouts;
      for (const s of run.samples) if (bgSamples.length < 3) bgSamples.push(s);
    }
    background = {
      label: bgLoad.label,
      expectStatus: bgLoad.expectStatus,
      targetRate: bgLoad.rate,
      rate: durationSeconds > 0 ? bgResponses / durationSeconds : 0,
      responses: bgResponses,
      statusCounts: bgCounts,
      unexpected: bgResponses - (bgCounts[String(bgLoad.expectStatus)] ?? 0),
      errors: bgErrors,
      timeouts: bgTimeouts,
      feedExhausted: state.backgroundFeed?.exhausted ?? 0,
      samples: bgSamples,
    };
  }
  const cpuMicros = state.instanceCpuMicros.reduce((a, b) => a + b, 0);
  const percentOfCore = (micros: number) => (state.wallMicros > 0 ? (micros / state.wallMicros) * 100 : 0);
  const forwardedTotal = state.forwarded.reduce((a, b) => a + b, 0);
  const name = state.side.server === 'app' ? 'real app' : `bare ${state.side.server}`;
  const behindProxy = state.side.proxy
    ? {
        instances: state.servers.map((_, i) => ({
          forwarded: state.forwarded[i]!,
          share: forwardedTotal > 0 ? state.forwarded[i]! / forwardedTotal : 0,
          cpuPercent: percentOfCore(state.instanceCpuMicros[i]!),
          cpuMicrosPerRequest: state.forwarded[i]! > 0 ? state.instanceCpuMicros[i]! / state.forwarded[i]! : 0,
        })),
        proxy: {
          cpuPercent: percentOfCore(state.proxyCpuMicros),
          cpuMicrosPerRequest: forwardedTotal > 0 ? state.proxyCpuMicros / forwardedTotal : 0,
        },
      }
    : {};
  return {
    server: state.side.proxy ? `${name}, ${state.servers.length} behind a round-robin proxy` : name,
    rps: durationSeconds > 0 ? responses / durationSeconds : 0,
    p50,
    p99,
    responses,
    durationSeconds,
    statusCounts,
    expectStatus,
    unexpected: responses - (statusCounts[String(expectStatus)] ?? 0),
    errors,
    timeouts,
    mismatches,
    feedExhausted: state.feed?.exhausted ?? 0,
    samples,
    sliceRps: state.sliceRps,
    serverCpuPercent: percentOfCore(cpuMicros),
    clientCpuPercent: percentOfCore(state.clientCpuMicros),
    cpuMicrosPerResponse: responses > 0 ? cpuMicros / responses : 0,
    systemMicrosPerResponse: responses > 0 ? state.systemMicros / responses : 0,
    accepted: state.warmAccepted + (statusCounts[String(expectStatus)] ?? 0),
    warmupProblems: state.warmupProblems,
    prepared: state.feed?.prepared ?? 0,
    labels: [...state.labelLatencies].map(([label, recorder]) => {
      const [lp50, lp99] = recorder.percentiles(50, 99) as [number, number];
      return { label, count: recorder.count, p50: lp50, p99: lp99 };
    }),
    ...(background ? { background } : {}),
    ...behindProxy,
  };
}
