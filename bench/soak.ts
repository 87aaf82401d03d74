/**
 * `npm run soak`: the real service as a child process under mixed traffic for SOAK_MINUTES (default 30), with
 * memory, event-loop delay and PostgreSQL connections sampled, then a summary (docs/operators.md, "Soak").
 *
 * Traffic (open model: SOAK_RPS requests a second are started whatever the answers take, at most
 * SOAK_MAX_IN_FLIGHT at once; a request that would pass that bound is counted as dropped): public reads (feed,
 * story, versions, search, ledger, the reader site's home page), agent writes signed with Ed25519 (candidates,
 * attestations, objections), the operations job (publication), human writes signed with HMAC (comments,
 * preferences), content-admin corrections and retractions (each a webhook delivered to a local HTTPS
 * receiver that checks its signature), and a rewards settlement run every SOAK_SETTLE_SECONDS (the reward window
 * of the stories published over a minute earlier is closed in the database first, as if its 72 h had passed).
 *
 * Sampled every SOAK_SAMPLE_SECONDS: the service's heap used, RSS and event-loop delay (prom-client's
 * monitorEventLoopDelay histogram in /metrics, reset at each scrape, so each sample is its own interval),
 * its pool, and the connections PostgreSQL itself counts for the database (pg_stat_activity).
 *
 * Environment: SOAK_MINUTES (30), SOAK_RPS (25), SOAK_SAMPLE_SECONDS (10), SOAK_WINDOWS (6),
 * SOAK_PG_URL (postgres://postgres@127.0.0.1:5432/postgres: where the database soak_<random> is created and
 * dropped afterwards; SOAK_KEEP_DB=1 keeps it), SOAK_REDIS_URL (redis://127.0.0.1:6379; keys under
 * soak:<random>: are deleted afterwards), SOAK_REPORT (JSON report path, default test-artifacts/soak/<time>.json).
 * Exit code 1 when any answer was a 5xx, a request failed at the transport level, or a webhook was not delivered.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { dirname } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import pg from 'pg';
import { createServiceClient, generateAgentKey, type AgentKey } from '../sdk/index.js';
import { createTestCertificate, startReceiver } from '../test/helpers/https-receiver.js';
import { startService } from '../test/helpers/service-process.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const num = (name: string, fallback: number) => {
  const v = Number(process.env[name] ?? fallback);
  if (!Number.isFinite(v) || v <= 0) throw new Error(`${name} must be a positive number`);
  return v;
};
const MINUTES = num('SOAK_MINUTES', 30);
const RPS = num('SOAK_RPS', 25);
const SAMPLE_SECONDS = num('SOAK_SAMPLE_SECONDS', 10);
const WINDOWS = Math.round(num('SOAK_WINDOWS', 6));
const MAX_IN_FLIGHT = Math.round(num('SOAK_MAX_IN_FLIGHT', 64));
const SETTLE_SECONDS = num('SOAK_SETTLE_SECONDS', 60);
const REQUEST_TIMEOUT_MS = 30_000;
const PG_URL = process.env.SOAK_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const REDIS_URL = process.env.SOAK_REDIS_URL ?? 'redis://127.0.0.1:6379';
const RUN = randomBytes(4).toString('hex');
const DB_NAME = `soak_${RUN}`;
const REDIS_PREFIX = `soak:${RUN}:`;
const REPORT = process.env.SOAK_REPORT ?? `test-artifacts/soak/${new Date().toISOString().replace(/[:.]/g, '-')}.json`;

const SECRET = 'soak-human-signing-secret';
const OPS = 'soak-operations-token';
const API_KEY = 'soak-public-api-key';
const WEBHOOK_SECRET = 'soak-webhook-secret-0123456789';
const ADMIN = { actorId: 'soak-admin', linkedHumanId: 'h_soak_admin', verified: true };

interface Call {
  t: number;
  action: string;
  status: number;
  ms: number;
}
interface Sample {
  t: number;
  heapUsedMb: number;
  rssMb: number;
  loopP50Ms: number;
  loopP99Ms: number;
  loopMaxMs: number;
  poolTotal: number;
  pgConnections: number;
  webhooksPending: number;
  /** the machine's 1-minute load average (the soak shares it with PostgreSQL, Redis and whatever else runs) */
  load1: number;
}

