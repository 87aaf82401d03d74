// npm run bench:hostile-bodies: the JSON body parser fed bodies built to be slow (runs of zeros inside numbers,
// long digit strings and exponents, deep nesting, strings of escapes, escaped keys), each at a size fast-check picks
// between 16 and 64 KiB and at 8 times it, beside a plain body of the same size. A cost that grows linearly is 8
// times as high at 8 times the size, a square one 64 times: the run fails at 24.
import fc from 'fast-check';
import Fastify from 'fastify';
import { registerJsonBodyParser } from '../src/platform/json-body.js';

const HEAD = '{"actorId":"reader-1","verified":false,"n":';
const SHAPES: Record<string, (size: number) => string> = {
  'zeros inside a number': (n) => `${HEAD}1.${'0'.repeat(n)}1}`,
  'zeros after an exponent': (n) => `${HEAD}1e${'0'.repeat(n)}5}`,
  'a long integer': (n) => `${HEAD}${'9'.repeat(n)}}`,
  'many long numbers': (n) =>
    `${HEAD}[${Array(Math.floor(n / 40))
      .fill('1.0000000000000000000000000000000000001')
      .join(',')}]}`,
  'deep arrays': (n) => `${HEAD}${'['.repeat(n / 2)}${']'.repeat(n / 2)}}`,
  'deep objects': (n) => `${HEAD}${'{"a":'.repeat(n / 6)}1${'}'.repeat(n / 6)}}`,
  'escapes in a string': (n) => `${HEAD}"${'\\"\\\\'.repeat(n / 4)}"}`,
  'escaped keys': (n) =>
    `{${Array(Math.floor(n / 12))
      .fill('"\\u0061":1')
      .join(',')}}`,
};
const plain = (n: number) => `${HEAD}"${'a'.repeat(n)}"}`;

const app = Fastify({ bodyLimit: 2 * 1024 * 1024 });
registerJsonBodyParser(app);
app.post('/probe', async (_request, reply) => reply.code(204).send());
await app.ready();

/** The fastest of `runs` requests (ms): the least disturbed by whatever else the machine does. */
async function fastest(payload: string, runs = 5): Promise<number> {
  let best = Infinity;
  for (let i = 0; i < runs; i += 1) {
    const started = performance.now();
    const res = await app.inject({ method: 'POST', url: '/probe', headers: { 'content-type': 'application/json' }, payload });
    best = Math.min(best, performance.now() - started);
    if (res.statusCode >= 500) throw new Error(`${res.statusCode}: ${res.body.slice(0, 200)}`);
  }
  return best;
}

const rows: { shape: string; size: number; hostile: number; plain: number; growth: number }[] = [];
/** At 8 times the size a linear cost is 8 times as high, a square one 64 times: the run fails at 24. */
const LIMIT = 24;
await fc
  .assert(
    fc.asyncProperty(fc.constantFrom(...Object.keys(SHAPES)), fc.integer({ min: 16, max: 64 }), async (shape, kib) => {
      const cost = async (size: number) => {
        const body = SHAPES[shape]!(size);
        await fastest(body, 2); // warm the route and V8's code for this shape and size
        // a floor of 0.5 ms: below it a request's own overhead and the machine's noise decide, not the body
        return { hostile: Math.max(await fastest(body), 0.5), plain: Math.max(await fastest(plain(size)), 0.5) };
      };
      const small = await cost(kib * 1024);
      const large = await cost(kib * 8 * 1024);
      const growth = large.hostile / small.hostile;
      rows.push({ shape, size: kib * 8, hostile: large.hostile, plain: large.plain, growth });
      return growth < LIMIT;
    }),
    { numRuns: Number(process.env.BENCH_HOSTILE_RUNS ?? 24) },
  )
  .finally(() => app.close());

rows.sort((a, b) => a.shape.localeCompare(b.shape) || a.size - b.size);
console.log('| shape | size (KiB) | hostile (ms) | plain body of its size (ms) | cost at 8× the size / at the size |');
console.log('|---|---:|---:|---:|---:|');
for (const r of rows) console.log(`| ${r.shape} | ${r.size} | ${r.hostile.toFixed(2)} | ${r.plain.toFixed(2)} | ${r.growth.toFixed(1)} |`);
console.log(`\nlargest growth at 8× the size: ${Math.max(...rows.map((r) => r.growth)).toFixed(1)} (linear: 8; fails at ${LIMIT})`);
