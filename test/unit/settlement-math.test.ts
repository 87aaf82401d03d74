import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { createHash } from 'node:crypto';
import { allocate } from '../../src/rewards/settlements/allocation.js';
import { computeSettlement, ROLES, type Contribution } from '../../src/rewards/settlements/compute.js';
import { toBaseUnits, toDisplay } from '../../src/rewards/money/money.js';
import { initialPayoutStatus } from '../../src/rewards/settlements/payout-status.js';
import { fuzzRuns } from '../helpers/fuzz.js';

/** Four role splits in parts per million summing to exactly 1 000 000. */
const splits = fc
  .tuple(fc.nat(1_000_000), fc.nat(1_000_000), fc.nat(1_000_000))
  .map(([a, b, c]) => [a, b, c].sort((x, y) => x - y))
  .map(([a, b, c]) => ({ WRITER: a!, FACT_CHECK: b! - a!, RISK: c! - b!, SOURCE_DIVERSITY: 1_000_000 - c! }));

const contribution = fc.record({
  storyId: fc.constantFrom('st_a', 'st_b', 'st_c'),
  role: fc.constantFrom(...ROLES),
  beneficiaryKind: fc.constantFrom('BOT' as const, 'HUMAN' as const),
  beneficiaryId: fc.string({ minLength: 1, maxLength: 6 }),
  weight: fc.bigInt({ min: 1n, max: 10n ** 30n }).map(String),
});
const uniqueContributions = fc.uniqueArray(contribution, {
  maxLength: 60,
  selector: (c) => `${c.storyId}|${c.role}|${c.beneficiaryKind}|${c.beneficiaryId}`,
});

