import autocannon from 'autocannon';

/** One request prepared before a run (signed, with its own nonce): sent at most once. */
export interface PreparedRequest {
  headers: Record<string, string>;
  body: string;
}

/** The load of one side of a scenario. */
export interface LoadSpec {
  method: 'GET' | 'POST';
  path: string;
  headers?: Record<string, string>;
  body?: string;
  /**
   * Makes `count` requests that may each be sent only once (signed writes: a nonce is single-use), numbered
   * from `first` (how many were made before: use it to keep ids unique across calls). The driver calls it
   * between runs, never while measuring, so the client does no signing under load.
   */
  feed?: (count: number, first: number) => PreparedRequest[];
  /** The status every response must have; anything else is counted and printed. */
  expectStatus: number;
  /** When set, every response body must be exactly this. */
  expectBody?: string;
  /**
   * When set, requests cycle through these paths instead of `path` (one shared round robin over all
   * connections, continued from run to run); the latency of each label is also reported on its own.
   */
  paths?: readonly LabeledPath[];
  /**
   * When set, every response with the expected status must pass it (cheap: it runs on every response in
   * the load generator). A failing body counts as a mismatch, which makes the side INVALID.
   */
  checkBody?: { description: string; test(body: string): boolean };
}

/** A request path and the group its latency is reported under (e.g. `page 1001`, `q=climate`). */
export interface LabeledPath {
  label: string;
  path: string;
}

/** The round robin over a side's paths: shared by all connections, kept across runs. */
export class PathCycle {
  private next = 0;
  constructor(readonly paths: readonly LabeledPath[]) {
    if (paths.length === 0) throw new Error('PathCycle needs at least one path');
  }

  take(): LabeledPath {
    const p = this.paths[this.next]!;
    this.next = (this.next + 1) % this.paths.length;
    return p;
  }
}

/**
 * The single-use requests of one side. Topped up (signed) between runs with ensure(); a run that takes more
 * than was prepared re-sends old requests, which the service refuses as replays, and is counted here so the
 * run is reported invalid instead of silently measuring 409s.
 */
export class Feed {
  private items: PreparedRequest[] = [];
  private next = 0;
  /** Requests taken after the prepared ones ran out. */
  exhausted = 0;
  /** Requests prepared so far. */
  prepared = 0;
  /** Seconds spent preparing (signing). */
  preparingSeconds = 0;

  constructor(private readonly make: (count: number, first: number) => PreparedRequest[]) {}

  /** Makes sure at least `count` unsent requests are ready. */
  ensure(count: number): void {
    const left = this.items.length - this.next;
    if (left >= count) return;
    const started = performance.now();
    const fresh = this.make(count - left, this.prepared);
    this.items = this.items.slice(this.next).concat(fresh);
    this.next = 0;
    this.prepared += fresh.length;
    this.preparingSeconds += (performance.now() - started) / 1000;
  }

  take(): PreparedRequest {
    if (this.items.length === 0) throw new Error('feed used before ensure()');
    if (this.next >= this.items.length) {
      this.exhausted += 1;
      return this.items[this.exhausted % this.items.length]!;
    }
    return this.items[this.next++]!;
  }
}

/** Response times in ms with sub-millisecond resolution (autocannon's own histogram keeps whole ms). */
export class LatencyRecorder {
  private values = new Float64Array(1 << 16);
  private length = 0;

  record(ms: number): void {
    if (this.length === this.values.length) {
      const grown = new Float64Array(this.values.length * 2);
      grown.set(this.values);
      this.values = grown;
    }
    this.values[this.length++] = ms;
  }

  get count(): number {
    return this.length;
  }

  /** Percentiles (0-100) by nearest rank. */
  percentiles(...ps: number[]): number[] {
    if (this.length === 0) return ps.map(() => 0);
    const sorted = this.values.slice(0, this.length).sort();
    return ps.map((p) => sorted[Math.min(this.length - 1, Math.max(0, Math.ceil((p / 100) * this.length) - 1))]!);
  }
}

/** Outcome of one autocannon run. */
export interface RunResult {
  responses: number;
  /** As autocannon reports it: it stops on a 1-second tick, so a short run with `amount` lasts >= 1 s. */
  durationSeconds: number;
  /** From the start to the last response: the time the load actually ran. */
  activeSeconds: number;
  statusCounts: Record<string, number>;
  errors: number;
  timeouts: number;
  /** Responses with the expected status but another body than expectBody. */
  mismatches: number;
  /** Some unexpected responses: status and body. */
  samples: string[];
}

