import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { createServiceClient, devHumanProof, worldIdSignalHash, type ServiceClient } from '../../sdk/index.js';
import { createTestApp, TEST_SECRET, type TestApp } from '../helpers/app.js';
import { needsPostgres } from '../helpers/needs.js';
import { bindActor } from '../helpers/identity.js';
import { identityClient, MERKLE_ROOT, newNullifier } from './identity-helpers.js';

type ErrorBody = { code?: string; details?: { path?: string; code?: string }[]; requestId?: string };
const humanIdOf = (nullifier: string) => `h_${createHash('sha256').update(`world_id:${nullifier}`).digest('hex').slice(0, 32)}`;

describe('World ID login: POST /v1/session/worldid/challenge and /verify', () => {
  let t: TestApp;
  let client: ServiceClient;
  let id: ReturnType<typeof identityClient>;
  before(async () => {
    t = await createTestApp();
    client = createServiceClient({ baseUrl: await t.listen() });
    id = identityClient(client);
  });
  after(() => t.close());

  const db = () => t.app.ctx.database.db;
  const error = (res: { body: unknown }) => res.body as ErrorBody;

  test('a challenge is 202 with the login action, a signal and its World ID hashToField, living 5 minutes', async () => {
    const before = Date.now();
    const c = await id.challenge('reader-challenge');
    assert.match(c.challengeId, /^wch_[A-Za-z0-9_-]+$/);
    assert.equal(c.action, 'svc-login');
    assert.ok(c.signal.includes(c.challengeId), 'the signal is derived from the challenge');
    assert.equal(c.signalHash, worldIdSignalHash(c.signal));
    assert.match(c.signalHash, /^0x00[0-9a-f]{62}$/, 'a field element: the top byte is shifted out');
    const lifetime = Date.parse(c.expiresAt) - before;
    assert.ok(lifetime > 290_000 && lifetime <= 300_000 + 5_000, `lifetime ${lifetime} ms`);
    const row = await db().selectFrom('login_challenges').selectAll().where('id', '=', c.challengeId).executeTakeFirstOrThrow();
    assert.equal(row.actor_id, 'reader-challenge', 'bound to the actor that asked');
    assert.equal(row.used_at, null);
    const other = await id.challenge('reader-challenge');
    assert.notEqual(other.challengeId, c.challengeId);
    assert.notEqual(other.signalHash, c.signalHash);
  });

  test('a login binds the actor to h_ + SHA-256(world_id:nullifier), tier L3, and the linkedHumanId then counts', async () => {
    const nullifier = newNullifier();
    const started = Date.now();
    const session = await id.login('reader-login', nullifier);
    assert.equal(session.linkedHumanId, humanIdOf(nullifier));
    assert.equal(session.tier, 'L3');
    const ttl = Date.parse(session.sessionExpiresAt) - started;
    assert.ok(ttl >= 604_800_000 - 5_000 && ttl <= 604_800_000 + 5_000, 'WORLDID_SESSION_TTL_SECONDS, 7 days by default');
    const human = await db()
      .selectFrom('human_identities')
      .selectAll()
      .where('linked_human_id', '=', session.linkedHumanId)
      .executeTakeFirstOrThrow();
    assert.deepEqual([human.tier, human.provider], ['L3', 'world_id']);
    const binding = await db().selectFrom('actor_bindings').selectAll().where('actor_id', '=', 'reader-login').executeTakeFirstOrThrow();
    assert.equal(binding.linked_human_id, session.linkedHumanId);

    const prefs = await client.humanWrite<{ code?: string }>(TEST_SECRET, '/v1/users/me/preferences', {
      ...id.actor('reader-login', session.linkedHumanId),
      preferences: { lang: 'fr' },
    });
    assert.equal(prefs.status, 202, JSON.stringify(prefs.body));
    const stranger = await client.humanWrite<ErrorBody>(TEST_SECRET, '/v1/users/me/preferences', {
      ...id.actor('someone-else', session.linkedHumanId),
      preferences: {},
    });
    assert.equal(stranger.status, 403);
    assert.equal(stranger.body.code, 'LINKED_HUMAN_NOT_BOUND', 'another actor cannot borrow the linkedHumanId');
  });

  test('a nullifier spelled another way (no 0x, upper case, no leading zeros) is the same field element: the same person', async () => {
    const nullifier = `0x00${newNullifier().slice(4)}`;
    const first = await id.login('reader-spelling-1', nullifier);
    const c = await id.challenge('reader-spelling-2');
    // a proof is about the number, as World ID's verifier reads it, not about its spelling
    const proof = { ...id.loginProof(c, nullifier), nullifier_hash: nullifier.slice(4).toUpperCase() };
    const second = await client.completeWorldIdLogin(TEST_SECRET, id.actor('reader-spelling-2'), c.challengeId, proof);
    assert.equal(second.status, 202, JSON.stringify(second.body));
    assert.equal(second.body.linkedHumanId, first.linkedHumanId);
  });

  test('a second verify of the same challenge is 409 CHALLENGE_USED', async () => {
    const c = await id.challenge('reader-twice');
    const proof = id.loginProof(c);
    assert.equal((await client.completeWorldIdLogin(TEST_SECRET, id.actor('reader-twice'), c.challengeId, proof)).status, 202);
    const again = await client.completeWorldIdLogin(TEST_SECRET, id.actor('reader-twice'), c.challengeId, proof);
    assert.equal(again.status, 409);
    assert.equal(error(again).code, 'CHALLENGE_USED');
    const fresh = await client.completeWorldIdLogin(TEST_SECRET, id.actor('reader-twice'), c.challengeId, id.loginProof(c));
    assert.equal(error(fresh).code, 'CHALLENGE_USED', 'not even with another proof');
  });

  test('an expired challenge is 410 CHALLENGE_EXPIRED, and stays unused', async () => {
    const c = await id.challenge('reader-late');
    const past = Date.now() - 10 * 60_000;
    await db()
      .updateTable('login_challenges')
      .set({ created_at: new Date(past), expires_at: new Date(past + 300_000) })
      .where('id', '=', c.challengeId)
      .execute();
    const res = await client.completeWorldIdLogin(TEST_SECRET, id.actor('reader-late'), c.challengeId, id.loginProof(c));
    assert.equal(res.status, 410);
    assert.equal(error(res).code, 'CHALLENGE_EXPIRED');
    assert.equal(
      await db().selectFrom('actor_bindings').select('actor_id').where('actor_id', '=', 'reader-late').executeTakeFirst(),
      undefined,
    );
  });

  test('the login takes only the login action: a governance action in the payload is 400, the login action itself is fine', async () => {
    const c = await id.challenge('reader-action');
    for (const action of ['graduate:st_x', 'governance_ratify:gp_1', 'control_plane_approve:cp_1', 'svc-login-2']) {
      const res = await client.humanWrite<ErrorBody>(TEST_SECRET, '/v1/session/worldid/verify', {
        ...id.actor('reader-action'),
        challengeId: c.challengeId,
        ...id.loginProof(c),
        action,
      });
      assert.equal(res.status, 400, action);
      assert.equal(res.body.code, 'HUMAN_ACTION_NOT_ALLOWED');
      assert.equal(res.body.details?.[0]?.path, '/action');
    }
    const ok = await client.humanWrite(TEST_SECRET, '/v1/session/worldid/verify', {
      ...id.actor('reader-action'),
      challengeId: c.challengeId,
      ...id.loginProof(c),
      action: 'svc-login',
    });
    assert.equal(ok.status, 202);
  });

  test('a proof for another action or signal is 403 HUMAN_PROOF_INVALID and leaves the challenge usable', async () => {
    const c = await id.challenge('reader-bad-proof');
    const nullifier = newNullifier();
    const wrongSignal = devHumanProof({
      provider: 'world_id',
      action: c.action,
      nullifierHash: nullifier,
      merkleRoot: MERKLE_ROOT,
      signalHash: worldIdSignalHash('another signal'),
    });
    const wrongAction = devHumanProof({
      provider: 'world_id',
      action: 'graduate:st_1',
      nullifierHash: nullifier,
      merkleRoot: MERKLE_ROOT,
      signalHash: c.signalHash,
    });
    for (const proof of [wrongSignal, wrongAction]) {
      const res = await client.completeWorldIdLogin(TEST_SECRET, id.actor('reader-bad-proof'), c.challengeId, proof);
      assert.equal(res.status, 403);
      assert.equal(error(res).code, 'HUMAN_PROOF_INVALID');
    }
    const ok = await client.completeWorldIdLogin(TEST_SECRET, id.actor('reader-bad-proof'), c.challengeId, id.loginProof(c, nullifier));
    assert.equal(ok.status, 202);
  });

  test("another actor's challenge is 404, an unknown one too; a malformed nullifier or an extra field is 400", async () => {
    const c = await id.challenge('reader-owner');
    const stolen = await client.completeWorldIdLogin(TEST_SECRET, id.actor('reader-thief'), c.challengeId, id.loginProof(c));
    assert.equal(stolen.status, 404);
    assert.equal(error(stolen).code, 'NOT_FOUND');
    const unknown = await client.completeWorldIdLogin(TEST_SECRET, id.actor('reader-owner'), 'wch_nope', id.loginProof(c));
    assert.equal(unknown.status, 404);
    const notHex = await client.completeWorldIdLogin(TEST_SECRET, id.actor('reader-owner'), c.challengeId, {
      ...id.loginProof(c),
      nullifier_hash: 'not-hex',
    });
    assert.equal(notHex.status, 400);
    assert.equal(error(notHex).details?.[0]?.path, '/nullifier_hash');
    const extra = await client.humanWrite<ErrorBody>(TEST_SECRET, '/v1/session/worldid/verify', {
      ...id.actor('reader-owner'),
      challengeId: c.challengeId,
      ...id.loginProof(c),
      signal_hash: c.signalHash,
    });
    assert.equal(extra.status, 400);
    const unsigned = await fetch(`${t.baseUrl}/v1/session/worldid/challenge`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(id.actor('x')),
    });
    assert.equal(unsigned.status, 401);
  });

  test('one person may log in from several actorIds; an actor bound to another World ID human is 409 ACTOR_BOUND_TO_OTHER_HUMAN', async () => {
    const alice = newNullifier();
    const a1 = await id.login('alice-phone', alice);
    const a2 = await id.login('alice-laptop', alice);
    assert.equal(a2.linkedHumanId, a1.linkedHumanId);
    const again = await id.login('alice-phone', alice);
    assert.equal(again.linkedHumanId, a1.linkedHumanId, 'logging in again renews the session');

    const c = await id.challenge('alice-phone');
    const bob = await client.completeWorldIdLogin(TEST_SECRET, id.actor('alice-phone'), c.challengeId, id.loginProof(c, newNullifier()));
    assert.equal(bob.status, 409);
    assert.equal(error(bob).code, 'ACTOR_BOUND_TO_OTHER_HUMAN');
    const binding = await db()
      .selectFrom('actor_bindings')
      .select('linked_human_id')
      .where('actor_id', '=', 'alice-phone')
      .executeTakeFirstOrThrow();
    assert.equal(binding.linked_human_id, a1.linkedHumanId, 'the binding is unchanged');
    const retry = await client.completeWorldIdLogin(TEST_SECRET, id.actor('alice-phone'), c.challengeId, id.loginProof(c, alice));
    assert.equal(retry.status, 202, 'the refused login did not use the challenge up');
  });

  test('after the session ends the linkedHumanId no longer counts, and anyone may log in to the actor again', async () => {
    const session = await id.login('reader-session');
    const write = (linkedHumanId: string) =>
      client.humanWrite<ErrorBody>(TEST_SECRET, '/v1/users/me/preferences', {
        ...id.actor('reader-session', linkedHumanId),
        preferences: {},
      });
    assert.equal((await write(session.linkedHumanId)).status, 202);
    await db()
      .updateTable('actor_bindings')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('actor_id', '=', 'reader-session')
      .execute();
    const ended = await write(session.linkedHumanId);
    assert.equal(ended.status, 403);
    assert.equal(ended.body.code, 'LINKED_HUMAN_NOT_BOUND');
    const next = await id.login('reader-session');
    assert.notEqual(next.linkedHumanId, session.linkedHumanId);
    assert.equal((await write(next.linkedHumanId)).status, 202);
  });

  test('a World ID login upgrades an actor bound to a secondary-provider (L2) human', async () => {
    const passport = await id.verifyAction('reader-upgrade', 'reward:st_missing', { provider: 'passport' });
    assert.equal(passport.status, 404, 'the target must exist');
    await bindActor(t.db.database, 'reader-upgrade', 'h_passport_only', 'L2');
    const session = await id.login('reader-upgrade');
    assert.notEqual(session.linkedHumanId, 'h_passport_only');
    const binding = await db()
      .selectFrom('actor_bindings')
      .select('linked_human_id')
      .where('actor_id', '=', 'reader-upgrade')
      .executeTakeFirstOrThrow();
    assert.equal(binding.linked_human_id, session.linkedHumanId);
  });

  test(
    'parallel verifies of one challenge: exactly one logs in, the others are 409 CHALLENGE_USED',
    { skip: needsPostgres('PGlite runs one query at a time, so nothing races') },
    async () => {
      const c = await id.challenge('reader-race');
      const proof = id.loginProof(c);
      const results = await Promise.all(
        Array.from({ length: 8 }, () => client.completeWorldIdLogin(TEST_SECRET, id.actor('reader-race'), c.challengeId, proof)),
      );
      const statuses = results.map((r) => r.status).sort();
      assert.deepEqual(statuses, [202, 409, 409, 409, 409, 409, 409, 409]);
      assert.ok(results.filter((r) => r.status === 409).every((r) => error(r).code === 'CHALLENGE_USED'));
    },
  );
});
