import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import { canonicalJson, createApiClient, createServiceClient, humanSigning, signHumanRequest } from '../../sdk/index.js';
import {
  createTestApp,
  createTestDatabase,
  TEST_SECRET,
  usingRealPostgres,
  usingRealRedis,
  type TestApp,
  type TestDatabase,
} from '../helpers/app.js';
import type { Json } from '../helpers/json.js';
import { newsroomClient } from '../helpers/newsroom.js';
import { testRedisPrefix } from '../helpers/redis.js';
import { until } from '../helpers/until.js';

/**
 * Idempotency keys on people's signed writes, across two instances of the service that share one database and
 * one Redis: the key's record is in the database, so instance B answers what instance A wrote.
 */
const skip = usingRealPostgres && usingRealRedis ? false : 'needs TEST_DATABASE_URL and TEST_REDIS_URL (two instances share them)';

const newKey = () => `retry-${randomBytes(8).toString('hex')}`;
const actor = () => ({ actorId: `reader-${randomBytes(4).toString('hex')}`, verified: false });

describe('Idempotency-Key on human signed writes, across two instances', { skip }, () => {
  let shared: TestDatabase;
  let a: TestApp;
  let b: TestApp;
  let storyId = '';

  before(async () => {
    shared = await createTestDatabase();
    const env = { REDIS_KEY_PREFIX: testRedisPrefix() };
    a = await createTestApp(env, shared);
    b = await createTestApp(env, shared);
    await a.listen();
    await b.listen();
    storyId = (await newsroomClient(a.baseUrl).publishedStory()).storyId;
  });
  after(async () => {
    await a?.close();
    await b?.close();
    await shared?.drop();
  });

  const commentsOf = async (actorId: string) =>
    (
      await sql<{
        id: string;
        body: string;
      }>`select id, body from comments where story_id = ${storyId} and actor_id = ${actorId} order by seq`.execute(shared.owner.db)
    ).rows;

  function comment(instance: TestApp, body: Json, idempotencyKey?: string) {
    return createServiceClient({ baseUrl: instance.baseUrl }).humanWrite<Json>(
      TEST_SECRET,
      `/v1/stories/${storyId}/comments`,
      body as { actorId: string; verified: boolean },
      'POST',
      idempotencyKey === undefined ? {} : { idempotencyKey },
    );
  }

  test('the same key and body, signed again on the other instance, answer the first answer: one comment', async () => {
    const who = actor();
    const body = { ...who, body: 'The evening crossings are welcome news for commuters.' };
    const key = newKey();
    const first = await comment(a, body, key);
    assert.equal(first.status, 202, JSON.stringify(first.body));
    assert.equal(first.headers.get('idempotent-replayed'), null);
    const again = await comment(b, body, key);
    assert.equal(again.status, 202, JSON.stringify(again.body));
    assert.equal(again.headers.get('idempotent-replayed'), 'true');
    assert.deepEqual(again.body, first.body);
    assert.deepEqual(
      (await commentsOf(who.actorId)).map((c) => c.id),
      [first.body.id],
    );
    // without a key, the same body signed again is a second comment, as before
    const unkeyed = await comment(b, body);
    assert.equal(unkeyed.status, 202);
    assert.equal((await commentsOf(who.actorId)).length, 2);
  });

  test('the same key with another body is 409 IDEMPOTENCY_KEY_CONFLICT and writes nothing', async () => {
    const who = actor();
    const key = newKey();
    assert.equal((await comment(a, { ...who, body: 'First words.' }, key)).status, 202);
    const other = await comment(b, { ...who, body: 'Other words.' }, key);
    assert.equal(other.status, 409);
    assert.equal(other.body.code, 'IDEMPOTENCY_KEY_CONFLICT');
    assert.deepEqual(
      (await commentsOf(who.actorId)).map((c) => c.body),
      ['First words.'],
    );
  });

  test("a key is the signed person's own: another person's use of it writes their own comment", async () => {
    const key = newKey();
    const [one, two] = [actor(), actor()];
    const first = await comment(a, { ...one, body: 'Same words from two readers.' }, key);
    const second = await comment(b, { ...two, body: 'Same words from two readers.' }, key);
    assert.equal(first.status, 202);
    assert.equal(second.status, 202);
    assert.equal(second.headers.get('idempotent-replayed'), null);
    assert.notEqual(second.body.id, first.body.id);
  });

  test('a request refused by the signature, the nonce or the limit never takes the key', async () => {
    const who = actor();
    const key = newKey();
    const path = `/v1/stories/${storyId}/comments`;
    const forged = { ...who, body: 'Words the reader never wrote.' };
    const headers = { ...signHumanRequest({ secret: 'not-the-secret', method: 'POST', path, body: forged }), 'idempotency-key': key };
    const refused = await fetch(`${a.baseUrl}${path}`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: canonicalJson(forged),
    });
    assert.equal(refused.status, 401);
    // a replayed nonce: the signature is right, the request is not new
    const real = { ...who, body: 'What the reader wrote.' };
    const signed = { ...signHumanRequest({ secret: TEST_SECRET, method: 'POST', path, body: real }), 'idempotency-key': key };
    const send = (instance: TestApp) =>
      fetch(`${instance.baseUrl}${path}`, {
        method: 'POST',
        headers: { ...signed, 'content-type': 'application/json' },
        body: canonicalJson(real),
      });
    assert.equal((await send(a)).status, 202);
    const replayed = await send(b);
    assert.equal(replayed.status, 409);
    assert.equal(((await replayed.json()) as Json).code, 'REPLAY_DETECTED');
    assert.deepEqual(
      (await commentsOf(who.actorId)).map((c) => c.body),
      ['What the reader wrote.'],
    );
  });

  test('a comment whose answer was lost (the client gave up) is retried on the other instance: one comment, the first answer', async () => {
    const who = actor();
    const body = { ...who, body: 'Posted from a train with a weak signal.' };
    const key = newKey();
    // hold the comment's insert: the first request is still working when its client gives up
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let locked!: () => void;
    const isLocked = new Promise<void>((resolve) => (locked = resolve));
    const holder = shared.owner.db.transaction().execute(async (trx) => {
      await sql`lock table comments in exclusive mode`.execute(trx);
      locked();
      await released;
    });
    await isLocked;
    const path = `/v1/stories/${storyId}/comments`;
    const abort = new AbortController();
    const lost = fetch(`${a.baseUrl}${path}`, {
      method: 'POST',
      headers: {
        ...signHumanRequest({ secret: TEST_SECRET, method: 'POST', path, body }),
        'idempotency-key': key,
        'content-type': 'application/json',
      },
      body: canonicalJson(body),
      signal: abort.signal,
    }).catch((err: unknown) => err);
    const record = async () =>
      (
        await sql<{
          status_code: number | null;
        }>`select status_code from idempotency_records where scope = ${`human:${who.actorId}`} and key = ${key}`.execute(shared.owner.db)
      ).rows[0];
    await until(async () => (await record()) !== undefined, 10_000, 'the first request to take its key');
    abort.abort();
    assert.ok((await lost) instanceof Error, 'the client gave up before an answer');

    // while the first one is still working, a retry is told so (and when to come back), and writes nothing
    const early = await comment(b, body, key);
    assert.equal(early.status, 409);
    assert.equal(early.body.code, 'IDEMPOTENCY_KEY_IN_PROGRESS');
    assert.ok(Number(early.headers.get('retry-after')) >= 1);

    release();
    await holder;
    await until(async () => (await record())?.status_code === 202, 10_000, 'the first request to finish');
    const retried = await comment(b, body, key);
    assert.equal(retried.status, 202, JSON.stringify(retried.body));
    assert.equal(retried.headers.get('idempotent-replayed'), 'true');
    const stored = await commentsOf(who.actorId);
    assert.equal(stored.length, 1, 'exactly one comment');
    assert.equal(retried.body.id, stored[0]!.id);
    assert.equal(retried.body.body, body.body);
  });

  test('flags and reward votes honour the key too', async () => {
    const who = actor();
    const client = createServiceClient({ baseUrl: a.baseUrl });
    const other = createServiceClient({ baseUrl: b.baseUrl });
    for (const [path, body] of [
      [`/v1/stories/${storyId}/flags`, { ...who, severity: 'LOW', reason: 'The headline overstates the change.' }],
      [`/v1/stories/${storyId}/reward-votes`, { ...who, vote: 'UP' }],
    ] as const) {
      const key = newKey();
      const first = await client.humanWrite<Json>(TEST_SECRET, path, body, 'POST', { idempotencyKey: key });
      assert.ok(first.status < 300, `${path}: ${JSON.stringify(first.body)}`);
      const again = await other.humanWrite<Json>(TEST_SECRET, path, body, 'POST', { idempotencyKey: key });
      assert.equal(again.status, first.status, path);
      assert.equal(again.headers.get('idempotent-replayed'), 'true', path);
      assert.deepEqual(again.body, first.body, path);
      const conflict = await other.humanWrite<Json>(TEST_SECRET, path, { ...body, actorId: who.actorId, verified: true }, 'POST', {
        idempotencyKey: key,
      });
      assert.equal(conflict.body.code, 'IDEMPOTENCY_KEY_CONFLICT', path);
    }
  });

  test('the generated client sends the key as the parameter the document declares; its middleware signs each attempt anew', async () => {
    const who = actor();
    const key = newKey();
    const attempt = (instance: TestApp) => {
      const api = createApiClient({ baseUrl: instance.baseUrl });
      api.use(humanSigning({ secret: TEST_SECRET }));
      return api.POST('/v1/stories/{id}/comments', {
        params: { path: { id: storyId }, header: { 'idempotency-key': key } },
        body: { ...who, body: 'Typed and retried.' },
      });
    };
    const first = await attempt(a);
    assert.equal(first.response.status, 202, JSON.stringify(first.error));
    const retried = await attempt(b);
    assert.equal(retried.response.status, 202, JSON.stringify(retried.error));
    assert.equal(retried.response.headers.get('idempotent-replayed'), 'true');
    assert.equal(retried.data?.id, first.data?.id);
    assert.equal((await commentsOf(who.actorId)).length, 1);
  });

  test('a malformed key is 400 on a human write, before anything is written', async () => {
    const who = actor();
    const res = await comment(a, { ...who, body: 'Short key.' }, 'short');
    assert.equal(res.status, 400);
    assert.equal(res.body.code, 'VALIDATION_FAILED');
    assert.deepEqual(await commentsOf(who.actorId), []);
  });
});

describe('the document declares the idempotency key on every signed write', () => {
  test('every non-GET operation signed by a person or a bot takes the idempotency-key header parameter, and no other', async () => {
    const t = await createTestApp();
    try {
      const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json() as Json;
      let writes = 0;
      for (const [path, operations] of Object.entries(doc.paths as Json))
        for (const [method, operation] of Object.entries(operations as Json)) {
          const op = operation as Json;
          const signedWrite = method !== 'get' && /humanSignature|agentSignature/.test(JSON.stringify(op.security ?? []));
          const declares = ((op.parameters as Json[] | undefined) ?? []).some((p) => p.$ref === '#/components/parameters/IdempotencyKey');
          assert.equal(declares, signedWrite, `${method} ${path}`);
          if (signedWrite) writes += 1;
        }
      assert.ok(writes > 40, String(writes));
    } finally {
      await t.close();
    }
  });
});
