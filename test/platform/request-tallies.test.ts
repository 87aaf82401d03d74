import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { Counter, Histogram, Registry } from 'prom-client';
import { RequestDurationHistogram, RequestTallies, registerRequestMetrics } from '../../src/platform/request-tallies.js';

const BOUNDS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5];
const NAME = 'http_request_duration_seconds';

/** Every sample line of a Prometheus text, as "name{labels sorted}" → value. */
function samples(text: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const m = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})?\s+(\S+)$/.exec(line);
    assert.ok(m, `not a sample line: ${line}`);
    const labels = [...(m[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((l) => `${l[1]}=${l[2]}`).sort();
    out.set(`${m[1]}{${labels.join(',')}}`, Number(m[3]));
  }
  return out;
}

const observation = fc.record({
  method: fc.constantFrom('GET', 'POST', 'HEAD'),
  route: fc.constantFrom('/healthz', '/v1/stories/:id', 'unmatched'),
  status: fc.constantFrom(200, 202, 404, 503),
  // bounds themselves included: a duration equal to a bound falls in that bound's bucket (le is "at most")
  seconds: fc.oneof(fc.constantFrom(...BOUNDS, 0), fc.double({ min: 0, max: 5, noNaN: true })),
});

describe('request tallies', () => {
  test("render the same series as prom-client's own histogram and counter fed the same responses", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(observation, { maxLength: 200 }), async (responses) => {
        const reference = new Registry();
        const histogram = new Histogram({
          name: NAME,
          help: 'h',
          labelNames: ['method', 'route', 'status'],
          buckets: BOUNDS,
          registers: [reference],
        });
        const counter = new Counter({
          name: 'http_requests_total',
          help: 'h',
          labelNames: ['method', 'route', 'status'],
          registers: [reference],
        });
        const registry = new Registry();
        const tallies = registerRequestMetrics(registry, BOUNDS);
        for (const r of responses) {
          const labels = { method: r.method, route: r.route, status: String(r.status) };
          histogram.observe(labels, r.seconds);
          counter.inc(labels);
          tallies.record(r.method, r.route, r.status, r.seconds);
        }
        const expected = samples(await reference.metrics());
        const actual = samples(await registry.metrics());
        assert.deepEqual([...actual.keys()].sort(), [...expected.keys()].sort());
        for (const [key, value] of expected)
          assert.ok(Math.abs(actual.get(key)! - value) <= 1e-9 * Math.max(1, value), `${key}: ${actual.get(key)} against ${value}`);
      }),
      { numRuns: 150 },
    );
  });

  test('a duration on a bound counts in that bound, one above every bound only in +Inf', async () => {
    const registry = new Registry();
    const tallies = new RequestTallies([0.1, 1]);
    new RequestDurationHistogram(tallies, { name: NAME, help: 'h', registers: [registry] });
    for (const seconds of [0.1, 0.5, 1, 3]) tallies.record('GET', '/healthz', 200, seconds);
    const text = samples(await registry.metrics());
    const series = (suffix: string, extra = '') =>
      text.get(`${NAME}_${suffix}{${[extra, 'method=GET', 'route=/healthz', 'status=200'].filter(Boolean).sort().join(',')}}`);
    assert.equal(series('bucket', 'le=0.1'), 1);
    assert.equal(series('bucket', 'le=1'), 3);
    assert.equal(series('bucket', 'le=+Inf'), 4);
    assert.equal(series('count'), 4);
    assert.equal(series('sum'), 4.6);
    tallies.record('GET', '/healthz', 200, Number.NaN);
    const after = samples(await registry.metrics());
    assert.equal(after.get(`${NAME}_sum{method=GET,route=/healthz,status=200}`), 4.6);
    assert.equal(after.get(`${NAME}_count{method=GET,route=/healthz,status=200}`), 5);
  });

  test('a registry reset empties the series; observing the histogram directly is refused', async () => {
    const registry = new Registry();
    const tallies = new RequestTallies(BOUNDS);
    const histogram = new RequestDurationHistogram(tallies, { name: NAME, help: 'h', registers: [registry] });
    tallies.record('GET', '/healthz', 200, 0.002);
    assert.match(await registry.metrics(), /_count\{.*\} 1/);
    registry.resetMetrics();
    assert.deepEqual([...tallies.tallies()], []);
    assert.throws(() => histogram.observe());
  });
});
