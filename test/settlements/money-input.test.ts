import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { humanSigningString, newNonce } from '../../sdk/index.js';
import { TEST_SECRET } from '../helpers/app.js';
import { closedStory, rewardRowCounts, rewardsApp, type RewardsApp } from './support.js';
import type { Json } from '../helpers/json.js';

/**
 * Amounts and rates are read from their own digits, never through a double (docs/rewards.md "Money input"):
 * a JSON number as sent, a decimal string, or the query text; and a query number is decimal digits only.
 */

const RUN = '/v1/rewards/settlements/run';
const PREVIEW = '/v1/rewards/settlements/preview';
const POLICY = '/v1/rewards/policy';
const TREASURER = '"actorId":"treasurer","linkedHumanId":"h_treasurer"';

/**
 * Sends `text` as the body of a treasurer's signed POST, signed over `canonical` (by default the text itself,
 * written in canonical form: keys sorted, no spaces), as a client that writes its own JSON would.
 */
async function rawPost(r: RewardsApp, path: string, text: string, canonical = text): Promise<{ status: number; body: Json }> {
  const timestamp = String(Date.now());
  const nonce = newNonce();
  const signature = createHmac('sha256', TEST_SECRET)
    .update(humanSigningString(timestamp, nonce, 'POST', path, canonical))
    .digest('hex');
  const res = await r.t.app.inject({
    method: 'POST',
    url: path,
    headers: { 'content-type': 'application/json', 'x-timestamp': timestamp, 'x-nonce': nonce, 'x-signature': signature },
    payload: text,
  });
  return { status: res.statusCode, body: res.json() as Json };
}

const runBody = (pool: string) => `{${TREASURER},"totalPoolOrbs":${pool},"verified":true}`;

function assertRefused(res: { status: number; body: Json }, path: string, what: string): void {
  assert.equal(res.status, 400, `${what}: ${JSON.stringify(res.body)}`);
  assert.equal(res.body.code, 'VALIDATION_FAILED', what);
  assert.ok(
    (res.body.details as Json[]).some((d) => d.path === path),
    `${what}: details name ${path}: ${JSON.stringify(res.body.details)}`,
  );
}

describe('the settlement pool is read from its digits', () => {
  let r: RewardsApp;
  before(async () => (r = await rewardsApp()));
  after(async () => r.t.close());

  test('a JSON number is settled as written: 1000.000000000000000007 is not the double 1000', async () => {
    await closedStory(r);
    const res = await rawPost(r, RUN, runBody('1000.000000000000000007'));
    assert.equal(res.status, 202, JSON.stringify(res.body));
    assert.equal(res.body.pool.base, '1000000000000000000007');
    assert.equal(res.body.pool.display, '1000.000000000000000007');
    assert.equal(BigInt(res.body.paid.base) + BigInt(res.body.escrow.base), 1000000000000000000007n);
  });

  test('a JSON number finer than one base unit is refused, not rounded', async () => {
    await closedStory(r);
    const settled = (await rewardRowCounts(r.db)).settlements;
    assertRefused(await rawPost(r, RUN, runBody('1000.0000000000000000007')), '/totalPoolOrbs', '19 decimals');
    // 1e-19 as a double is written back as 1e-19, the same decimal: signed as JavaScript writes it
    assertRefused(await rawPost(r, RUN, runBody('0.0000000000000000001'), runBody('1e-19')), '/totalPoolOrbs', '1e-19');
    assert.equal((await rewardRowCounts(r.db)).settlements, settled);
  });

  test('the signature covers the digits: one over the double they round to does not verify', async () => {
    const rounded = await rawPost(r, RUN, runBody('1000.000000000000000001'), runBody('1000'));
    assert.equal(rounded.status, 401, JSON.stringify(rounded.body));
    assert.equal(rounded.body.code, 'SIGNATURE_INVALID');
  });

  test('the SDK signs a decimal string, an exact JSON number and a bigint, and each settles exactly', async () => {
    for (const [totalPoolOrbs, base] of [
      ['1000.5', '1000500000000000000000'],
      [1000.5, '1000500000000000000000'],
      [0.03, '30000000000000000'],
      [12345678901234567890n, '12345678901234567890000000000000000000'],
      ['12345678901234567890.123456789012345678', '12345678901234567890123456789012345678'],
    ] as const) {
      await closedStory(r);
      const res = await r.post('treasurer', RUN, { totalPoolOrbs });
      assert.equal(res.status, 202, `${String(totalPoolOrbs)}: ${JSON.stringify(res.body)}`);
      assert.equal(res.body.pool.base, base, String(totalPoolOrbs));
    }
  });

  test('a decimal string is plain decimal digits: no exponent, sign, spaces or excess decimals', async () => {
    await closedStory(r);
    const settled = (await rewardRowCounts(r.db)).settlements;
    for (const totalPoolOrbs of [
      '1e3',
      ' 1',
      '1 ',
      '+1',
      '-1',
      '0x10',
      'Infinity',
      '',
      '.5',
      '1.',
      '1,5',
      '1.0000000000000000001',
      '0.001',
      '0',
    ]) {
      assertRefused(await r.post('treasurer', RUN, { totalPoolOrbs }), '/totalPoolOrbs', JSON.stringify(totalPoolOrbs));
    }
    for (const pool of ['1e400', '-5', '1e-400', '123456789012345678901234567890123456789012345678901234567890']) {
      assertRefused(await rawPost(r, RUN, runBody(pool)), '/totalPoolOrbs', pool);
    }
    assert.equal((await rewardRowCounts(r.db)).settlements, settled);
  });

  test('the preview reads the query text: 12345678901234567890.123456789 exactly', async () => {
    await closedStory(r);
    const res = await r.get('treasurer', PREVIEW, { totalPoolOrbs: '12345678901234567890.123456789' });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.pool.display, '12345678901234567890.123456789');
    assert.equal(res.body.pool.base, '12345678901234567890123456789000000000');
    assertRefused(
      await r.get('treasurer', PREVIEW, { totalPoolOrbs: '1.0000000000000000001' }),
      '/querystring/totalPoolOrbs',
      '19 decimals',
    );
  });

  test('query numbers are decimal digits only (0x10 is not 16), on every parameter', async () => {
    for (const text of ['0x10', '1e3', ' 12', '12 ', 'Infinity', '-Infinity', 'NaN', '0b1', '0o7', '+5', '.5', '5.', '1_000']) {
      assertRefused(await r.get('treasurer', PREVIEW, { totalPoolOrbs: text }), '/querystring/totalPoolOrbs', JSON.stringify(text));
    }
    for (const text of ['0x10', '1e1', '+5', '5.0', ' 5']) {
      assertRefused(await r.get('treasurer', '/v1/rewards/settlements', { limit: text }), '/querystring/limit', JSON.stringify(text));
      assertRefused(await r.get('treasurer', '/v1/rewards/payouts', { limit: text }), '/querystring/limit', JSON.stringify(text));
    }
    assert.equal((await r.get('treasurer', '/v1/rewards/settlements', { limit: '5' })).status, 200);
  });
});

