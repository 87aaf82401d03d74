import type { RedisClient } from './redis.js';
import type { Clock } from './clock.js';

/**
 * The read generations behind the public read cache (src/platform/read-cache.ts): shared counters that every
 * committed write moves on, so that no instance serves a body read before a write whose response a client
 * has seen. They are scoped:
 *
 * - the **list** generation (feed, search, ledger, home, modules, rankings, orientation: every read that is
 *   not about one story) moves on with every bump;
 * - each story's generation moves on only with the bumps that name that story (its detail, aliases,
 *   evidence, machine room and assistant orientation: the routes declaring `readCache: { story: '<param>' }`);
 * - the **epoch** moves on with a bump that names no story (`bump()`: everything changed) and is part of
 *   every stamp, so such a bump invalidates every cached read.
 *
 * A read's stamp is `<local>.<epoch>.<list or story generation>`, taken in one round trip (one MGET of two
 * keys). `<local>` counts this process's failed bumps: a bump that failed invalidates this instance's
 * cached bodies (other instances keep theirs at most their life: READ_CACHE_TTL_MS, or READ_CACHE_STORY_TTL_MS for
 * a story's detail).
 */
export interface ReadGeneration {
  readonly driver: 'memory' | 'redis';
  /**
   * The stamp of a read now: of the story `storyId`'s reads, or of the list reads when it is undefined. null
   * when it cannot be read (then nothing is served from the cache, stored or shared between requests).
   */
  current(storyId?: string): Promise<string | null>;
  /**
   * Moves every instance on, after a write committed and before its response is sent. `storyIds` names the
   * stories the write changed (the transaction helper passes the stories it locked): their reads and every
   * list read are invalidated, other stories' reads are kept. `[]` invalidates the list reads only;
   * undefined invalidates everything (every list and every story).
   */
  bump(storyIds?: readonly string[]): Promise<void>;
}

/**
 * How long a generation key lives in Redis after its last bump. It must be longer than any cached body can
 * live (READ_CACHE_TTL_MS, at most 300,000, and READ_CACHE_STORY_TTL_MS, at most 1,800,000, by src/config.ts;
 * the read-cache plugin refuses an hour for either):
 * see the expiry argument in createRedisReadGeneration.
 */
export const GENERATION_KEY_TTL_MS = 3_600_000;

/**
 * The generation keys (after the client's key prefix). They share the hash tag `{rg}`, so that on a Redis
 * Cluster they live in one hash slot: a stamp is one MGET of two of them and a bump one script over several,
 * which a cluster accepts only within one slot. On one server the tag is only part of the name.
 */
export const READ_GENERATION_KEYS = {
  epoch: '{rg}:epoch',
  list: '{rg}:list',
  story: (storyId: string) => `{rg}:story:${storyId}`,
} as const;
const EPOCH_KEY = READ_GENERATION_KEYS.epoch;
const LIST_KEY = READ_GENERATION_KEYS.list;
const storyKey = READ_GENERATION_KEYS.story;

/**
 * Moves the keys on in one atomic step: an existing key is incremented, a missing one (never bumped, or
 * expired) is created with the Redis server's time in microseconds; each gets GENERATION_KEY_TTL_MS again.
 * KEYS[1] is the epoch (moved when ARGV[2] is '1', or created when missing, else only kept alive), the
 * others the list key and the story keys. The time is built as a string: a Lua number would print as
 * 1.7e+15 and lose digits.
 */
const BUMP_SCRIPT = `
local t = redis.call('TIME')
local fresh = t[1] .. string.format('%06d', tonumber(t[2]))
local function move(key)
  if redis.call('EXISTS', key) == 1 then redis.call('INCR', key) else redis.call('SET', key, fresh) end
  redis.call('PEXPIRE', key, ARGV[1])
end
if ARGV[2] == '1' or redis.call('EXISTS', KEYS[1]) == 0 then move(KEYS[1]) else redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
for i = 2, #KEYS do move(KEYS[i]) end
return 1
`;

/** The epoch, created first when it is missing (first start, expiry after an idle hour, a flushed Redis). */
const EPOCH_SCRIPT = `
if redis.call('EXISTS', KEYS[1]) == 0 then
  local t = redis.call('TIME')
  redis.call('SET', KEYS[1], t[1] .. string.format('%06d', tonumber(t[2])), 'PX', ARGV[1])
end
return redis.call('GET', KEYS[1])
`;

type GenerationCommands = RedisClient & {
  readGenerationBump(...args: (string | number)[]): Promise<number>;
  readGenerationEpoch(key: string, ttlMs: number): Promise<string>;
};