describe('settlement math', () => {
  test('payouts plus escrow equal the pool to the base unit; no amount is negative', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 1n, max: 10n ** 40n }),
        fc.nat(1_000_000),
        splits,
        uniqueContributions,
        fc.string({ minLength: 1, maxLength: 8 }),
        (pool, escrowPpm, splitsPpm, contributions, seed) => {
          const result = computeSettlement({ poolBase: pool.toString(), escrowPpm, splitsPpm, seed, contributions });
          const paid = result.amounts.reduce((a, b) => a + b, 0n);
          assert.equal(paid + result.escrowBase, pool);
          assert.ok(result.escrowBase >= 0n);
          for (const a of result.amounts) assert.ok(a >= 0n);
          for (const role of ROLES) {
            const r = result.roles[role];
            const roleSum = result.amounts.filter((_, i) => contributions[i]!.role === role).reduce((a, b) => a + b, 0n);
            assert.equal(roleSum, r.paidBase);
          }
        },
      ),
      { numRuns: fuzzRuns(2000) },
    );
  });

  test('each share is its exact proportional share rounded down or up, never further off', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: 10n ** 30n }),
        fc.array(fc.bigInt({ min: 0n, max: 10n ** 12n }), { minLength: 1, maxLength: 50 }),
        (total, weights) => {
          const keys = weights.map((_, i) => `k${i}`);
          const shares = allocate(total, weights, keys, 'seed');
          const sum = weights.reduce((a, b) => a + b, 0n);
          if (sum === 0n) return assert.ok(shares.every((s) => s === 0n));
          assert.equal(
            shares.reduce((a, b) => a + b, 0n),
            total,
          );
          shares.forEach((s, i) => {
            const floor = (total * weights[i]!) / sum;
            assert.ok(s === floor || s === floor + 1n, `share ${s} vs floor ${floor}`);
          });
        },
      ),
      { numRuns: fuzzRuns(2000) },
    );
  });

  test('rounding favours no one systematically: tied leftover units spread evenly across settlements', () => {
    // 7 equal contributors share 10 units: 3 leftover units per settlement go to tied remainders.
    const wins = new Array<number>(7).fill(0);
    const settlements = 7000;
    for (let s = 0; s < settlements; s++) {
      const shares = allocate(
        10n,
        new Array(7).fill(1n),
        wins.map((_, i) => `bot_${i}`),
        `settlement-${s}`,
      );
      shares.forEach((share, i) => (wins[i]! += Number(share - 1n)));
    }
    // each expects 3000 extra units (3/7 of 7000); a systematic favourite would be far off
    for (const w of wins) assert.ok(Math.abs(w - 3000) < 200, `extra units ${wins.join(',')}`);
    // and the order in which contributors are listed does not matter
    const forward = allocate(10n, [1n, 1n, 1n], ['a', 'b', 'c'], 'x');
    const backward = allocate(10n, [1n, 1n, 1n], ['c', 'b', 'a'], 'x');
    assert.deepEqual(forward, [...backward].reverse());
  });

  test('division by weight classes finds the same leftover winners as sorting every remainder (many ties included)', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 1n, max: 10n ** 24n }),
        // few distinct weights: equal remainders, as in a real settlement where many contributions weigh alike
        fc.array(fc.constantFrom(0n, 1n, 2n, 3n, 7n, 10n ** 9n + 7n), { minLength: 1, maxLength: 300 }),
        fc.string({ maxLength: 8 }),
        (total, weights, seed) => {
          const keys = weights.map((_, i) => `bot_${(i * 7919) % 1000}_${i}`);
          assert.deepEqual(
            allocate(total, weights, (i) => keys[i]!, seed),
            allocateBySorting(total, weights, keys, seed),
          );
        },
      ),
      { numRuns: fuzzRuns(1000) },
    );
    // small pools over odd weights: different weights often leave equal remainders (1 and 3 of 2 over 4 both leave 2)
    fc.assert(
      fc.property(
        fc.bigInt({ min: 1n, max: 60n }),
        fc.array(fc.constantFrom(1n, 3n, 5n, 9n), { minLength: 1, maxLength: 40 }),
        fc.string({ maxLength: 8 }),
        (total, weights, seed) => {
          const keys = weights.map((_, i) => `k${i}`);
          assert.deepEqual(allocate(total, weights, keys, seed), allocateBySorting(total, weights, keys, seed));
        },
      ),
      { numRuns: fuzzRuns(1000) },
    );
    // repeated keys: equal ranks go in the order of the items, as the stable sort takes them
    fc.assert(
      fc.property(
        fc.bigInt({ min: 1n, max: 200n }),
        fc.array(fc.constantFrom(1n, 2n, 3n), { minLength: 1, maxLength: 60 }),
        fc.string({ maxLength: 8 }),
        (total, weights, seed) => {
          const keys = weights.map((_, i) => `k${i % 4}`);
          assert.deepEqual(allocate(total, weights, keys, seed), allocateBySorting(total, weights, keys, seed));
        },
      ),
      { numRuns: fuzzRuns(1000) },
    );
  });

  test('a role without contributors falls back to escrow', () => {
    const contributions: Contribution[] = [{ storyId: 's', role: 'WRITER', beneficiaryKind: 'BOT', beneficiaryId: 'b', weight: '1' }];
    const result = computeSettlement({
      poolBase: '1000',
      escrowPpm: 100_000,
      splitsPpm: { WRITER: 500_000, FACT_CHECK: 250_000, RISK: 150_000, SOURCE_DIVERSITY: 100_000 },
      seed: 'x',
      contributions,
    });
    assert.deepEqual(result.amounts, [450n]);
    assert.equal(result.escrowBase, 550n);
  });

  test('a contribution of a role no split names shares in nothing, and the roles around it divide as before', () => {
    // published inputs come back from storage and files: a role none pays must neither take a share nor shift others
    const known: Contribution[] = [
      { storyId: 's', role: 'WRITER', beneficiaryKind: 'BOT', beneficiaryId: 'a', weight: '1' },
      { storyId: 's', role: 'FACT_CHECK', beneficiaryKind: 'BOT', beneficiaryId: 'b', weight: '3' },
      { storyId: 's', role: 'FACT_CHECK', beneficiaryKind: 'BOT', beneficiaryId: 'c', weight: '1' },
    ];
    const stranger = { storyId: 's', role: 'EDITOR', beneficiaryKind: 'BOT', beneficiaryId: 'd', weight: '5' } as unknown as Contribution;
    const inputs = (contributions: Contribution[]) => ({
      poolBase: '1001',
      escrowPpm: 100_000,
      splitsPpm: { WRITER: 500_000, FACT_CHECK: 250_000, RISK: 150_000, SOURCE_DIVERSITY: 100_000 },
      seed: 'x',
      contributions,
    });
    const without = computeSettlement(inputs(known));
    const withIt = computeSettlement(inputs([known[0]!, stranger, known[1]!, known[2]!]));
    assert.deepEqual(withIt.amounts, [without.amounts[0], 0n, without.amounts[1], without.amounts[2]]);
    assert.equal(withIt.escrowBase, without.escrowBase);
    assert.equal(withIt.amounts.reduce((a, b) => a + b, 0n) + withIt.escrowBase, 1001n);
  });

  test('frozen is never payable, whatever else holds', () => {
    fc.assert(
      fc.property(fc.boolean(), fc.boolean(), fc.boolean(), fc.boolean(), (storyFrozen, recipientFrozen, heldForReview, walletVerified) => {
        const { status } = initialPayoutStatus({ storyFrozen, recipientFrozen, heldForReview, walletVerified });
        if (storyFrozen || recipientFrozen) assert.equal(status, 'FROZEN');
        if (status === 'PAYABLE') assert.ok(walletVerified && !storyFrozen && !recipientFrozen && !heldForReview);
      }),
    );
  });

  test('display units convert to base units exactly', () => {
    assert.equal(toBaseUnits('12.5', 18), 12_500_000_000_000_000_000n);
    assert.equal(toBaseUnits('0.01', 2), 1n);
    assert.equal(toBaseUnits('0.001', 2), null);
    assert.equal(toBaseUnits('1e-7', 18), 100_000_000_000n);
    assert.equal(toBaseUnits('1.5e+21', 0), 1_500_000_000_000_000_000_000n);
    assert.equal(toBaseUnits('-1', 18), null);
    assert.equal(toDisplay(12_500_000_000_000_000_000n, 18), '12.5');
    assert.equal(toDisplay(1n, 18), '0.000000000000000001');
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 10n ** 40n }), fc.integer({ min: 0, max: 36 }), (base, decimals) => {
        assert.equal(toBaseUnits(toDisplay(base, decimals), decimals), base);
      }),
      { numRuns: fuzzRuns(1000) },
    );
  });

  test('a decimal with up to 18 decimals is its exact base units; one more non-zero digit is refused', () => {
    assert.equal(toBaseUnits('1000.000000000000000007', 18), 1_000_000_000_000_000_000_007n);
    assert.equal(toBaseUnits('1000.0000000000000000007', 18), null);
    assert.equal(toBaseUnits('1000.50000000000000000000', 18), 1_000_500_000_000_000_000_000n);
    assert.equal(toBaseUnits(' 12', 18), null);
    assert.equal(toBaseUnits(`1${'0'.repeat(100)}`, 18), null);
    const digits = (min: number, max: number) =>
      fc.array(fc.integer({ min: 0, max: 9 }), { minLength: min, maxLength: max }).map((d) => d.join(''));
    fc.assert(
      fc.property(digits(1, 40), digits(0, 18), fc.integer({ min: 1, max: 9 }), digits(0, 5), (whole, fraction, last, extra) => {
        // whole.fraction: exactly whole × 10^18 + fraction padded to 18 digits
        const text = fraction ? `${whole}.${fraction}` : whole;
        assert.equal(toBaseUnits(text, 18), BigInt(whole) * 10n ** 18n + BigInt(fraction.padEnd(18, '0')));
        // a non-zero digit at the 19th decimal or beyond: not a whole number of base units
        assert.equal(toBaseUnits(`${whole}.${fraction.padEnd(18, '0')}${extra}${last}`, 18), null);
      }),
      { numRuns: fuzzRuns(1000) },
    );
  });
});

