import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { buildAgentProof } from '../../sdk/index.js';
import { verifyAgentProof } from '../../src/platform/auth/agent-proof.js';
import { AppError } from '../../src/platform/errors.js';
import { fuzzRuns } from '../helpers/fuzz.js';

const ORIGIN = 'https://news.example';
const PATH = '/v1/agents/verify';
const NONCE = 'a1b2c3d4e5f6a7b8c9d0';
const wallet = privateKeyToAccount(generatePrivateKey());
const other = privateKeyToAccount(generatePrivateKey());

const check = (header: string | undefined, now = Date.now()) =>
  verifyAgentProof({ header, nonce: NONCE, path: PATH, origins: [ORIGIN], now, maxAgeMs: 300_000 });

async function refusal(header: string | undefined): Promise<string> {
  try {
    await check(header);
  } catch (err) {
    assert.ok(err instanceof AppError, `not an AppError: ${String(err)}`);
    assert.equal(err.code, 'AGENTPROOF_VERIFICATION_FAILED');
    return err.details![0]!.code!;
  }
  return 'ACCEPTED';
}

const encode = (payload: Record<string, unknown>) => Buffer.from(JSON.stringify(payload)).toString('base64');

describe('agentproof verification (property)', () => {
  test('a proof accepts exactly when nothing signed in it was changed; every change is refused with a named check', async () => {
    const valid = JSON.parse(
      Buffer.from(await buildAgentProof({ wallet, origin: ORIGIN, path: PATH, nonce: NONCE }), 'base64').toString(),
    ) as Record<string, string>;
    assert.equal((await check(encode(valid))).address, wallet.address);
    const mutations: Record<string, fc.Arbitrary<unknown>> = {
      uri: fc.constantFrom(`${ORIGIN}/v1/candidates`, `${ORIGIN}${PATH}/`, `https://evil.example${PATH}`, `${ORIGIN}${PATH}?x=1`),
      domain: fc.constantFrom('evil.example', 'news.example:443', ''),
      nonce: fc.stringMatching(/^[A-Za-z0-9]{8,20}$/).filter((n) => n !== NONCE),
      address: fc.constant(other.address),
      chainId: fc.constantFrom('eip155:1', 'eip155:8453', 'solana:mainnet', 'eip155:'),
      issuedAt: fc.integer({ min: 301, max: 10_000 }).map((s) => new Date(Date.now() - s * 1000).toISOString()),
      statement: fc.string({ minLength: 1, maxLength: 20 }).filter((s) => !s.includes('\n')),
      signature: fc.constantFrom('0x', `0x${'ab'.repeat(65)}`, 'not-hex'),
      type: fc.constantFrom('eip1271', 'ed25519', 'nope'),
    };
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...Object.keys(mutations)), fc.nat(), async (field, seed) => {
        const [value] = fc.sample(mutations[field]!, { seed, numRuns: 1 });
        const outcome = await refusal(encode({ ...valid, [field]: value }));
        assert.notEqual(outcome, 'ACCEPTED', `${field}=${String(value)} was accepted`);
        assert.ok(
          ['MALFORMED', 'NONCE_MISMATCH', 'URI_MISMATCH', 'EXPIRED', 'SIGNATURE_INVALID'].includes(outcome),
          `${field}: ${outcome}`,
        );
      }),
      { numRuns: fuzzRuns(300) },
    );
  });

  test('any header text is refused as a named check, never another error', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.string(),
          fc.base64String(),
          fc.json().map((j) => Buffer.from(j).toString('base64')),
        ),
        async (header) => {
          const outcome = await refusal(header);
          assert.ok(['MISSING', 'MALFORMED'].includes(outcome), outcome);
        },
      ),
      { numRuns: fuzzRuns(500) },
    );
  });
});