/**
 * The generations in Redis, shared by every instance on it.
 *
 * Why an expired (or evicted, or flushed) key cannot let a stale body be served: a cached body is served
 * only while the stamp read now equals the stamp it was stored with, and only for its life after it was stored
 * (READ_CACHE_TTL_MS, or READ_CACHE_STORY_TTL_MS for a story's detail). Values of a key only grow while it
 * exists (INCR), and a key created again starts at the server's time in microseconds, above every value it held
 * before (it would have to have been bumped more than once per microsecond on average over its life to catch up;
 * the Redis server's clock must not go back by more than GENERATION_KEY_TTL_MS). So:
 * - a body stamped with a value v of a key is never served once the key moved past v: a later read sees a
 *   larger value, or the key missing (`-`), or a re-created, larger value;
 * - a body stamped `-` (the key did not exist) was stored before the key's next bump created it; for a read
 *   to see `-` again, the key must have expired, GENERATION_KEY_TTL_MS after that bump, by when the body is
 *   past its life and no longer served;
 * - the epoch is never read as `-`: a read that finds it missing creates it (a value above all its earlier
 *   ones), so a flushed or restarted Redis invalidates every cached body, even those stamped `-` for their
 *   list or story key. That read pairs the new epoch with the list or story value it read just before: a
 *   stamp older than the read's data only ever fails to match later, it cannot match a newer state.
 * What this cannot see is a Redis that goes back to older values (a restore from an older snapshot, a
 * failover to a lagging replica): bodies stored since may be served until they expire.
 * The keys must live on one Redis node (the bump is one script over several keys): on a cluster their hash
 * tag puts them in one slot (READ_GENERATION_KEYS).
 */
export function createRedisReadGeneration(redis: RedisClient): ReadGeneration {
  // numberOfKeys is given with each call (the epoch, the list, then one key per story): ioredis sends the keys
  // as KEYS, which a cluster routes by (and checks are in one slot)
  redis.defineCommand('readGenerationBump', { lua: BUMP_SCRIPT });
  redis.defineCommand('readGenerationEpoch', { numberOfKeys: 1, lua: EPOCH_SCRIPT });
  const client = redis as GenerationCommands;
  let local = 0;
  return {
    driver: 'redis',
    async current(storyId) {
      const seenLocal = local;
      let values: (string | null)[];
      try {
        values = await redis.mget(EPOCH_KEY, storyId === undefined ? LIST_KEY : storyKey(storyId));
      } catch {
        return null;
      }
      const scoped = values[1];
      let epoch = values[0];
      if (epoch === null || epoch === undefined) {
        try {
          epoch = await client.readGenerationEpoch(EPOCH_KEY, GENERATION_KEY_TTL_MS);
        } catch {
          return null;
        }
      }
      return `${seenLocal}.${epoch}.${scoped ?? '-'}`;
    },
    async bump(storyIds) {
      const keys = [EPOCH_KEY, LIST_KEY, ...new Set(storyIds ?? [])].map((k, i) => (i < 2 ? k : storyKey(k)));
      try {
        await client.readGenerationBump(keys.length, ...keys, GENERATION_KEY_TTL_MS, storyIds === undefined ? '1' : '0');
      } catch (err) {
        local += 1;
        throw err;
      }
    },
  };
}

/**
 * The generations in this process (one instance on memory stores). Story generations are values of one
 * counter, so a story forgotten after GENERATION_KEY_TTL_MS without a bump (to bound the map) and bumped
 * again gets a value it never had; the expiry argument of the Redis generations holds as is.
 */
export function createMemoryReadGeneration(clock: Clock): ReadGeneration {
  let counter = 0;
  let epoch = 0;
  let list = 0;
  const stories = new Map<string, { value: number; at: number }>();
  let sweptAt = clock.now();
  return {
    driver: 'memory',
    current: async (storyId) => `0.${epoch}.${storyId === undefined ? list : (stories.get(storyId)?.value ?? '-')}`,
    bump: async (storyIds) => {
      const now = clock.now();
      if (now - sweptAt > GENERATION_KEY_TTL_MS) {
        for (const [id, s] of stories) if (now - s.at > GENERATION_KEY_TTL_MS) stories.delete(id);
        sweptAt = now;
      }
      counter += 1;
      if (storyIds === undefined) epoch = counter;
      list = counter;
      for (const id of storyIds ?? []) stories.set(id, { value: counter, at: now });
    },
  };
}
