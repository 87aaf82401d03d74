import type {
  FastifyPluginAsync,
  FastifyReply,
  FastifyRequest,
  onRequestAsyncHookHandler,
  onRequestHookHandler,
  onSendAsyncHookHandler,
  preHandlerAsyncHookHandler,
} from 'fastify';
import fp from 'fastify-plugin';
import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import { carriesHumanSignature } from './auth/human-hmac.js';
import type { Clock } from './clock.js';
import { GENERATION_KEY_TTL_MS, type ReadGeneration } from './read-generation.js';
import { hookList, READ_METHODS, routeMethods } from './route-hooks.js';

export { createMemoryReadGeneration, createRedisReadGeneration, type ReadGeneration } from './read-generation.js';

/**
 * The public read cache: the serialized 200 bodies of public GET/HEAD routes that opt in (`config.readCache`),
 * kept in each instance's memory, keyed by the path and the validated query (keys sorted, defaults applied;
 * a repeated request is answered before validation, through the key its query validated to before),
 * each stamped with the **read generation** of its scope, read before its handler read the database
 * (src/platform/read-generation.ts: a list generation every write moves on, a generation per story only the
 * writes on that story move on, and an epoch).
 *
 * Every write that commits through withTransaction moves the generations of the stories it locked and the
 * list generation on, after the commit and before its response is sent (src/platform/context.ts). A cached
 * body is served only while its stamp equals the one read now, which every instance reads from the same place
 * (Redis, or the process for a single instance on memory stores): a reader that has seen a write's response
 * never gets a body read before that write, from any instance. Bodies also expire after READ_CACHE_TTL_MS,
 * which bounds what the generations cannot see (the clock, a database edited by hand); each key's body lives
 * between four fifths of it and all of it (entryLifeMs), so bodies stored together do not expire together.
 * A handler that knows the instants at which the clock alone changes its body says so
 * (`request.readCacheClockChanges`, story detail: its reward window opening and closing): that body lives until
 * the first of them, and at most `clockKnownTtlMs` (READ_CACHE_STORY_TTL_MS), which then bounds only what a
 * database edited by hand would change.
 *
 * Misses are coalesced: while one request of a URL and stamp reads the database, the others of the same URL
 * and stamp wait for its body instead of reading the database too.
 *
 * Write routes get a safety net: a write request that answers anything but 4xx moves the list generation on
 * before its response, so a write that changed public lists outside withTransaction (a candidate submission)
 * is seen at once too. See docs/adr/0019-public-read-cache.md.
 */

export interface ReadCacheOptions {
  generation: ReadGeneration;
  clock: Clock;
  /** 0 disables the cache (writes still move the generations, so other instances stay correct). */
  ttlMs: number;
  maxBytes: number;
  /**
   * Set when public reads may be served by a read replica (src/platform/read-routing.ts): a body read from the
   * replica is kept no longer than this (the replica's lag limit), so the cache does not stretch how stale a
   * replica's answer may be.
   */
  replicaMaxLagMs?: number;
  /**
   * With a replica: the WAL position a read must see (its `x-read-after`, as read-routing resolves it), if any.
   * Such a read is answered from the cache only with a body known to reflect that position (see Body.replayed).
   */
  readAfter?: (request: FastifyRequest) => Promise<bigint | undefined>;
  /** The share of ttlMs by which a key's life may be shorter (default READ_CACHE_LIFE_SPREAD; 0: every life is ttlMs). */
  lifeSpread?: number;
  /**
   * The longest a body whose handler named the instants the clock changes it (`request.readCacheClockChanges`)
   * is served, in place of ttlMs (spread the same way); it never outlives the first of those instants. 0: such
   * bodies are not stored. Default ttlMs.
   */
  clockKnownTtlMs?: number;
}

/** What the cache keeps per key. */
interface Entry extends Body {
  stamp: string;
  storedAt: number;
  /** How long it is served: its key's life (entryLifeMs), or less for a body read from the read replica. */
  ttlMs: number;
}

/** The share of READ_CACHE_TTL_MS by which a key's life may be shorter than it. */
export const READ_CACHE_LIFE_SPREAD = 0.2;

/**
 * How long a body stored under `key` is served: READ_CACHE_TTL_MS less up to a fifth of it, by a hash of the key
 * (the same key always lives as long, on every instance). Bodies stored in one burst (a warm-up, a deploy, every
 * list read right after a write) would otherwise all expire in the same instant, and a hot key is read again at
 * once, so the burst of database reads would come back every READ_CACHE_TTL_MS for as long as the keys stay hot.
 * Keys of different lives drift apart by up to a fifth of the time to live at each refresh, until their
 * refreshes are spread over it. No body is served longer than READ_CACHE_TTL_MS.
 */
