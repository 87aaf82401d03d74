import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'kysely';
import { signHumanRequest } from '../../sdk/index.js';
import { verifyAuditChain } from '../../src/platform/audit/verify-chain.js';
import { openDatabase, type Database } from '../../src/platform/db/database.js';
import { TEST_SECRET } from '../helpers/app.js';
import { createTestCertificate, startReceiver, type Receiver, type TestCertificate } from '../helpers/https-receiver.js';
import { bindActor } from '../helpers/identity.js';
import { newsroomFactory } from '../helpers/newsroom-factory.js';
import { until } from '../helpers/until.js';
import { freePort, serviceEnv, startService, type Env, type ServiceProcess } from './harness.js';
import type { DB } from '../../src/tables.js';

/**
 * Crash safety: a driver sends a steady load of signed writes (reader comments, and admin corrections, which
 * write a story version, a ledger event, a webhook outbox row, a correction row and an audit entry in one
 * transaction) and records every answer; the service is killed with SIGKILL at a random point and started
 * again; then the database must hold every accepted write exactly once, nothing half-written, an unbroken
 * audit chain, and every pending webhook delivery must go out.
 */

const WEBHOOK_SECRET = 'whsec-crash-0123456789';

export interface CrashWorld {
  service: ServiceProcess;
  database: Database<DB>;
  receiver: Receiver;
  stories: string[];
  env: Env;
  port: number;
  close(): Promise<void>;
}

/** Starts the service on `databaseUrl` (migrating it) and seeds a few published stories to write on. */
export async function prepareCrashWorld(databaseUrl: string, redisUrl: string, redisKeyPrefix: string): Promise<CrashWorld> {
  const cert: TestCertificate = createTestCertificate();
  const receiver = await startReceiver(cert, WEBHOOK_SECRET);
  const port = await freePort();
  const env = serviceEnv(
    { databaseUrl, redisUrl, redisKeyPrefix },
    { certPath: cert.certPath, receiverUrl: receiver.url, secret: WEBHOOK_SECRET },
  );

  const service = await startService(env, { port, ready: 'readyz' });
  const database = await openDatabase<DB>({ databaseUrl, dataDir: '', poolMax: 4 });
  await bindActor(database, 'admin', 'h_admin', 'L3');
  const f = newsroomFactory(database.db, Date.now());
  const stories: string[] = [];
  for (let i = 0; i < 6; i++) stories.push((await f.story()).id);
  const world: CrashWorld = {
    service,
    database,
    receiver,
    stories,
    env,
    port,
    async close() {
      await world.service.stop();
      await database.close();
      await receiver.close();
      cert.cleanup();
    },
  };
  return world;
}

type Kind = 'comment' | 'correction';
interface Sent {
  kind: Kind;
  token: string;
  storyId: string;
  /** The HTTP status, or 0 when no answer came (the process died with the request in flight). */
  status: number;
  id?: string;
  code?: string;
}

export interface CrashRound {
  killAfterMs: number;
  accepted: number;
  acceptedCorrections: number;
  unanswered: number;
  /** Unanswered writes that did commit (allowed: the client could not know; each at most once). */
  unansweredCommitted: number;
  otherStatuses: Record<string, number>;
  restartMs: number;
  /** From the restart until every webhook delivery was DELIVERED. */
  deliveriesDrainedMs: number;
  /** Events delivered in this round that the receiver got more than once (at least once: a kill mid-delivery resends). */
  duplicateDeliveries: number;
  problems: string[];
}