function dbUrl(name: string): string {
  const u = new URL(PG_URL);
  u.pathname = `/${name}`;
  return u.toString();
}

function metric(text: string, name: string, labels = ''): number {
  const line = text.split('\n').find((l) => l.startsWith(`${name}${labels} `) || (labels === '' && l.startsWith(`${name}{`)));
  return line ? Number(line.slice(line.lastIndexOf(' ') + 1)) : NaN;
}

function quantile(sorted: number[], q: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}

/** Least-squares slope of y over x. */
function slope(points: [number, number][]): number {
  const n = points.length;
  if (n < 2) return NaN;
  const mx = points.reduce((s, p) => s + p[0], 0) / n;
  const my = points.reduce((s, p) => s + p[1], 0) / n;
  const num = points.reduce((s, p) => s + (p[0] - mx) * (p[1] - my), 0);
  const den = points.reduce((s, p) => s + (p[0] - mx) ** 2, 0);
  return den === 0 ? NaN : num / den;
}

const f = (n: number, d = 1) => (Number.isFinite(n) ? n.toFixed(d) : '-');

async function main() {
  const admin = new pg.Client({ connectionString: PG_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${DB_NAME}`);
  const cert = createTestCertificate();
  const receiver = await startReceiver(cert, WEBHOOK_SECRET);
  console.error(`soak ${RUN}: ${MINUTES} min at ${RPS} req/s; database ${DB_NAME}, Redis prefix ${REDIS_PREFIX}`);

  const service = await startService({
    LOG_LEVEL: 'warn',
    SEED_DEMO: '0',
    DATABASE_URL: dbUrl(DB_NAME),
    REDIS_URL,
    REDIS_KEY_PREFIX: REDIS_PREFIX,
    NONCE_STORE_DRIVER: 'redis',
    RATE_LIMIT_STORE_DRIVER: 'redis',
    HUMAN_SIGNING_SECRET: SECRET,
    API_OPERATIONS_TOKEN: OPS,
    PUBLIC_API_KEYS: API_KEY,
    CONTENT_ADMIN_IDS: ADMIN.linkedHumanId,
    REWARDS_ADMIN_IDS: ADMIN.linkedHumanId,
    RATE_LIMIT_UNVERIFIED_WRITES_PER_MINUTE: '1000000',
    RATE_LIMIT_VERIFIED_WRITES_PER_MINUTE: '1000000',
    RATE_LIMIT_HUMAN_WRITES_PER_MINUTE: '1000000',
    RATE_LIMIT_PUBLIC_READS_PER_MINUTE: '1000000',
    RATE_LIMIT_AGENT_JOINS_PER_MINUTE: '1000000',
    WEBHOOK_ENDPOINTS: receiver.url,
    WEBHOOK_SIGNING_SECRET: WEBHOOK_SECRET,
    WEBHOOK_ALLOW_PRIVATE_ADDRESSES: '1',
    WEBHOOK_RETRY_BASE_MS: '500',
    NODE_EXTRA_CA_CERTS: cert.certPath,
  });
  const db = new pg.Client({ connectionString: dbUrl(DB_NAME) });
  await db.connect();
  await db.query(`INSERT INTO human_identities (linked_human_id, tier, provider) VALUES ($1, 'L3', 'world_id') ON CONFLICT DO NOTHING`, [
    ADMIN.linkedHumanId,
  ]);
  await db.query(`INSERT INTO actor_bindings (actor_id, linked_human_id) VALUES ($1, $2) ON CONFLICT DO NOTHING`, [
    ADMIN.actorId,
    ADMIN.linkedHumanId,
  ]);

  const client = createServiceClient({ baseUrl: service.url, apiKey: API_KEY });
  const calls: Call[] = [];
  const samples: Sample[] = [];
  const transportErrors: Record<string, number> = {};
  let inFlight = 0;
  let dropped = 0;
  const started = performance.now();
  const elapsed = () => (performance.now() - started) / 1000;
  let webhookEvents = 0;

  async function timed<T extends { status: number }>(action: string, fn: () => Promise<T>): Promise<T | undefined> {
    const t0 = performance.now();
    try {
      const res = await fn();
      calls.push({ t: elapsed(), action, status: res.status, ms: performance.now() - t0 });
      return res;
    } catch (err) {
      const key = `${action}: ${(err as Error).name} ${(err as Error).message}`.slice(0, 160);
      transportErrors[key] = (transportErrors[key] ?? 0) + 1;
      return undefined;
    }
  }
  const get = (action: string, path: string, headers: Record<string, string> = {}) =>
    timed(action, async () => {
      const res = await fetch(`${service.url}${path}`, { headers, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
      return { status: res.status, body: await res.text() };
    });
  const ops = (action: string, path: string) =>
    timed(action, async () => {
      const res = await fetch(`${service.url}${path}`, {
        method: 'POST',
        headers: { 'x-operations-token': OPS },
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      });
      return { status: res.status, body: (await res.json()) as Json };
    });
  const agent = (action: string, key: AgentKey, path: string, body: Json) => timed(action, () => client.agentWrite<Json>(key, path, body));
  const human = (action: string, path: string, body: Json) => timed(action, () => client.humanWrite<Json>(SECRET, path, body as never));

  // the newsroom the traffic acts on: bots, and a pool of published stories with their current packet hash
  const bots: AgentKey[] = [];
  for (let i = 0; i < 12; i++) {
    const key = generateAgentKey();
    const joined = await agent('agent join', key, '/v1/agents/join', { publicKey: key.publicKey, name: `soak-${i}` });
    if (joined?.status === 202) bots.push(key);
  }
  if (bots.length < 2) throw new Error(`could not join bots:\n${service.output()}`);
  const stories: { storyId: string; hash: string }[] = [];
  const pick = <T>(xs: T[]) => xs[Math.floor(Math.random() * xs.length)]!;
  const tag = () => randomBytes(5).toString('hex');

  async function submitAndPublish() {
    const author = pick(bots);
    const t = tag();
    const res = await agent('agent candidate', author, '/v1/candidates', {
      botId: author.botId,
      verified: false,
      room: 'world',
      lang: 'en',
      title: `Harbour authority approves ferry schedule ${t}`,
      summary: 'The port authority voted to add two evening ferry crossings from next month.',
      body: `The harbour authority approved an expanded ferry timetable after a consultation (${t}). Two evening crossings will be added.`,
      claims: [{ text: 'The authority approved two extra evening crossings.' }, { text: `The change starts next month (${t}).` }],
      sources: [{ url: `https://example.org/ferry-${t}`, title: 'Authority minutes', publisher: 'Harbour Authority' }],
    });
    if (res?.status !== 202) return;
    const { hash, storyId } = res.body as { hash: string; storyId: string };
    const published = await ops('ops publish', `/v1/publish/${hash}/compute`);
    if (published?.status === 200 && (published.body as Json).decision === 'ALLOW') {
      stories.push({ storyId, hash });
      if (stories.length > 500) stories.shift();
    }
  }
  for (let i = 0; i < 10; i++) await submitAndPublish();

  const actions: [number, () => Promise<unknown>][] = [
    [22, () => get('read feed', `/v1/feed?limit=${pick(['10', '20', '50'])}`)],
    [18, () => (stories.length ? get('read story', `/v1/stories/${pick(stories).storyId}`) : get('read feed', '/v1/feed'))],
    [6, () => (stories.length ? get('read versions', `/v1/stories/${pick(stories).storyId}/versions`) : get('read feed', '/v1/feed'))],
    [6, () => get('read search', `/v1/search?q=${pick(['ferry', 'harbour', 'crossings', 'authority minutes'])}`)],
    [5, () => get('read ledger', '/v1/ledger/events?limit=20')],
    [4, () => get('read site', '/')],
    [8, submitAndPublish],
    [
      8,
      async () => {
        if (!stories.length) return;
        const s = pick(stories);
        const bot = pick(bots);
        const kind = Math.random() < 0.8 ? 'attestation' : 'objection';
        await agent(`agent ${kind}`, bot, `/v1/agents/${kind}s`, {
          botId: bot.botId,
          verified: false,
          storyId: s.storyId,
          packetHash: s.hash,
        });
      },
    ],
    [
      8,
      async () => {
        if (!stories.length) return;
        await human('human comment', `/v1/stories/${pick(stories).storyId}/comments`, {
          actorId: `reader-${Math.floor(Math.random() * 200)}`,
          verified: false,
          body: `Useful summary ${tag()}.`,
        });
      },
    ],
    [
      4,
      () =>
        human('human preferences', '/v1/users/me/preferences', {
          actorId: `reader-${Math.floor(Math.random() * 200)}`,
          verified: false,
          preferences: { lang: pick(['en', 'fr', 'de']) },
        }),
    ],
    [
      1.5,
      async () => {
        if (stories.length < 5) return;
        const s = pick(stories);
        const res = await human('admin correction', `/v1/admin/stories/${s.storyId}/correction`, {
          ...ADMIN,
          changes: { summary: `The port authority voted to add two evening crossings (${tag()}).` },
          note: 'The crossing count was wrong.',
        });
        if (res?.status === 202 || res?.status === 200) {
          webhookEvents++;
          const next = (res.body as Json).packetHash ?? (res.body as Json).currentPacketHash;
          if (typeof next === 'string') s.hash = next;
        }
      },
    ],
    [
      0.5,
      async () => {
        if (stories.length < 20) return;
        const s = stories.splice(Math.floor(Math.random() * stories.length), 1)[0]!;
        const res = await human('admin retraction', `/v1/admin/stories/${s.storyId}/retraction`, { ...ADMIN, reason: 'Forged minutes.' });
        if (res?.status === 202 || res?.status === 200) webhookEvents++;
      },
    ],
  ];
  const totalWeight = actions.reduce((s, [w]) => s + w, 0);
  function fire() {
    if (inFlight >= MAX_IN_FLIGHT) {
      dropped++;
      return;
    }
    let r = Math.random() * totalWeight;
    const action = actions.find(([w]) => (r -= w) < 0)?.[1] ?? actions[0]![1];
    inFlight++;
    void action()
      .catch((err: unknown) => {
        const key = `action: ${(err as Error).message}`.slice(0, 160);
        transportErrors[key] = (transportErrors[key] ?? 0) + 1;
      })
      .finally(() => inFlight--);
  }

  async function sample() {
    const t = elapsed();
    const text = await fetch(`${service.url}/metrics`, { headers: { 'x-operations-token': OPS }, signal: AbortSignal.timeout(10_000) })
      .then((r) => r.text())
      .catch(() => '');
    const conns = await db.query<{ n: string }>('SELECT count(*) AS n FROM pg_stat_activity WHERE datname = $1', [DB_NAME]);
    const pending = await db.query<{ n: string }>(`SELECT count(*) AS n FROM webhook_deliveries WHERE status <> 'DELIVERED'`);
    samples.push({
      t,
      heapUsedMb: metric(text, 'nodejs_heap_size_used_bytes') / 1048576,
      rssMb: metric(text, 'process_resident_memory_bytes') / 1048576,
      loopP50Ms: metric(text, 'nodejs_eventloop_lag_p50_seconds') * 1000,
      loopP99Ms: metric(text, 'nodejs_eventloop_lag_p99_seconds') * 1000,
      loopMaxMs: metric(text, 'nodejs_eventloop_lag_max_seconds') * 1000,
      poolTotal: metric(text, 'db_pool_connections', '{state="total"}'),
      // the sampler's own connection is not the service's
      pgConnections: Number(conns.rows[0]!.n) - 1,
      webhooksPending: Number(pending.rows[0]!.n),
      load1: loadavg()[0]!,
    });
  }

  const durationS = MINUTES * 60;
  const traffic = setInterval(fire, 1000 / RPS);
  let settlementTimer: NodeJS.Timeout | undefined;
  // Reward windows last 72 h; the soak closes the window of stories published over a minute ago (as if the
  // time had passed) so that each run settles real stories and writes their payouts.
  const settle = () =>
    void db
      .query(
        `UPDATE stories SET reward_window_ends_at = now() - interval '1 second'
         WHERE published_at < now() - interval '60 seconds' AND reward_window_ends_at > now()`,
      )
      .then(() => human('settlement run', '/v1/rewards/settlements/run', { ...ADMIN, totalPoolOrbs: 100 }))
      .finally(() => {
        if (elapsed() < durationS) settlementTimer = setTimeout(settle, SETTLE_SECONDS * 1000);
      });
  settle();
  await sample();
  let lastReport = 0;
  while (elapsed() < durationS) {
    await sleep(Math.min(SAMPLE_SECONDS * 1000, Math.max(0, (durationS - elapsed()) * 1000)));
    await sample();
    if (elapsed() - lastReport >= 60) {
      lastReport = elapsed();
      const s = samples[samples.length - 1]!;
      console.error(
        `  ${f(elapsed() / 60)} min: ${calls.length} requests, heap ${f(s.heapUsedMb)} MB, rss ${f(s.rssMb)} MB, loop p99 ${f(s.loopP99Ms)} ms, pg ${s.pgConnections}`,
      );
    }
  }
  clearInterval(traffic);
  clearTimeout(settlementTimer);
  while (inFlight > 0) await sleep(50);
  // the outbox drains: every event emitted is delivered (bounded wait)
  const drainDeadline = Date.now() + 120_000;
  let undelivered = Infinity;
  while (Date.now() < drainDeadline) {
    const r = await db.query<{ n: string }>(`SELECT count(*) AS n FROM webhook_deliveries WHERE status <> 'DELIVERED'`);
    undelivered = Number(r.rows[0]!.n);
    if (undelivered === 0) break;
    await sleep(500);
  }
  await sample();
  const stopStarted = performance.now();
  const exitCode = await service.stop('SIGTERM');
  const shutdownMs = performance.now() - stopStarted;

  // ------------------------------------------------------------------ report
  const windowS = durationS / WINDOWS;
  const windows = Array.from({ length: WINDOWS }, (_, i) => {
    const from = i * windowS;
    const to = (i + 1) * windowS;
    const inWindow = calls.filter((c) => c.t >= from && c.t < to);
    const ms = inWindow.map((c) => c.ms).sort((a, b) => a - b);
    const reads = inWindow
      .filter((c) => c.action.startsWith('read'))
      .map((c) => c.ms)
      .sort((a, b) => a - b);
    const writes = inWindow
      .filter((c) => !c.action.startsWith('read'))
      .map((c) => c.ms)
      .sort((a, b) => a - b);
    const ss = samples.filter((s) => s.t >= from && s.t < to);
    return {
      from: from / 60,
      to: to / 60,
      requests: inWindow.length,
      rps: inWindow.length / windowS,
      p50: quantile(ms, 0.5),
      p99: quantile(ms, 0.99),
      readP99: quantile(reads, 0.99),
      writeP99: quantile(writes, 0.99),
      max: ms.length ? ms[ms.length - 1]! : NaN,
      errors5xx: inWindow.filter((c) => c.status >= 500).length,
      heapMb: ss.length ? ss[ss.length - 1]!.heapUsedMb : NaN,
      rssMb: ss.length ? ss[ss.length - 1]!.rssMb : NaN,
      loopP99Ms: Math.max(...ss.map((s) => s.loopP99Ms)),
      pgMax: Math.max(...ss.map((s) => s.pgConnections)),
      load: ss.reduce((sum, s) => sum + s.load1, 0) / Math.max(1, ss.length),
    };
  });
  const steady = samples.filter((s) => s.t >= durationS * 0.1 && s.t <= durationS);
  const heapSlope = slope(steady.map((s) => [s.t / 3600, s.heapUsedMb])); // MB per hour
  const rssSlope = slope(steady.map((s) => [s.t / 3600, s.rssMb]));
  const at = (frac: number) =>
    samples.reduce((best, s) => (Math.abs(s.t - durationS * frac) < Math.abs(best.t - durationS * frac) ? s : best));
  const byStatus: Record<string, Record<string, number>> = {};
  for (const c of calls) {
    byStatus[c.action] ??= {};
    byStatus[c.action]![c.status] = (byStatus[c.action]![c.status] ?? 0) + 1;
  }
  const fiveXx = calls.filter((c) => c.status >= 500).length;
  const delivered = new Set(receiver.delivered().map((r) => r.id)).size;
  const badSignatures = receiver.requests.filter((r) => !r.signatureValid).length;
  const lines: string[] = [];
  lines.push(
    `\nSoak ${RUN}: ${MINUTES} min, ${calls.length} requests (${f(calls.length / durationS)} req/s), ${dropped} dropped at the in-flight bound`,
  );
  lines.push('\nMemory (service process):');
  lines.push('| when | heap used MB | RSS MB | pool | pg connections |');
  lines.push('|---|--:|--:|--:|--:|');
  for (const [label, frac] of [
    ['start', 0],
    ['middle', 0.5],
    ['end', 1],
  ] as const) {
    const s = at(frac);
    lines.push(`| ${label} (${f(s.t / 60)} min) | ${f(s.heapUsedMb)} | ${f(s.rssMb)} | ${s.poolTotal} | ${s.pgConnections} |`);
  }
  lines.push(
    `Slope after the first 10%: heap ${f(heapSlope)} MB/h, RSS ${f(rssSlope)} MB/h; heap min ${f(Math.min(...steady.map((s) => s.heapUsedMb)))} max ${f(Math.max(...steady.map((s) => s.heapUsedMb)))} MB`,
  );
  lines.push(
    `PostgreSQL connections of the database: max ${Math.max(...samples.map((s) => s.pgConnections))} (pool max 10); event-loop delay p99 per sample: median ${f(
      quantile(
        samples.map((s) => s.loopP99Ms).sort((a, b) => a - b),
        0.5,
      ),
    )} ms, max ${f(Math.max(...samples.map((s) => s.loopP99Ms)))} ms`,
  );
  lines.push('\nLatency per window (client side, ms):');
  lines.push(
    '| window (min) | requests | req/s | p50 | p99 | reads p99 | writes p99 | max | 5xx | loop p99 max | heap MB | RSS MB | pg max |',
  );
  lines.push('|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|');
  for (const w of windows)
    lines.push(
      `| ${f(w.from)}-${f(w.to)} | ${w.requests} | ${f(w.rps)} | ${f(w.p50)} | ${f(w.p99)} | ${f(w.readP99)} | ${f(w.writeP99)} | ${f(w.max)} | ${w.errors5xx} | ${f(w.loopP99Ms)} | ${f(w.heapMb)} | ${f(w.rssMb)} | ${w.pgMax} | ${f(w.load)} |`,
    );
  lines.push('\nAnswers by action and status:');
  for (const [action, statuses] of Object.entries(byStatus).sort())
    lines.push(
      `  ${action.padEnd(20)} ${Object.entries(statuses)
        .map(([s, n]) => `${s}: ${n}`)
        .join(', ')}`,
    );
  lines.push(`Transport errors: ${Object.keys(transportErrors).length ? JSON.stringify(transportErrors) : 'none'}`);
  lines.push(
    `Webhooks: ${webhookEvents} events emitted, ${delivered} distinct ids delivered, ${receiver.requests.length} requests received, ${badSignatures} bad signatures, ${undelivered} not delivered at the end`,
  );
  lines.push(`Shutdown (SIGTERM after the traffic stopped): exit ${String(exitCode)} in ${f(shutdownMs, 0)} ms`);
  const failed = fiveXx > 0 || Object.keys(transportErrors).length > 0 || undelivered !== 0 || badSignatures > 0;
  lines.push(failed ? `FAILED: ${fiveXx} 5xx answers` : 'OK: no 5xx, no transport error, every webhook delivered');
  console.log(lines.join('\n'));

  mkdirSync(dirname(REPORT), { recursive: true });
  writeFileSync(
    REPORT,
    JSON.stringify(
      {
        run: RUN,
        minutes: MINUTES,
        rps: RPS,
        windows,
        samples,
        byStatus,
        transportErrors,
        dropped,
        webhookEvents,
        delivered,
        shutdownMs,
        heapSlope,
        rssSlope,
      },
      null,
      1,
    ),
  );
  console.error(`report: ${REPORT}`);

  await db.end();
  if (!process.env.SOAK_KEEP_DB) await admin.query(`DROP DATABASE IF EXISTS ${DB_NAME} WITH (FORCE)`);
  await admin.end();
  const redis = new Redis(REDIS_URL);
  for (let cursor = '0'; ;) {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${REDIS_PREFIX}*`, 'COUNT', 500);
    if (keys.length) await redis.del(...keys);
    cursor = next;
    if (cursor === '0') break;
  }
  redis.disconnect();
  await receiver.close();
  cert.cleanup();
  process.exit(failed ? 1 : 0);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
