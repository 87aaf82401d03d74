import type { AppContext } from '../../platform/context.js';
import { pendingMigrations } from '../../platform/db/migrate.js';
import type { ReadRouter } from '../../platform/db/read-replica.js';
import type { ReadinessCheck, ReadinessResponse } from './schemas.js';
import type { PlatformTables } from '../../platform/tables.js';

const CHECK_TIMEOUT_MS = 1_000;

async function timed(required: boolean, fn: () => Promise<string | void>): Promise<ReadinessCheck> {
  const started = performance.now();
  try {
    const detail = await fn();
    return { ok: true, required, latencyMs: Math.round((performance.now() - started) * 10) / 10, ...(detail ? { detail } : {}) };
  } catch (err) {
    return { ok: false, required, latencyMs: Math.round(performance.now() - started), detail: (err as Error).message };
  }
}

function withTimeout<T>(promise: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    promise,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`${what} did not answer within ${CHECK_TIMEOUT_MS} ms`)), CHECK_TIMEOUT_MS);
    }),
  ]).finally(() => clearTimeout(timer));
}

/** The read replica, checked now: reported, never required (the primary serves the reads it cannot). */
async function replicaCheck(replica: ReadRouter): Promise<ReadinessCheck> {
  const started = performance.now();
  const status = await replica.check();
  const latencyMs = Math.round((performance.now() - started) * 10) / 10;
  const lag = status.lagMs === undefined ? `more than ${replica.maxLagMs} ms` : `${Math.round(status.lagMs)} ms`;
  const detail =
    status.state === 'up'
      ? `up: replayed to ${status.replayLsn}, lag ${lag}`
      : status.state === 'lagging'
        ? `lagging (public reads go to the primary): replayed to ${status.replayLsn ?? 'nothing'}, lag ${lag}`
        : `${status.state} (public reads go to the primary): ${status.error ?? ''}`;
  return { ok: status.state === 'up', required: false, latencyMs, detail };
}

/** Readiness: every required check must pass. The signing secret is required only when fail-closed. */
export async function checkReadiness(ctx: AppContext<PlatformTables>): Promise<ReadinessResponse> {
  const [database, migrations, redis, readReplica] = await Promise.all([
    timed(true, () => ctx.database.ping(CHECK_TIMEOUT_MS)),
    timed(true, async () => {
      const pending = await withTimeout(pendingMigrations(ctx.database), 'migrations query');
      if (pending.length) throw new Error(`pending: ${pending.join(', ')}`);
      return 'all applied';
    }),
    ctx.redis
      ? timed(true, () =>
          withTimeout(
            ctx.redis!.ping().then(() => undefined),
            'redis',
          ),
        )
      : Promise.resolve(undefined),
    ctx.readReplica ? replicaCheck(ctx.readReplica) : Promise.resolve(undefined),
  ]);
  const signingSecret: ReadinessCheck = ctx.config.humanSigningSecrets.length
    ? { ok: true, required: ctx.config.failClosed }
    : { ok: false, required: ctx.config.failClosed, detail: 'HUMAN_SIGNING_SECRET is not set: human signed routes answer 503' };
  const checks = { database, migrations, signingSecret, ...(redis ? { redis } : {}), ...(readReplica ? { readReplica } : {}) };
  const ready = Object.values(checks).every((c) => c.ok || !c.required);
  return { status: ready ? 'ready' : 'not_ready', checkedAt: new Date(ctx.clock.now()).toISOString(), checks };
}