export interface RunOptions {
  connections: number;
  /** Either a duration in seconds or a number of requests. */
  durationSeconds?: number;
  amount?: number;
  /** Required when the spec has a feed. */
  feed?: Feed;
  /** Receives the response time of every expected response. */
  latencies?: LatencyRecorder;
  /** Required when the spec has paths. */
  cycle?: PathCycle;
  /** Receives the response time of every expected response under its path's label. */
  labelLatencies?: Map<string, LatencyRecorder>;
  /** With `amount`: stop after this many seconds even if fewer requests were sent (warm-up of slow routes). */
  maxSeconds?: number;
}

/** Runs autocannon in this process against `baseUrl` and checks every response. */
export function runLoad(baseUrl: string, spec: LoadSpec, options: RunOptions): Promise<RunResult> {
  const { feed, latencies, cycle, labelLatencies } = options;
  if (spec.feed && !feed) throw new Error(`${spec.method} ${spec.path}: a feed is required`);
  if (spec.paths && !cycle) throw new Error(`${spec.method} ${spec.path}: a path cycle is required`);
  const samples: string[] = [];
  let mismatches = 0;
  const startedAt = performance.now();
  let lastResponseAt = startedAt;
  // autocannon calls onResponse and then emits 'response' (with the response time) synchronously for the
  // same client: the label seen in onResponse is the one of the response the event reports.
  let answeredLabel: string | undefined;
  const request: autocannon.Request = {
    method: spec.method,
    path: spec.path,
    onResponse: (status, body, context) => {
      lastResponseAt = performance.now();
      answeredLabel = (context as { label?: string } | undefined)?.label;
      if (status !== spec.expectStatus) {
        if (samples.length < 3) samples.push(`${status} ${body.slice(0, 300)}`);
      } else if (spec.expectBody !== undefined && body !== spec.expectBody) {
        mismatches += 1;
        if (samples.length < 3) samples.push(`${status} (body differs) ${body.slice(0, 300)}`);
      } else if (spec.checkBody && !spec.checkBody.test(body)) {
        mismatches += 1;
        if (samples.length < 3) samples.push(`${status} (body fails: ${spec.checkBody.description}) ${body.slice(0, 300)}`);
      }
    },
  };
  if (feed || cycle) {
    request.setupRequest = (req, context) => {
      if (cycle) {
        const next = cycle.take();
        req.path = next.path;
        // autocannon gives each connection a fresh context object before each request
        (context as { label?: string }).label = next.label;
      }
      if (feed) {
        const item = feed.take();
        req.headers = { ...req.headers, ...item.headers };
        req.body = item.body;
      }
      return req;
    };
  }
  const headers: Record<string, string> = { ...spec.headers };
  if (spec.body !== undefined || feed) headers['content-type'] = 'application/json';

  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url: baseUrl,
        connections: options.connections,
        pipelining: 1,
        // autocannon stops on its 1-second tick after the deadline: end just before a tick, not just after.
        ...(options.amount !== undefined ? { amount: options.amount } : { duration: Math.max(0.5, (options.durationSeconds ?? 10) - 0.05) }),
        headers,
        ...(spec.body !== undefined ? { body: spec.body } : {}),
        requests: [request],
      },
      (err, result) => {
        if (err) {
          reject(err instanceof Error ? err : new Error(String(err)));
          return;
        }
        const statusCounts: Record<string, number> = {};
        let responses = 0;
        for (const [status, stat] of Object.entries(result.statusCodeStats ?? {})) {
          const count = stat.count ?? 0;
          statusCounts[status] = count;
          responses += count;
        }
        resolve({ responses, durationSeconds: result.duration, activeSeconds: (lastResponseAt - startedAt) / 1000, statusCounts, errors: result.errors, timeouts: result.timeouts, mismatches, samples });
      },
    );
    if (latencies || labelLatencies) {
      instance.on('response', (_client, statusCode, _bytes, responseTime) => {
        if (statusCode !== spec.expectStatus) return;
        latencies?.record(responseTime);
        if (labelLatencies && answeredLabel !== undefined) {
          let recorder = labelLatencies.get(answeredLabel);
          if (!recorder) labelLatencies.set(answeredLabel, (recorder = new LatencyRecorder()));
          recorder.record(responseTime);
        }
      });
    }
    if (options.amount !== undefined && options.maxSeconds !== undefined) {
      const timer = setTimeout(() => instance.stop(), options.maxSeconds * 1000);
      instance.once('done', () => clearTimeout(timer));
    }
  });
}
