import assert from 'node:assert/strict';
import { createPublicKey, sign } from 'node:crypto';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { generateAgentKey } from '../../sdk/index.js';
import { publicKeyObject, verifyAgentSignature } from '../../src/platform/auth/agent-signature.js';
import { fuzzRuns } from '../helpers/fuzz.js';

const SPKI_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');

/** The key as OpenSSL reads it from its DER (SPKI) form: what the parse must agree with. */
function fromDer(raw: Buffer) {
  try {
    return createPublicKey({ key: Buffer.concat([SPKI_PREFIX, raw]), format: 'der', type: 'spki' });
  } catch {
    return null;
  }
}

describe('an agent public key parsed from its raw base64url form', () => {
  test('is the public half of its private key, and verifies what that key signed', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 64 }), (message) => {
        const { publicKey, privateKey } = generateAgentKey();
        const parsed = publicKeyObject(publicKey);
        assert.ok(parsed !== null && parsed.equals(createPublicKey(privateKey)));
        const signature = sign(null, Buffer.from(message), privateKey);
        assert.equal(verifyAgentSignature(parsed, Buffer.from(message), signature), true);
        assert.equal(verifyAgentSignature(parsed, Buffer.from(`${message}.`), signature), false);
      }),
      { numRuns: fuzzRuns(200) },
    );
  });

  test('agrees with the DER form on any 32 bytes, and refuses any other length', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 0, maxLength: 48 }), (bytes) => {
        const raw = Buffer.from(bytes);
        const parsed = publicKeyObject(raw.toString('base64url'));
        if (raw.length !== 32) return assert.equal(parsed, null);
        const der = fromDer(raw);
        assert.equal(parsed === null, der === null);
        if (parsed && der) assert.ok(parsed.equals(der));
      }),
      { numRuns: fuzzRuns(500) },
    );
  });
});