/** One signed write with a unique token in its text, so that the database can be asked for it. */
async function write(base: string, kind: Kind, storyId: string, token: string): Promise<Sent> {
  const path = kind === 'comment' ? `/v1/stories/${storyId}/comments` : `/v1/admin/stories/${storyId}/correction`;
  const body =
    kind === 'comment'
      ? { actorId: `driver-${token.slice(-2)}`, verified: false, body: token }
      : {
          actorId: 'admin',
          linkedHumanId: 'h_admin',
          verified: true,
          changes: { summary: `The authority approved the timetable (${token}).` },
          note: token,
        };
  try {
    const res = await fetch(`${base}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...signHumanRequest({ secret: TEST_SECRET, method: 'POST', path, body }) },
      body: JSON.stringify(body),
    });
    const answer = (await res.json()) as { id?: string; code?: string };
    return {
      kind,
      token,
      storyId,
      status: res.status,
      ...(answer.id ? { id: answer.id } : {}),
      ...(answer.code ? { code: answer.code } : {}),
    };
  } catch {
    return { kind, token, storyId, status: 0 };
  }
}

/**
 * One round: `concurrency` writers send writes until the kill, `killAfterMs` (random when not given) after the
 * first accepted write; then
 * the service is started again on the same port and the database checked.
 */
export async function crashRound(world: CrashWorld, round: number, killAfterMs = 300 + Math.floor(Math.random() * 2_200), concurrency = 6) {
  const sent: Sent[] = [];
  const requestsBefore = world.receiver.requests.length;
  let stopped = false;
  let n = 0;
  const writers = Array.from({ length: concurrency }, async () => {
    while (!stopped) {
      const kind: Kind = Math.random() < 0.25 ? 'correction' : 'comment';
      const storyId = world.stories[Math.floor(Math.random() * world.stories.length)]!;
      const token = `crash-${round}-${randomBytes(4).toString('hex')}-${String(n++ % 100).padStart(2, '0')}`;
      const result = await write(world.service.url, kind, storyId, token);
      sent.push(result);
      if (result.status === 0) return;
    }
  });
  // the random point is counted from the first accepted write (a fresh process is slow to answer its first)
  await until(async () => sent.some((s) => s.status === 202) || sent.some((s) => s.status === 0), 60_000, 'a first accepted write');
  await sleep(killAfterMs);
  stopped = true;
  await world.service.stop('SIGKILL');
  await Promise.all(writers);

  const restarted = Date.now();
  world.service = await startService(world.env, { port: world.port, ready: 'readyz' });
  const restartMs = Date.now() - restarted;

  const problems = await checkDatabase(world, sent);
  const drained = Date.now();
  await until(
    async () => {
      const left = await world.database.db.selectFrom('webhook_deliveries').select('id').where('status', '!=', 'DELIVERED').execute();
      return left.length === 0;
    },
    90_000,
    'every webhook delivery DELIVERED after the restart',
    100,
  ).catch((err: Error) => problems.push(err.message));
  const deliveriesDrainedMs = Date.now() - drained;
  const events = await world.database.db.selectFrom('webhook_events').select('id').execute();
  const received = new Map<string, number>();
  for (const r of world.receiver.requests) {
    if (!r.signatureValid) problems.push(`a delivery of ${r.id} had an invalid signature`);
    received.set(r.id, (received.get(r.id) ?? 0) + 1);
  }
  const thisRound = new Set(world.receiver.requests.slice(requestsBefore).map((r) => r.id));
  for (const e of events) if (!received.has(e.id)) problems.push(`webhook event ${e.id} never reached the receiver`);

  const accepted = sent.filter((s) => s.status === 202);
  const otherStatuses: Record<string, number> = {};
  for (const s of sent)
    if (s.status !== 202 && s.status !== 0)
      otherStatuses[`${s.status} ${s.code ?? ''}`.trim()] = (otherStatuses[`${s.status} ${s.code ?? ''}`.trim()] ?? 0) + 1;
  for (const key of Object.keys(otherStatuses)) if (key.startsWith('5')) problems.push(`answered ${key} ${otherStatuses[key]} times`);
  const unanswered = sent.filter((s) => s.status === 0);
  return {
    killAfterMs,
    accepted: accepted.length,
    acceptedCorrections: accepted.filter((s) => s.kind === 'correction').length,
    unanswered: unanswered.length,
    unansweredCommitted: (await committed(world, unanswered)).length,
    otherStatuses,
    restartMs,
    deliveriesDrainedMs,
    duplicateDeliveries: [...thisRound].filter((id) => received.get(id)! > 1).length,
    problems,
  } satisfies CrashRound;
}

/** The writes among `sent` that the database holds (by their token). */
async function committed(world: CrashWorld, sent: Sent[]): Promise<Sent[]> {
  const db = world.database.db;
  const out: Sent[] = [];
  for (const s of sent) {
    const rows =
      s.kind === 'comment'
        ? await db.selectFrom('comments').select('id').where('body', '=', s.token).execute()
        : await db.selectFrom('story_corrections').select('id').where('note', '=', s.token).execute();
    if (rows.length > 0) out.push(s);
  }
  return out;
}

/** Every accepted write once, unanswered ones at most once, and each write whole (its rows all there). */
async function checkDatabase(world: CrashWorld, sent: Sent[]): Promise<string[]> {
  const db = world.database.db;
  const problems: string[] = [];
  for (const s of sent) {
    if (s.status !== 202 && s.status !== 0) continue;
    const rows =
      s.kind === 'comment'
        ? await db.selectFrom('comments').select('id').where('body', '=', s.token).execute()
        : await db.selectFrom('story_corrections').select('id').where('note', '=', s.token).execute();
    if (s.status === 202 && (rows.length !== 1 || rows[0]!.id !== s.id))
      problems.push(`accepted ${s.kind} ${s.token} (${s.id}) is in the database ${rows.length} times`);
    if (s.status === 0 && rows.length > 1) problems.push(`unanswered ${s.kind} ${s.token} is in the database ${rows.length} times`);
  }
  // comment counts agree with the comments (the count and the row are written in one transaction)
  const counts = await db
    .selectFrom('stories')
    .select(['id', 'comment_count', 'current_version'])
    .select((eb) => [
      eb
        .selectFrom('comments')
        .select(sql<number>`count(*)::int`.as('n'))
        .whereRef('comments.story_id', '=', 'stories.id')
        .as('comments'),
      eb
        .selectFrom('story_versions')
        .select(sql<number>`max(version)`.as('v'))
        .whereRef('story_versions.story_id', '=', 'stories.id')
        .as('lastVersion'),
    ])
    .where('id', 'in', world.stories)
    .execute();
  for (const c of counts) {
    if (c.comment_count !== c.comments) problems.push(`story ${c.id}: comment_count ${c.comment_count} but ${c.comments} comments`);
    if (c.current_version !== c.lastVersion && c.current_version > 1)
      problems.push(`story ${c.id}: current_version ${c.current_version} but the last version row is ${c.lastVersion}`);
  }
  // every correction has its version, ledger event, outbox event, delivery and audit entry; no outbox orphan
  const corrections = await db.selectFrom('story_corrections').selectAll().where('story_id', 'in', world.stories).execute();
  for (const c of corrections) {
    const [version, ledger, event, deliveries, audit] = await Promise.all([
      db.selectFrom('story_versions').select('version').where('story_id', '=', c.story_id).where('version', '=', c.version).execute(),
      db.selectFrom('ledger_events').select('id').where('id', '=', c.ledger_event_id).execute(),
      db.selectFrom('webhook_events').select('id').where('id', '=', c.webhook_event_id).execute(),
      db.selectFrom('webhook_deliveries').select('id').where('event_id', '=', c.webhook_event_id).execute(),
      db
        .selectFrom('audit_events')
        .select('id')
        .where('action', '=', 'story.corrected')
        .where(sql<boolean>`details->>'correctionId' = ${c.id}`)
        .execute(),
    ]);
    const missing = [
      version.length === 1 ? '' : 'version',
      ledger.length === 1 ? '' : 'ledger event',
      event.length === 1 ? '' : 'webhook event',
      deliveries.length === 1 ? '' : 'webhook delivery',
      audit.length === 1 ? '' : 'audit entry',
    ].filter(Boolean);
    if (missing.length) problems.push(`correction ${c.id} is half-written: no ${missing.join(', ')}`);
  }
  const orphans = await db
    .selectFrom('webhook_events')
    .select('id')
    .where('story_id', 'in', world.stories)
    .where(({ not, exists, selectFrom }) =>
      not(exists(selectFrom('story_corrections').select('id').whereRef('story_corrections.webhook_event_id', '=', 'webhook_events.id'))),
    )
    .execute();
  if (orphans.length) problems.push(`${orphans.length} webhook events without their correction`);
  const chain = await verifyAuditChain(db);
  if (!chain.ok) problems.push(`audit chain broken at seq ${chain.broken.seq}: ${chain.broken.reason}`);
  return problems;
}
