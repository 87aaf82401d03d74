import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { loadConfig } from '../../src/config.js';
import { createProofVerifier, type HumanProof } from '../../src/identity/humans/proof-verifier.js';
import { AppError } from '../../src/platform/errors.js';
import { createServiceClient, worldIdSignalHash } from '../../sdk/index.js';
import { createTestApp, TEST_SECRET } from '../helpers/app.js';
import { fakeProvider } from '../helpers/world-id-server.js';
import { identityClient, MERKLE_ROOT, newNullifier } from './identity-helpers.js';

const proof = (overrides: Partial<HumanProof> = {}): HumanProof => ({
  provider: 'world_id',
  action: 'reward:st_1',
  nullifierHash: `0x${'2b'.repeat(32)}`,
  merkleRoot: MERKLE_ROOT,
  proof: `0x${'0f'.repeat(256)}`,
  verificationLevel: 'orb',
  signalHash: worldIdSignalHash('login:wch_1'),
  ...overrides,
});

/** The AppError `promise` rejects with (fails the test if it resolves or throws something else). */
async function refusal(promise: Promise<unknown>): Promise<AppError> {
  try {
    await promise;
  } catch (err) {
    assert.ok(err instanceof AppError, String(err));
    return err;
  }
  assert.fail('expected the proof to be refused');
}

describe('remote proof verifier against a local server speaking the providers’ formats', () => {
  let provider: Awaited<ReturnType<typeof fakeProvider>>;
  let verifier: ReturnType<typeof createProofVerifier>;
  before(async () => {
    provider = await fakeProvider();
    verifier = createProofVerifier(
      loadConfig({
        HUMAN_PROOF_VERIFIER: 'remote',
        WORLDID_VERIFY_URL: `${provider.base}/api/v2/verify/app_test`,
        HUMAN_PROOF_PASSPORT_VERIFY_URL: `${provider.base}/passport/verify`,
        HUMAN_PROOF_VERIFY_TIMEOUT_MS: '300',
      }),
    );
  });
  after(() => provider.close());

  test('a valid proof: World ID’s request format, signal_hash only when there is a signal', async () => {
    provider.answer({
      status: 200,
      body: { success: true, uses: 1, action: 'reward:st_1', nullifier_hash: '0x2b', verification_level: 'orb' },
    });
    await verifier.verify(proof());
    const sent = provider.requests.at(-1)!;
    assert.equal(sent.url, '/api/v2/verify/app_test');
    assert.deepEqual(sent.body, {
      nullifier_hash: proof().nullifierHash,
      merkle_root: MERKLE_ROOT,
      proof: proof().proof,
      verification_level: 'orb',
      action: 'reward:st_1',
      signal_hash: worldIdSignalHash('login:wch_1'),
    });
    await verifier.verify(proof({ signalHash: '' }));
    assert.equal('signal_hash' in provider.requests.at(-1)!.body, false, 'World ID then applies hashToField("")');
  });

  test('secondary providers get the same fields plus provider, at their own URL', async () => {
    provider.answer({ status: 200, body: { success: true } });
    await verifier.verify(proof({ provider: 'passport', nullifierHash: 'passport-n-1' }));
    const sent = provider.requests.at(-1)!;
    assert.equal(sent.url, '/passport/verify');
    assert.equal(sent.body.provider, 'passport');
    assert.equal(sent.body.nullifier_hash, 'passport-n-1');
  });

  test('invalid_proof, invalid_merkle_root, root_too_old, invalid_action: 403 HUMAN_PROOF_INVALID with the provider’s code', async () => {
    for (const [code, attribute, path] of [
      ['invalid_proof', null, '/proof'],
      ['invalid_merkle_root', 'merkle_root', '/merkle_root'],
      ['root_too_old', null, '/proof'],
      ['invalid_action', 'action', '/action'],
    ] as const) {
      provider.answer({ status: 400, body: { code, detail: `World ID says ${code}`, attribute } });
      const err = await refusal(verifier.verify(proof()));
      assert.equal(err.code, 'HUMAN_PROOF_INVALID', code);
      assert.equal(err.status, 403);
      assert.deepEqual(err.details, [{ path, code, message: `World ID says ${code}` }]);
    }
  });

  test('max_verifications_reached is 409 HUMAN_PROOF_ALREADY_VERIFIED', async () => {
    provider.answer({
      status: 400,
      body: { code: 'max_verifications_reached', detail: 'This person has already verified for this action.', attribute: null },
    });
    const err = await refusal(verifier.verify(proof()));
    assert.deepEqual([err.status, err.code, err.details?.[0]?.code], [409, 'HUMAN_PROOF_ALREADY_VERIFIED', 'max_verifications_reached']);
  });

  test('a 200 with success false is a refusal; a 200 the service cannot read is 503, never a pass', async () => {
    provider.answer({ status: 200, body: { success: false, code: 'verification_error', detail: 'no' } });
    assert.equal((await refusal(verifier.verify(proof()))).code, 'HUMAN_PROOF_INVALID');
    for (const body of ['<html>ok</html>', '{}', '[]', 'null']) {
      provider.answer({ status: 200, body });
      const err = await refusal(verifier.verify(proof()));
      assert.deepEqual([err.status, err.code], [503, 'HUMAN_PROOF_VERIFIER_UNAVAILABLE'], body);
    }
  });

  test('5xx, 429 (with retry-after), an unknown app (404 not_found) and a redirect are 503: not judged', async () => {
    provider.answer({ status: 502, body: 'bad gateway' });
    assert.equal((await refusal(verifier.verify(proof()))).status, 503);
    provider.answer({ status: 429, body: { code: 'rate_limited' }, headers: { 'retry-after': '17' } });
    const limited = await refusal(verifier.verify(proof()));
    assert.deepEqual([limited.status, limited.retryAfterSeconds], [503, 17]);
    provider.answer({ status: 404, body: { code: 'not_found', detail: 'App not found. App may be no longer active.', attribute: null } });
    assert.equal((await refusal(verifier.verify(proof()))).code, 'HUMAN_PROOF_VERIFIER_UNAVAILABLE');
    provider.answer({ status: 302, headers: { location: 'http://example.invalid/' } });
    assert.equal((await refusal(verifier.verify(proof()))).code, 'HUMAN_PROOF_VERIFIER_UNAVAILABLE');
  });

  test('a provider that never answers, or stops mid-answer, times out as 503 instead of hanging', { timeout: 10_000 }, async () => {
    provider.answer('never');
    const silent = await refusal(verifier.verify(proof()));
    assert.equal(silent.code, 'HUMAN_PROOF_VERIFIER_UNAVAILABLE');
    assert.match(silent.message, /did not answer within 300 ms/);
    provider.answer('stall-body');
    assert.match((await refusal(verifier.verify(proof()))).message, /did not answer within 300 ms/);
  });

  test('an unreachable or unconfigured provider is 503', async () => {
    const closed = await fakeProvider();
    await closed.close();
    const unreachable = createProofVerifier(
      loadConfig({ HUMAN_PROOF_VERIFIER: 'remote', WORLDID_VERIFY_URL: `${closed.base}/api/v2/verify/app_x` }),
    );
    assert.match((await refusal(unreachable.verify(proof()))).message, /could not be reached/);
    const phone = await refusal(verifier.verify(proof({ provider: 'phone' })));
    assert.deepEqual([phone.status, phone.code], [503, 'HUMAN_PROOF_VERIFIER_UNAVAILABLE']);
  });

  test('with WORLDID_APP_ID only, proofs go to World ID’s cloud verification API for that app', async () => {
    const calls: string[] = [];
    const stub = (async (url: string | URL | Request) => {
      calls.push(String(url));
      return new Response(JSON.stringify({ success: true }), { status: 200 });
    }) as typeof fetch;
    await createProofVerifier(loadConfig({ HUMAN_PROOF_VERIFIER: 'remote', WORLDID_APP_ID: 'app_staging_123' }), stub).verify(proof());
    assert.deepEqual(calls, ['https://developer.worldcoin.org/api/v2/verify/app_staging_123']);
  });
});

