import { Agent as HttpAgent, request as httpRequest } from 'node:http';
import autocannon from 'autocannon';

/** One request prepared before a run (signed, with its own nonce): sent at most once. */
export interface PreparedRequest {
  headers: Record<string, string>;
  body: string;
  /** Its own path (signed with it), instead of the load's. */
  path?: string;
}

/**
 * Single-use requests sent at a steady rate next to a side's load (writes arriving while readers read), on
 * their own connections, for as long as each run of the load lasts. Their responses are checked (status) and
 * counted apart: they are in neither the side's req/s nor its latency.
 */
export interface BackgroundLoad {
  /** How the checks name them, e.g. `POST /v1/stories/:id/comments`. */
  label: string;
  method: 'POST';
  /** Requests per second over all connections (autocannon overallRate). */
  rate: number;
  connections: number;
  expectStatus: number;
  /** Prepared (signed) between runs, as LoadSpec.feed; each carries its path. */
  feed: (count: number, first: number) => PreparedRequest[];
}

/** What the background requests of one run did. */
export interface BackgroundResult {
  responses: number;
  statusCounts: Record<string, number>;
  errors: number;
  timeouts: number;
  /** Seconds from the start of the run to the last background response. */
  activeSeconds: number;
  samples: string[];
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
   * With `paths`: the first warm-up half sends every path at least once, however long that takes (reads
   * served from a cache are measured warm, as they run in production, not while each URL's first read fills it).
   */
  warmEveryPath?: boolean;
  /**
   * When set, every response with the expected status must pass it (cheap: it runs on every response in
   * the load generator). A failing body counts as a mismatch, which makes the side INVALID.
   */
  checkBody?: { description: string; test(body: string): boolean };
  /** Requests sent at a steady rate while this load runs (see BackgroundLoad). */
  background?: BackgroundLoad;
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
  /**
   * While true (the warm-up, which is not measured and may last longer than planned: a first pass over every
   * path of a slow route), running out signs more on the spot instead of re-sending old requests.
   */
  signWhenEmpty = false;

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
    if (this.signWhenEmpty && this.next >= this.items.length) this.ensure(Math.max(100, Math.ceil(this.prepared / 4)));
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
  /** The background requests sent meanwhile, when the spec has some. */
  background?: BackgroundResult;
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
  /** Required when the spec has a background load: its prepared requests. */
  backgroundFeed?: Feed;
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
        if (item.path !== undefined) req.path = item.path;
      }
      return req;
    };
  }
  const headers: Record<string, string> = { ...spec.headers };
  if (spec.body !== undefined || feed) headers['content-type'] = 'application/json';
  if (spec.background && !options.backgroundFeed) throw new Error(`${spec.method} ${spec.path}: a background feed is required`);
  const background =
    spec.background && options.backgroundFeed ? runBackground(baseUrl, spec.background, options.backgroundFeed, startedAt) : undefined;

  const main = new Promise<RunResult>((resolve, reject) => {
    const instance = autocannon(
      {
        url: baseUrl,
        connections: options.connections,
        pipelining: 1,
        // autocannon stops on its 1-second tick after the deadline: end just before a tick, not just after.
        ...(options.amount !== undefined
          ? { amount: options.amount }
          : { duration: Math.max(0.5, (options.durationSeconds ?? 10) - 0.05) }),
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
        resolve({
          responses,
          durationSeconds: result.duration,
          activeSeconds: (lastResponseAt - startedAt) / 1000,
          statusCounts,
          errors: result.errors,
          timeouts: result.timeouts,
          mismatches,
          samples,
        });
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
  if (!background) return main;
  return main.then(
    async (result) => ({ ...result, background: await background.stop() }),
    async (err: unknown) => {
      await background.stop().catch(() => undefined);
      throw err;
    },
  );
}

/**
 * Sends `load` at its steady rate until stop() (called when the run it accompanies ends): request n leaves at
 * n / rate seconds after the start, on a keep-alive agent of `connections` sockets (autocannon's overallRate
 * sends each second's requests in a burst at the start of the second).
 */
function runBackground(baseUrl: string, load: BackgroundLoad, feed: Feed, startedAt: number): { stop(): Promise<BackgroundResult> } {
  const agent = new HttpAgent({ keepAlive: true, maxSockets: load.connections });
  const url = new URL(baseUrl);
  const samples: string[] = [];
  const statusCounts: Record<string, number> = {};
  let responses = 0;
  let errors = 0;
  let timeouts = 0;
  let sent = 0;
  let lastResponseAt = startedAt;
  const inFlight = new Set<Promise<void>>();

  const send = () => {
    const item = feed.take();
    const done = new Promise<void>((resolve) => {
      const req = httpRequest(
        {
          host: url.hostname,
          port: url.port,
          method: load.method,
          path: item.path ?? '/',
          agent,
          headers: { ...item.headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(item.body) },
          timeout: 10_000,
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => {
            lastResponseAt = performance.now();
            const status = String(res.statusCode ?? 0);
            statusCounts[status] = (statusCounts[status] ?? 0) + 1;
            responses += 1;
            if (res.statusCode !== load.expectStatus && samples.length < 3)
              samples.push(`${status} ${Buffer.concat(chunks).toString('utf8').slice(0, 300)}`);
            resolve();
          });
        },
      );
      req.on('timeout', () => {
        timeouts += 1;
        req.destroy();
      });
      req.on('error', () => {
        errors += 1;
        resolve();
      });
      req.end(item.body);
    });
    inFlight.add(done);
    void done.then(() => inFlight.delete(done));
  };

  const timer = setInterval(() => {
    const due = Math.floor(((performance.now() - startedAt) / 1000) * load.rate);
    while (sent < due) {
      sent += 1;
      send();
    }
  }, 5);
  let result: Promise<BackgroundResult> | undefined;
  return {
    stop() {
      result ??= (async () => {
        clearInterval(timer);
        await Promise.all([...inFlight]);
        agent.destroy();
        return { responses, statusCounts, errors, timeouts, activeSeconds: (lastResponseAt - startedAt) / 1000, samples };
      })();
      return result;
    },
  };
}
