import { randomBytes } from 'node:crypto';
import { after } from 'node:test';
import { Redis } from 'ioredis';

/**
 * Redis key prefixes of test apps: `test:<run>.<random>:`, where <run> is TEST_RUN_ID (set by
 * scripts/run-tests.mjs for the whole run, so its post-run check can find what this run left) or a random id.
 * Every prefix handed out is deleted (SCAN + UNLINK) when its test app closes and again when the test file
 * ends, so that keys without a TTL (the read generation) do not pile up on the test server.
 */
export const TEST_RUN_ID = process.env.TEST_RUN_ID ?? randomBytes(4).toString('hex');

const used = new Set<string>();

/** A new key prefix for one test app (or for several that play instances of one deployment). */
export function testRedisPrefix(): string {
  const prefix = `test:${TEST_RUN_ID}.${randomBytes(6).toString('hex')}:`;
  used.add(prefix);
  return prefix;
}

/** Remembers a prefix a test chose itself, so that the end of the file deletes it too. */
export function trackRedisPrefix(prefix: string | undefined): void {
  if (prefix?.startsWith('test:')) used.add(prefix);
}

/** Deletes every key under `prefix` on the test Redis (no-op without TEST_REDIS_URL). */
export async function deleteRedisPrefix(prefix: string): Promise<number> {
  const url = process.env.TEST_REDIS_URL;
  if (!url || !prefix.startsWith('test:') || /[*?[\]\\]/.test(prefix)) return 0;
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1 });
  redis.on('error', () => undefined);
  let deleted = 0;
  try {
    await redis.connect();
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
      cursor = next;
      if (keys.length) deleted += await redis.unlink(...keys);
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
  return deleted;
}

// Safety net for apps built without createTestApp (buildApp(loadConfig(testEnv(...)))): at the end of each
// test file, delete every prefix it used.
after(async () => {
  for (const prefix of used) await deleteRedisPrefix(prefix);
});