describe('the rewards policy rates are read from their digits', () => {
  let r: RewardsApp;
  before(async () => (r = await rewardsApp()));
  after(async () => r.t.close());

  test('rates as decimal strings or JSON numbers; one with more than 6 decimals is refused, not rounded', async () => {
    const asText = await r.post('treasurer', POLICY, {
      escrowRate: '0.15',
      roleSplits: { WRITER: '0.1', FACT_CHECK: '0.2', RISK: '0.3', SOURCE_DIVERSITY: '0.4' },
    });
    assert.equal(asText.status, 202, JSON.stringify(asText.body));
    assert.equal(asText.body.escrowRatePpm, 150000);
    assert.deepEqual(asText.body.roleSplitsPpm, { WRITER: 100000, FACT_CHECK: 200000, RISK: 300000, SOURCE_DIVERSITY: 400000 });
    // a double reads 0.1000000000000000001 as 0.1
    const policy = (escrow: string) => `{"actorId":"treasurer","escrowRate":${escrow},"linkedHumanId":"h_treasurer","verified":true}`;
    assertRefused(await rawPost(r, POLICY, policy('0.1000000000000000001')), '/escrowRate', 'escrow 0.1000000000000000001');
    assertRefused(await rawPost(r, POLICY, policy('"0.1000001"')), '/escrowRate', 'escrow "0.1000001"');
    assertRefused(await rawPost(r, POLICY, policy('"1.000001"')), '/escrowRate', 'escrow "1.000001"');
    const splits = `{${TREASURER},"roleSplits":{"FACT_CHECK":0.25,"RISK":0.15,"SOURCE_DIVERSITY":0.1,"WRITER":0.50000000000000000001},"verified":true}`;
    assertRefused(await rawPost(r, POLICY, splits), '/roleSplits/WRITER', 'WRITER 0.50000000000000000001');
    const current = await r.t.app.inject({ method: 'GET', url: POLICY });
    assert.equal((current.json() as Json).escrowRatePpm, 150000);
    // a number its double writes back is signed as JavaScript writes it
    const exact = await rawPost(r, POLICY, policy('0.125000'), policy('0.125'));
    assert.equal(exact.status, 202, JSON.stringify(exact.body));
    assert.equal(exact.body.escrowRatePpm, 125000);
  });
});
