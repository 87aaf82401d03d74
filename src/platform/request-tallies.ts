import { Counter, Histogram, type MetricObjectWithValues, type MetricValueWithName, type Registry } from 'prom-client';

type Label = 'method' | 'route' | 'status';

/** The responses of one method, route and status. */
export interface RequestTally {
  readonly labels: Readonly<Record<Label, string>>;
  count: number;
  /** Their durations added up, in seconds. */
  sum: number;
  /**
   * Responses per bucket, not cumulative: `buckets[i]` counts the durations above `bounds[i - 1]` and at most
   * `bounds[i]`; the last one counts those above every bound.
   */
  readonly buckets: Float64Array;
}

/**
 * What every response adds to the request metrics, kept as plain numbers: a count, a sum and a bucket count per
 * method, route pattern and status. Recording a response looks up three maps and adds three numbers; it allocates
 * nothing once its series exists. prom-client's own counter and histogram hash their labels into a string key on
 * every call, which cost several microseconds of a response's CPU in a real server (docs/adr/0022-request-metrics-as-tallies.md); they read these tallies when /metrics is scraped instead.
 *
 * The series are bounded as the labels are: a route is the pattern it was declared with (or "unmatched"), a method
 * is one Node's parser knows, a status is three digits.
 */
export class RequestTallies {
  private readonly byRoute = new Map<string, Map<string, Map<number, RequestTally>>>();

  constructor(readonly bounds: readonly number[]) {}

  /** Counts one response; a duration that is not a finite number at least 0 counts as 0 (the sum stays a number). */
  record(method: string, route: string, status: number, duration: number): void {
    const seconds = Number.isFinite(duration) && duration > 0 ? duration : 0;
    let byMethod = this.byRoute.get(route);
    if (!byMethod) this.byRoute.set(route, (byMethod = new Map()));
    let byStatus = byMethod.get(method);
    if (!byStatus) byMethod.set(method, (byStatus = new Map()));
    let tally = byStatus.get(status);
    if (!tally) {
      tally = { labels: { method, route, status: String(status) }, count: 0, sum: 0, buckets: new Float64Array(this.bounds.length + 1) };
      byStatus.set(status, tally);
    }
    tally.count += 1;
    tally.sum += seconds;
    let bucket = 0;
    while (bucket < this.bounds.length && seconds > this.bounds[bucket]!) bucket += 1;
    tally.buckets[bucket]! += 1;
  }

  *tallies(): Generator<RequestTally> {
    for (const byMethod of this.byRoute.values()) for (const byStatus of byMethod.values()) yield* byStatus.values();
  }

  clear(): void {
    this.byRoute.clear();
  }
}

/**
 * A prom-client histogram whose series are the tallies': registered and rendered by the registry like any other
 * (`_bucket` per bound and `+Inf`, `_sum`, `_count`), with nothing kept in prom-client's own store.
 */
export class RequestDurationHistogram extends Histogram<Label> {
  private readonly series: { name: string; help: string };

  constructor(
    private readonly requests: RequestTallies,
    config: { name: string; help: string; registers: ConstructorParameters<typeof Histogram>[0]['registers'] },
  ) {
    super({ ...config, labelNames: ['method', 'route', 'status'], buckets: [...requests.bounds] });
    this.series = { name: config.name, help: config.help };
  }

  override get(): Promise<MetricObjectWithValues<MetricValueWithName<Label>>> {
    const values: MetricValueWithName<Label | 'le'>[] = [];
    const { name, help } = this.series;
    const bucketName = `${name}_bucket`;
    for (const tally of this.requests.tallies()) {
      let below = 0;
      this.requests.bounds.forEach((le, i) => {
        below += tally.buckets[i]!;
        values.push({ labels: { ...tally.labels, le }, value: below, metricName: bucketName });
      });
      values.push(
        { labels: { ...tally.labels, le: '+Inf' }, value: tally.count, metricName: bucketName },
        { labels: tally.labels, value: tally.sum, metricName: `${name}_sum` },
        { labels: tally.labels, value: tally.count, metricName: `${name}_count` },
      );
    }
    // prom-client's typings give `type` as an enum its code does not export (the value is the string) and make
    // `collect` required; its registry reads name, help, type, aggregator and values
    const metric = { name, help, type: 'histogram', aggregator: 'sum', values };
    return Promise.resolve(metric as unknown as MetricObjectWithValues<MetricValueWithName<Label>>);
  }

  /** The registry renders the text from this method when a metric has it (prom-client's histogram does). */
  getForPromString(): Promise<MetricObjectWithValues<MetricValueWithName<Label>>> {
    return this.get();
  }

  override reset(): void {
    // prom-client's constructor resets the metric too, before this class has its tallies
    (this.requests as RequestTallies | undefined)?.clear();
  }

  override observe(): void {
    throw new Error('RequestDurationHistogram is fed by its RequestTallies');
  }
}

/** The latency buckets of `http_request_duration_seconds`, in seconds. */
export const REQUEST_DURATION_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5];

/**
 * Registers `http_requests_total` and `http_request_duration_seconds` on `registry`, both read from the tallies
 * it returns: the app's onResponse hook records every response into them.
 */
export function registerRequestMetrics(registry: Registry, bounds: readonly number[] = REQUEST_DURATION_BUCKETS): RequestTallies {
  const requests = new RequestTallies(bounds);
  new Counter({
    name: 'http_requests_total',
    help: 'HTTP requests by method, route and status',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [registry],
    collect() {
      this.reset();
      for (const tally of requests.tallies()) this.inc(tally.labels, tally.count);
    },
  });
  new RequestDurationHistogram(requests, {
    name: 'http_request_duration_seconds',
    help: 'HTTP request latency by method, route and status',
    registers: [registry],
  });
  return requests;
}
