import type { FastifyPluginAsync, FastifyRequest, onSendAsyncHookHandler } from 'fastify';
import fp from 'fastify-plugin';
import { carriesHumanSignature } from './auth/human-hmac.js';
import { parseLsn, primaryWalPosition, type ReadReplica, type ReadRouter } from './db/read-replica.js';
import type { Db } from './db/database.js';
import type { PlatformTables } from './tables.js';
import { AppError } from './errors.js';
import { hookList, READ_METHODS, routeMethods } from './route-hooks.js';

/**
 * Public reads on the read replica (DATABASE_READ_URL), with read-your-writes (the policy in
 * db/read-replica.ts):
 * - a public read route's service is built twice, on the primary and on the replica (src/composition.ts);
 *   its handler runs through `readOn`, which picks one per request: the primary for a signed read, for a read
 *   whose `x-read-after` the replica has not replayed yet, and while the replica is lagging or down; the
 *   replica otherwise. A replica read that fails with anything but a domain error is run again on the primary
 *   (no 5xx for a replica gone mid-request) and the replica is marked down.
 * - every write route that succeeds answers with `x-read-after`: the primary's WAL position
 *   read after the write's commit. A client sends it back on its reads.
 * - the client's `x-read-after` is taken for what the primary vouches for (readAfterPosition): a value that is
 *   not a WAL position is ignored, as if absent, and one ahead of the primary counts as the primary's current
 *   position (ReadReplica.clampToPrimary), so no header sends every read to the primary.
 */

export const READ_AFTER_HEADER = 'x-read-after';

/** A public read service on the primary and, with a replica, the same service on the replica. */
export interface ReadServices<S> {
  primary: S;
  replica?: { service: S; router: ReadRouter };
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Where this request's public read ran (set by readOn): the read cache keeps a replica's body shorter. */
    readFrom?: 'primary' | 'replica';
    /**
     * Set with readFrom 'replica': the replay position the replica was known to have reached when the read was
     * sent to it, so at least what its body reflects (the read cache serves that body only to reads needing no more).
     */
    readReplayed?: bigint;
    /** The client's `x-read-after` as readAfterPosition resolved it, once per request. */
    readAfterPosition?: Promise<bigint | undefined>;
  }
}

const NO_POSITION: Promise<bigint | undefined> = Promise.resolve(undefined);

/**
 * The position this read must see, from the client's `x-read-after`: undefined without a replica (nothing to
 * wait for), without the header, or with a value that is not a WAL position (ignored: it came from no response
 * of ours, so no write of this client depends on it); else the position, clamped to the primary's. Resolved
 * once per request, for the read cache and readOn alike; never rejects.
 */
export function readAfterPosition(request: FastifyRequest, router: ReadRouter | undefined): Promise<bigint | undefined> {
  const value = request.headers[READ_AFTER_HEADER];
  if (!router || value === undefined) return NO_POSITION;
  if (request.readAfterPosition === undefined) {
    const position = parseLsn(Array.isArray(value) ? value[0] : value);
    request.readAfterPosition = position === undefined ? NO_POSITION : router.clampToPrimary(position);
  }
  return request.readAfterPosition;
}

/** Runs a public read on the database chosen for this request; see above. */
export async function readOn<S, T>(request: FastifyRequest, services: ReadServices<S>, read: (service: S) => Promise<T>): Promise<T> {
  const replica = services.replica;
  if (!replica || request.actor || carriesHumanSignature(request)) return read(services.primary);
  const readAfter = request.headers[READ_AFTER_HEADER] === undefined ? undefined : await readAfterPosition(request, replica.router);
  const target = replica.router.choose(readAfter);
  if (target.on === 'primary') {
    request.readFrom = 'primary';
    return read(services.primary);
  }
  request.readFrom = 'replica';
  request.readReplayed = target.replayed;
  try {
    return await read(replica.service);
  } catch (err) {
    if (err instanceof AppError) throw err;
    replica.router.failed(err);
    request.log.warn({ err }, 'a read on the read replica failed; served by the primary, replica marked down');
    request.readFrom = 'primary';
    request.readReplayed = undefined;
    return read(services.primary);
  }
}

/** Builds a set of read services once per database: on the primary, and on the replica when there is one. */
export function onEachDatabase<T, R extends Record<string, unknown>>(
  primary: Db<T>,
  router: ReadReplica<T> | undefined,
  build: (db: Db<T>) => R,
): { [K in keyof R]: ReadServices<R[K]> } {
  const onPrimary = build(primary);
  const onReplica = router ? build(router.db) : undefined;
  const routed = {} as { [K in keyof R]: ReadServices<R[K]> };
  for (const key of Object.keys(onPrimary) as (keyof R)[]) {
    routed[key] = { primary: onPrimary[key], ...(onReplica && router ? { replica: { service: onReplica[key], router } } : {}) };
  }
  return routed;
}

const plugin: FastifyPluginAsync<{ primary: Db<PlatformTables>; replica: ReadRouter | undefined }> = async (app, { primary, replica }) => {
  if (!replica) return;
  const stampWritePosition: onSendAsyncHookHandler = async (request, reply, payload) => {
    // not on a refusal, nor on a 5xx: the database may be what failed, and the client retries anyway
    if (reply.statusCode >= 400) return payload;
    try {
      const position = await primaryWalPosition(primary);
      reply.header(READ_AFTER_HEADER, position);
      // this instance's reads carrying it need not wait for a check to vouch for it
      const lsn = parseLsn(position);
      if (lsn !== undefined) replica.primaryReached(lsn);
    } catch (err) {
      request.log.warn({ err }, 'could not read the WAL position for x-read-after');
    }
    return payload;
  };
  app.addHook('onRoute', (route) => {
    const methods = routeMethods(route);
    if (methods.every((m) => READ_METHODS.has(m))) return;
    route.onSend = [...hookList(route.onSend), stampWritePosition];
  });
};

/** Registered before the routes: write routes answer with `x-read-after` when a read replica is configured. */
export const readRoutingPlugin = fp(plugin, { name: 'read-routing' });
