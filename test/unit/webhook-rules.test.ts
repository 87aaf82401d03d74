import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { checkEndpoint, isPublicAddress } from '../../src/delivery/webhooks/address-policy.js';
import { retryAfterMs, retryDelayMs } from '../../src/delivery/webhooks/backoff.js';
import { webhookHeaders, webhookSignature } from '../../src/delivery/webhooks/signature.js';
import { fuzzRuns } from '../helpers/fuzz.js';

describe('webhook signature (docs/webhooks.md)', () => {
  test('sha256= hex HMAC-SHA256 over id.occurredAt.payloadJson, keyed with the signing secret', () => {
    const body = '{"id":"whe_1","type":"story.correction","occurredAt":"2026-11-22T10:00:00.000Z","data":{}}';
    const expected = createHmac('sha256', 'secret').update(`whe_1.2026-11-22T10:00:00.000Z.${body}`).digest('hex');
    assert.equal(webhookSignature('secret', 'whe_1', '2026-11-22T10:00:00.000Z', body), `sha256=${expected}`);
    const headers = webhookHeaders('secret', { id: 'whe_1', occurredAt: '2026-11-22T10:00:00.000Z', payload: body });
    assert.equal(headers['x-svc-webhook-id'], 'whe_1');
    assert.equal(headers['x-svc-webhook-timestamp'], '2026-11-22T10:00:00.000Z');
    assert.equal(headers['x-svc-webhook-signature'], `sha256=${expected}`);
    assert.notEqual(webhookSignature('other', 'whe_1', '2026-11-22T10:00:00.000Z', body), headers['x-svc-webhook-signature']);
  });
});

describe('retry schedule', () => {
  test('exponential with equal jitter: between half and all of min(cap, base × 2^(n-1))', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 200 }),
        fc.integer({ min: 10, max: 60_000 }),
        fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
        (n, base, r) => {
          const cap = base * 100;
          const full = Math.min(cap, base * 2 ** (n - 1));
          const delay = retryDelayMs(n, base, cap, () => r);
          return delay >= Math.floor(full / 2) && delay <= Math.ceil(full);
        },
      ),
      { numRuns: fuzzRuns(2000) },
    );
    assert.deepEqual(
      [1, 2, 3, 4, 10, 30].map((n) => retryDelayMs(n, 10_000, 3_600_000, () => 1)),
      [10_000, 20_000, 40_000, 80_000, 3_600_000, 3_600_000],
    );
  });

  test('Retry-After in seconds or as an HTTP date; anything else is ignored', () => {
    const now = Date.parse('2026-11-22T10:00:00.000Z');
    assert.equal(retryAfterMs('120', now), 120_000);
    assert.equal(retryAfterMs('Sun, 22 Nov 2026 10:01:00 GMT', now), 60_000);
    assert.equal(retryAfterMs('Sun, 22 Nov 2026 09:00:00 GMT', now), 0);
    assert.equal(retryAfterMs('soon', now), undefined);
    assert.equal(retryAfterMs(undefined, now), undefined);
  });
});

describe('SSRF address policy', () => {
  test('only public unicast addresses pass', () => {
    for (const refused of [
      '127.0.0.1',
      '10.1.2.3',
      '172.16.0.1',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '255.255.255.255',
      '224.0.0.1',
      '::1',
      '::',
      'fe80::1',
      'fc00::1',
      'fd12:3456::1',
      '::ffff:127.0.0.1',
      '::ffff:8.8.8.8',
      '2001:db8::1',
      '64:ff9b::7f00:1',
      'not-an-ip',
    ])
      assert.equal(isPublicAddress(refused), false, refused);
    for (const allowed of ['8.8.8.8', '1.1.1.1', '93.184.216.34', '2606:4700:4700::1111', '2a00:1450:4001:80b::200e'])
      assert.equal(isPublicAddress(allowed), true, allowed);
  });

  test('endpoints: HTTPS only, allowlisted hosts only, private IP literals refused before any connection', () => {
    const policy = { allowPrivateAddresses: false, hostAllowlist: ['hooks.example.com'] };
    assert.doesNotThrow(() => checkEndpoint(new URL('https://hooks.example.com/in'), policy));
    assert.throws(() => checkEndpoint(new URL('http://hooks.example.com/in'), policy), /HTTPS only/);
    assert.throws(() => checkEndpoint(new URL('https://evil.example.com/in'), policy), /WEBHOOK_HOST_ALLOWLIST/);
    const open = { allowPrivateAddresses: false, hostAllowlist: [] };
    assert.throws(() => checkEndpoint(new URL('https://169.254.169.254/latest'), open), /not a public address/);
    assert.throws(() => checkEndpoint(new URL('https://[::ffff:7f00:1]/x'), open), /not a public address/);
    assert.doesNotThrow(() => checkEndpoint(new URL('https://127.0.0.1/x'), { ...open, allowPrivateAddresses: true }));
  });
});