export function entryLifeMs(key: string, ttlMs: number, spread = READ_CACHE_LIFE_SPREAD): number {
  const share = createHash('sha1').update(key).digest().readUInt32BE(0) / 2 ** 32;
  return ttlMs - Math.floor(share * ttlMs * spread);
}

/** One database read in progress for a key and stamp; waiters get its body (or null: run your own handler). */
interface Flight {
  promise: Promise<Body | null>;
  settle(body: Body | null): void;
}

interface Body {
  /** The body's bytes, encoded once when stored: a hit writes them as they are. */
  body: Buffer;
  /**
   * Set for a body read on the read replica: the replay position the replica was known to have reached when the
   * read was sent to it (replay only moves forward, so the body reflects at least that). Unset: read on the primary.
   *
   * Why this is all a read carrying `x-read-after` needs: the stamp already keeps every body read on the primary
   * correct for it. The client's write moved the generations before its response, so a body stamped with the
   * current generation had its stamp read after that write committed, and a primary read after that sees it. A
   * replica read after that may not (the replica replays the write later), and that is the one case left: such a
   * body is served only to reads whose position is at most what it reflects. Reads without a position take any body,
   * as before, and a body that does not serve a read stays for the others; the read that could not use it reads the
   * database and stores what it read in its place.
   */
  replayed?: bigint;
  contentType: string;
  /**
   * The ETag an earlier hook of the route set on this body (the reader site's pages), sent again with it: the
   * validator of an unchanged body, so that hook need not hash the body again on every hit.
   */
  etag: string | undefined;
}

/** Counters of this instance's read cache (tests; no metric yet). */
export interface ReadCacheStats {
  hits: number;
  /** Misses that read the database (the coalesced ones not included). */
  misses: number;
  /** Misses answered with the body another request of the same URL and stamp read. */
  coalesced: number;
  /** Requests waiting for another request's body right now. */
  waiting: number;
  /** Moves of the list generation by the write routes' safety net. */
  safetyNetBumps: number;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The route's 200 bodies depend on the path, the validated query and the data only (never on who asks),
     * and may be served from the read cache. `true`: a list read, invalidated by every write. `{ story:
     * '<param>' }`: the reads of one story, named by that path parameter, invalidated only by the writes on
     * that story (and by a write naming no story). The route must declare a querystring schema with
     * `additionalProperties: false` (the cache key is the validated query).
     */
    readCache?: boolean | { story: string };
    /**
     * `false` on a write route whose writes no public read shows (a reader's own preferences, bookmarks, topics,
     * history): the safety net below does not move the list generation for it, so readers keeping their own
     * data do not empty everyone's cached newsroom reads.
     */
    changesPublicReads?: false;
  }
  interface FastifyRequest {
    /** The read cache's state of this read (key, stamp, the flight it leads), or 'hit' when served from it. */
    readCacheState?: ReadState | 'hit';
    /**
     * Set by an earlier hook of the route when this request is one person's (a logged-in reader of the site):
     * like a signed read, it is never answered from the cache and never stored in it.
     */
    personalRead?: boolean;
    /** The read generation of this read, asked of the store by the route's first hook (none for a personal read). */
    readCacheStamp?: Promise<string | null>;
    /**
     * Set by a handler whose body the clock changes only at known instants (ms since the epoch; story detail: its
     * reward window's opening and closing): the body is kept until the first of them still ahead of the read, and
     * at most the cache's clockKnownTtlMs instead of its time to live. Unset: the body may change with the clock
     * at any moment, and lives at most the time to live.
     */
    readCacheClockChanges?: readonly number[];
  }
  interface FastifyInstance {
    readCacheStats: ReadCacheStats;
  }
}

interface ReadState {
  /** The path and the query as sent, keys sorted (set in onRequest). */
  rawKey: string;
  /** The path and the query as validated (set in preHandler). */
  key: string | undefined;
  stamp: string;
  /** The WAL position this read must see (its `x-read-after`, resolved), if any. */
  readAfter: bigint | undefined;
  flight: Flight | undefined;
  /** When the lookup found no body (clock.now()), before the handler read the database and the clock. */
  missedAt: number;
}