/** The earlier division (a full sort of the remainders, a map of hash ranks): the reference the selection must match. */
function allocateBySorting(total: bigint, weights: readonly bigint[], keys: readonly string[], seed: string): bigint[] {
  const sum = weights.reduce((a, w) => a + w, 0n);
  if (sum === 0n || total === 0n) return weights.map(() => 0n);
  const shares = weights.map((w) => (total * w) / sum);
  const remainders = weights.map((w) => (total * w) % sum);
  let left = Number(total - shares.reduce((a, b) => a + b, 0n));
  if (left === 0) return shares;
  const order = [...weights.keys()].filter((i) => remainders[i]! > 0n);
  order.sort((a, b) => (remainders[a]! === remainders[b]! ? 0 : remainders[a]! > remainders[b]! ? -1 : 1));
  const threshold = remainders[order[left - 1]!]!;
  const above = order.filter((i) => remainders[i]! > threshold);
  const tied = order.filter((i) => remainders[i]! === threshold);
  for (const i of above) shares[i] = shares[i]! + 1n;
  left -= above.length;
  const rank = (i: number) => createHash('sha256').update(seed).update('|').update(keys[i]!).digest('hex');
  tied.sort((a, b) => (rank(a) < rank(b) ? -1 : rank(a) > rank(b) ? 1 : 0));
  for (const i of tied.slice(0, left)) shares[i] = shares[i]! + 1n;
  return shares;
}
