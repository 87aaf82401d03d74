import type { FastifyPluginAsync, onRequestAsyncHookHandler, onSendAsyncHookHandler } from 'fastify';
import fp from 'fastify-plugin';
import type { Redis } from 'ioredis';
import { LRUCache } from 'lru-cache';
import type { Clock } from './clock.js';

/**
 * The public read cache: the serialized 200 bodies of public GET routes that opt in (`config.readCache`),
 * kept in each instance's memory and keyed by the request URL, each stamped with the **read generation** that
 * was current before its handler read the database.
 *
 * Every write (any request other than GET/HEAD/OPTIONS that is not refused with a 4xx) increments the read
 * generation after its handler committed and before its response is sent. A cached body is served only while
 * its stamp equals the current generation, which every instance reads from the same place (Redis, or the
 * process for a single instance on memory stores): a reader that has seen a write's response never gets a body
 * read before that write, from any instance. Bodies also expire after READ_CACHE_TTL_MS, which bounds what the
 * generation cannot see (time-dependent fields such as an open reward window, a database edited by hand).
 *
 * Correctness rests on the shared generation only; the memory holds copies. A failed generation read serves
 * from the database and stores nothing; a failed increment empties this instance's cache (others keep theirs
 * at most READ_CACHE_TTL_MS). See docs/decisions.md, "Public read cache".
 */
export interface ReadGeneration {
  readonly driver: 'memory' | 'redis';
  /** The current generation, or null when it cannot be read (then nothing is served or stored). */
  current(): Promise<string | null>;
  /**
   * Moves every instance to a new generation. `storyIds` names the stories a committed write changed (the
   * transaction helper passes the stories it locked); implementations may use it to keep other stories'
   * cached reads, and must always invalidate every list read.
   */
  bump(storyIds?: readonly string[]): Promise<void>;
}

const GENERATION_KEY = 'read-generation';

export function createRedisReadGeneration(redis: Redis): ReadGeneration {
  return {
    driver: 'redis',
    async current() {
      try {
        return (await redis.get(GENERATION_KEY)) ?? '0';
      } catch {
        return null;
      }
    },
    async bump() {
      await redis.incr(GENERATION_KEY);
    },
  };
}

export function createMemoryReadGeneration(): ReadGeneration {
  let generation = 0;
  return {
    driver: 'memory',
    current: async () => String(generation),
    bump: async () => {
      generation += 1;
    },
  };
}

export interface ReadCacheOptions {
  generation: ReadGeneration;
  clock: Clock;
  /** 0 disables the cache (writes still bump the generation, so other instances stay correct). */
  ttlMs: number;
  maxBytes: number;
}

interface Entry {
  body: string;
  contentType: string;
  generation: string;
  storedAt: number;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** true: the route's 200 bodies depend on the URL and the data only, and may be served from the read cache. */
    readCache?: boolean;
  }
  interface FastifyRequest {
    /** The generation read before the handler ran (null: do not store), or 'hit' when served from the cache. */
    readCacheStamp?: string | null;
  }
}

const READ_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

const asList = <T>(hooks: T | T[] | undefined): T[] => (hooks === undefined ? [] : Array.isArray(hooks) ? hooks : [hooks]);

const plugin: FastifyPluginAsync<ReadCacheOptions> = async (app, options) => {
  const { generation, clock, ttlMs } = options;
  const cache = new LRUCache<string, Entry>({ maxSize: Math.max(1, options.maxBytes), sizeCalculation: (entry) => Math.max(1, entry.body.length + entry.contentType.length) });
  const enabled = ttlMs > 0;

  const lookup: onRequestAsyncHookHandler = async (request, reply) => {
    if (request.method !== 'GET') return;
    const stamp = await generation.current();
    request.readCacheStamp = stamp;
    if (stamp === null) return;
    const entry = cache.get(request.url);
    if (!entry) return;
    if (entry.generation !== stamp || clock.now() - entry.storedAt >= ttlMs) {
      cache.delete(request.url);
      return;
    }
    request.readCacheStamp = 'hit';
    reply.code(200).header('content-type', entry.contentType).header('x-read-cache', 'hit');
    return reply.send(entry.body);
  };

  const store: onSendAsyncHookHandler = async (request, reply, payload) => {
    const stamp = request.readCacheStamp;
    if (stamp === undefined || stamp === null || stamp === 'hit') return payload;
    if (reply.statusCode === 200 && typeof payload === 'string') {
      const contentType = String(reply.getHeader('content-type') ?? 'application/json; charset=utf-8');
      cache.set(request.url, { body: payload, contentType, generation: stamp, storedAt: clock.now() });
      reply.header('x-read-cache', 'miss');
    }
    return payload;
  };

  const bump: onSendAsyncHookHandler = async (request, reply, payload) => {
    // Refusals (4xx) changed nothing; anything else may have committed a change.
    if (reply.statusCode < 400 || reply.statusCode >= 500) {
      await generation.bump().catch((err: unknown) => {
        cache.clear();
        request.log.warn({ err }, 'read generation increment failed; this instance emptied its read cache');
      });
    }
    return payload;
  };

  // Hooks on the routes that need them only (route hooks run after the global ones, so after the rate
  // limit): reads that opt in look up and store, every write route moves the generation on.
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    if (methods.some((m) => !READ_METHODS.has(m))) {
      route.onSend = [...asList(route.onSend), bump];
    } else if (enabled && route.config?.readCache === true) {
      route.onRequest = [...asList(route.onRequest), lookup];
      route.onSend = [...asList(route.onSend), store];
    }
  });
};

/** Registered before the routes; its onRequest hook runs after the rate limit (register it after the auth plugin). */
export const readCachePlugin = fp(plugin, { name: 'read-cache' });