/**
 * How long a body may be kept after `now` by the clock alone, given the instants at which the clock changes it
 * and when its read began: until the first instant after the read began. An instant between the read's start and
 * now may have changed the body already: 0 (not kept). Infinity when no instant is ahead.
 */
export function clockLifeMs(changes: readonly number[], readStartedAt: number, now: number): number {
  let first = Infinity;
  for (const at of changes) if (at > readStartedAt && at < first) first = at;
  return Math.max(0, first - now);
}

function newFlight(): Flight {
  let settle!: (body: Body | null) => void;
  const promise = new Promise<Body | null>((resolve) => {
    settle = resolve;
  });
  return { promise, settle };
}

const pathOf = (url: string) => {
  const q = url.indexOf('?');
  return q === -1 ? url : url.slice(0, q);
};

/**
 * A key: the path as sent and a query, keys sorted (values as JSON: a repeated parameter stays an array).
 * The cache is keyed by the query as validated (coerced, defaults applied): query schemas of cached routes
 * refuse unknown parameters, so two URLs share an entry exactly when the handler sees the same input:
 * `?limit=5&mode=recent`, `?mode=recent&limit=05` and `?limit=5&mode=recent&lang=en` are one entry. The same
 * function of the query as sent is the raw key, which names the validated key it led to (the `aliases`): the
 * validated query is a function of the path and the query as sent, and key order changes neither, so a
 * request whose raw key is known is answered in onRequest, before validation, as a valid one.
 */
function keyOf(path: string, query: Record<string, unknown>): string {
  const names = Object.keys(query).sort();
  let key = path;
  for (const name of names) key += `\n${name}=${JSON.stringify(query[name])}`;
  return key;
}

function describeRoute(method: string | string[], url: string) {
  return `${Array.isArray(method) ? method.join(',') : method} ${url}`;
}