describe('World ID login through HTTP with HUMAN_PROOF_VERIFIER=remote', () => {
  test('the service asks the provider with the login action and the challenge’s signal hash, and maps its refusal', async () => {
    const provider = await fakeProvider();
    const t = await createTestApp({
      HUMAN_PROOF_VERIFIER: 'remote',
      WORLDID_VERIFY_URL: `${provider.base}/api/v2/verify/app_test`,
      HUMAN_PROOF_VERIFY_TIMEOUT_MS: '300',
    });
    try {
      const client = createServiceClient({ baseUrl: await t.listen() });
      const id = identityClient(client);
      const idkitResult = {
        nullifier_hash: newNullifier(),
        merkle_root: MERKLE_ROOT,
        proof: `0x${'0f'.repeat(256)}`,
        verification_level: 'orb',
      };

      provider.answer({ status: 400, body: { code: 'invalid_proof', detail: 'The provided proof is invalid', attribute: null } });
      const c = await id.challenge('remote-reader');
      const refused = await client.completeWorldIdLogin(TEST_SECRET, id.actor('remote-reader'), c.challengeId, idkitResult);
      assert.equal(refused.status, 403);
      assert.equal((refused.body as unknown as { code: string }).code, 'HUMAN_PROOF_INVALID');

      provider.answer('never');
      const timedOut = await client.completeWorldIdLogin(TEST_SECRET, id.actor('remote-reader'), c.challengeId, idkitResult);
      assert.equal(timedOut.status, 503);

      provider.answer({ status: 200, body: { success: true } });
      const ok = await client.completeWorldIdLogin(TEST_SECRET, id.actor('remote-reader'), c.challengeId, idkitResult);
      assert.equal(ok.status, 202, JSON.stringify(ok.body));
      const sent = provider.requests.at(-1)!.body;
      assert.deepEqual([sent.action, sent.signal_hash, sent.nullifier_hash], ['svc-login', c.signalHash, idkitResult.nullifier_hash]);
    } finally {
      await t.close();
      await provider.close();
    }
  });
});