const plugin: FastifyPluginAsync<ReadCacheOptions> = async (app, options) => {
  const { generation, clock, ttlMs, lifeSpread = READ_CACHE_LIFE_SPREAD, clockKnownTtlMs = ttlMs } = options;
  if (!(lifeSpread >= 0 && lifeSpread < 1)) throw new Error(`readCache lifeSpread must be at least 0 and below 1, not ${lifeSpread}`);
  for (const [name, value] of [
    ['READ_CACHE_TTL_MS', ttlMs],
    ['READ_CACHE_STORY_TTL_MS', clockKnownTtlMs],
  ] as const) {
    if (value >= GENERATION_KEY_TTL_MS)
      throw new Error(`${name} must be below ${GENERATION_KEY_TTL_MS} (the life of a read generation key)`);
  }
  const cache = new LRUCache<string, Entry>({
    maxSize: Math.max(1, options.maxBytes),
    sizeCalculation: (entry) => Math.max(1, entry.body.length + entry.contentType.length + (entry.etag?.length ?? 0)),
  });
  const flights = new Map<string, Flight>();
  // raw key -> validated key, for the valid requests seen (a pure function of its input: never stale);
  // bounded in characters like the bodies, at a sixteenth of their budget
  const aliases = new LRUCache<string, string>({
    maxSize: Math.max(1, Math.floor(options.maxBytes / 16)),
    sizeCalculation: (key, rawKey) => Math.max(1, key.length + rawKey.length),
  });
  const stats: ReadCacheStats = { hits: 0, misses: 0, coalesced: 0, waiting: 0, safetyNetBumps: 0 };
  app.decorate('readCacheStats', stats);
  const enabled = ttlMs > 0;

  const answer = (reply: FastifyReply, body: Body, how: 'hit' | 'coalesced') => {
    if (body.etag !== undefined) reply.header('etag', body.etag);
    return reply.code(200).header('content-type', body.contentType).header('x-read-cache', how).send(body.body);
  };

  /** Whether `body` reflects the position `readAfter` (see Body.replayed). */
  const reflects = (body: Body, readAfter: bigint | undefined) =>
    readAfter === undefined || body.replayed === undefined || body.replayed >= readAfter;

  /** The entry under `key` if it may be served for `stamp` and `readAfter` now (a stale one is dropped). */
  const fresh = (key: string, stamp: string, readAfter: bigint | undefined): Entry | undefined => {
    const entry = cache.get(key);
    if (!entry) return undefined;
    if (entry.stamp !== stamp || clock.now() - entry.storedAt >= entry.ttlMs) {
      cache.delete(key);
      return undefined;
    }
    return reflects(entry, readAfter) ? entry : undefined;
  };

  /**
   * The route's first onRequest hook: asks the store for the read generation (the stamp) without waiting for it,
   * so that the question leaves together with the rate limit's count (ioredis sends the commands of one turn of
   * the event loop in one write) instead of one round trip after it. A stamp read earlier is never newer than one
   * read later, and it is still read before the handler reads the database: what `early` below relies on.
   * A signed reader's request is personal (a route with an optional reader), and so is a logged-in reader's page:
   * never answered from the cache, never stored (no stamp: the steps below skip it). `storyParam` names the path
   * parameter of a story-scoped route (as routed: a value that is not a valid id names a key nothing was stored
   * under, and validation refuses the request next).
   */
  const stampFirst = (storyParam: string | undefined): onRequestHookHandler =>
    function readCacheStampFirst(request, _reply, done) {
      const personal = carriesHumanSignature(request) || request.personalRead === true;
      if (!personal) {
        const storyId = storyParam === undefined ? undefined : String((request.params as Record<string, unknown>)[storyParam]);
        request.readCacheStamp = generation.current(storyId);
        // resolved meanwhile: a position may wait for the replica's next check (readAfter never rejects)
        void options.readAfter?.(request);
      }
      done();
    };

  /**
   * First step, in onRequest (after the rate limit): takes the stamp stampFirst asked for, and answers a request
   * whose query as sent led to a cached entry before, without validating it again.
   */
  const early: onRequestAsyncHookHandler = async function readCacheEarlyLookup(request, reply) {
    const asked = request.readCacheStamp;
    // an earlier hook of the route may have found the read personal after stampFirst asked
    if (asked === undefined || request.personalRead === true) return;
    const rawKey = keyOf(pathOf(request.url), request.query as Record<string, unknown>);
    const stamp = await asked; // current() answers null rather than fail: it never rejects
    if (stamp === null) return; // the database answers; nothing is stored or shared
    const readAfter = options.readAfter ? await options.readAfter(request) : undefined;
    const key = aliases.get(rawKey);
    const entry = key === undefined ? undefined : fresh(key, stamp, readAfter);
    if (entry) {
      stats.hits += 1;
      request.readCacheState = 'hit';
      return answer(reply, entry, 'hit');
    }
    request.readCacheState = { rawKey, key: undefined, stamp, readAfter, flight: undefined, missedAt: clock.now() };
  };

  /** Second step, after validation: the entry of the validated query, or the flight reading it, or lead one. */
  const lookup: preHandlerAsyncHookHandler = async function readCacheLookup(request, reply) {
    const state = request.readCacheState;
    if (state === undefined || state === 'hit') return;
    const { stamp, readAfter } = state;
    const key = keyOf(pathOf(request.url), request.query as Record<string, unknown>);
    aliases.set(state.rawKey, key);
    state.key = key;
    const entry = fresh(key, stamp, readAfter);
    if (entry) {
      stats.hits += 1;
      request.readCacheState = 'hit';
      return answer(reply, entry, 'hit');
    }
    // Same key and same stamp: the body another request is reading now is as fresh as ours would be. Equal
    // stamps mean no write moved the generation between the two stamp reads (values only grow), so every
    // write whose bump preceded our stamp read preceded the leader's too, and the leader reads the database
    // after its stamp read.
    const flightKey = `${stamp}\n${key}`;
    const leader = flights.get(flightKey);
    if (leader) {
      stats.waiting += 1;
      const body = await leader.promise;
      stats.waiting -= 1;
      if (body && reflects(body, readAfter)) {
        stats.coalesced += 1;
        request.readCacheState = 'hit';
        return answer(reply, body, 'coalesced');
      }
      // the leader got no 200, or one this read's position may be newer than: read the database ourselves
      stats.misses += 1;
      return;
    }
    const flight = newFlight();
    flights.set(flightKey, flight);
    const settle = flight.settle;
    flight.settle = (body) => {
      if (flights.get(flightKey) === flight) flights.delete(flightKey);
      settle(body);
    };
    state.flight = flight;
    stats.misses += 1;
  };

  const store: onSendAsyncHookHandler = async (request, reply, payload) => {
    const state = request.readCacheState;
    if (state === undefined || state === 'hit') return payload;
    if (state.key === undefined) return payload; // refused before the lookup (validation)
    if (reply.statusCode === 200 && typeof payload === 'string') {
      const contentType = String(reply.getHeader('content-type') ?? 'application/json; charset=utf-8');
      const etagHeader = reply.getHeader('etag');
      const etag = typeof etagHeader === 'string' ? etagHeader : undefined;
      const now = clock.now();
      const changes = request.readCacheClockChanges;
      // a body read from the replica lives at most the replica's lag limit; the spread applies within that bound
      const boundMs = Math.min(
        changes === undefined ? ttlMs : clockKnownTtlMs,
        request.readFrom === 'replica' && options.replicaMaxLagMs !== undefined ? options.replicaMaxLagMs : Infinity,
      );
      const entryTtlMs = Math.min(
        entryLifeMs(state.key, boundMs, lifeSpread),
        changes === undefined ? Infinity : clockLifeMs(changes, state.missedAt, now),
      );
      const body = Buffer.from(payload);
      const replayed = request.readFrom === 'replica' ? (request.readReplayed ?? 0n) : undefined;
      if (entryTtlMs > 0) cache.set(state.key, { body, contentType, etag, replayed, stamp: state.stamp, storedAt: now, ttlMs: entryTtlMs });
      reply.header('x-read-cache', 'miss');
      state.flight?.settle({ body, contentType, etag, replayed });
    } else {
      state.flight?.settle(null);
    }
    return payload;
  };

  // A leader that never reached onSend (aborted) must not leave its waiters waiting.
  const release = async (request: FastifyRequest) => {
    const state = request.readCacheState;
    if (state !== undefined && state !== 'hit') state.flight?.settle(null);
  };

  /**
   * The safety net of write routes: a write request that was not refused with a 4xx (a 5xx may have
   * committed) moves the list generation on before its response is sent: one pipelined Redis call per write,
   * what every write paid before the generations were scoped. A story write has moved its story and the lists
   * already (withTransaction); this moves the lists a second time, which costs at most one more database
   * read per cached list URL and instance (misses are coalesced). It is there for writes that change public
   * lists outside withTransaction, which the transaction listener cannot see: a candidate submission creates
   * a story that search lists with publicationStage=CANDIDATE. It cannot know which stories such a write
   * changed: story reads rely on writers locking the story (lockStory), as every story write does.
   * Knowing which requests moved the lists already would need AsyncLocalStorage, whose promise hooks tax
   * every request of the process (reads included) more than the extra list miss per write costs.
   */
  const safetyNet: onSendAsyncHookHandler = async (request, reply, payload) => {
    if (reply.statusCode >= 400 && reply.statusCode < 500) return payload;
    stats.safetyNetBumps += 1;
    await generation.bump([]).catch((err: unknown) => {
      request.log.warn({ err }, 'read generation bump failed; this instance no longer serves its cached reads');
    });
    return payload;
  };

  // Hooks on the routes that need them only (route hooks run after the global ones, so after the rate limit):
  // reads that opt in look up (before and after validation) and store, every write route has the safety net.
  app.addHook('onRoute', (route) => {
    const methods = routeMethods(route);
    if (methods.some((m) => !READ_METHODS.has(m))) {
      if (route.config?.changesPublicReads === false) return;
      route.onSend = [...hookList(route.onSend), safetyNet];
      return;
    }
    const scope = route.config?.readCache;
    if (scope === undefined || scope === false) return;
    const querystring = route.schema?.querystring as { additionalProperties?: unknown } | undefined;
    if (querystring?.additionalProperties !== false) {
      throw new Error(
        `${describeRoute(route.method, route.url)}: a readCache route needs a querystring schema with additionalProperties: false (the cache key is the validated query)`,
      );
    }
    if (scope !== true && !route.url.split('/').includes(`:${scope.story}`)) {
      throw new Error(
        `${describeRoute(route.method, route.url)}: readCache.story names "${scope.story}", which is not a parameter of the path`,
      );
    }
    if (!enabled) return;
    route.onRequest = [stampFirst(scope === true ? undefined : scope.story), ...hookList(route.onRequest), early];
    route.preHandler = [...hookList(route.preHandler), lookup];
    // First of the route's onSend hooks: Fastify's own HEAD hook (which drops the body) comes after it.
    route.onSend = [store, ...hookList(route.onSend)];
    route.onResponse = [...hookList(route.onResponse), release];
    route.onRequestAbort = [...hookList(route.onRequestAbort), release];
  });
};

/** Registered before the routes, after the auth plugin (its hooks run after the rate limit). */
export const readCachePlugin = fp(plugin, { name: 'read-cache' });
