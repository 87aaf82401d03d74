import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { deriveReviewStatus } from '../../src/newsroom/consensus/review-status.js';
import { PARAMETER_DEFAULTS, type Parameters } from '../../src/governance/parameters/parameters.js';
import type { ReviewStatus } from '../../src/newsroom/rows.js';

const P: Parameters = { ...PARAMETER_DEFAULTS };
const FREE: ReviewStatus[] = ['EMERGING', 'CLEAR', 'CONTESTED'];
const derive = (attWeight: number, objWeight: number, current: ReviewStatus = 'EMERGING', p: Parameters = P) =>
  deriveReviewStatus(current, { attWeight, objWeight }, p);

const weight = fc.integer({ min: 0, max: 1_000 });
const params = fc
  .record({
    'consensus.minAttestations': fc.integer({ min: 1, max: 50 }),
    'consensus.minObjections': fc.integer({ min: 1, max: 50 }),
    'consensus.contestedObjectionRatio': fc.double({ min: 0.05, max: 1, noNaN: true }),
  })
  .map((p) => ({ ...P, ...p }));

describe('deriveReviewStatus (defaults: minAttestations 3, minObjections 2, contested ratio 0.4)', () => {
  test('the defaults these boundaries are written against', () => {
    assert.equal(P['consensus.minAttestations'], 3);
    assert.equal(P['consensus.minObjections'], 2);
    assert.equal(P['consensus.contestedObjectionRatio'], 0.4);
  });

  test('no weight at all is EMERGING', () => {
    assert.equal(derive(0, 0), 'EMERGING');
  });

  test('CLEAR from exactly minAttestations attestation weight, EMERGING one below', () => {
    assert.equal(derive(2, 0), 'EMERGING');
    assert.equal(derive(3, 0), 'CLEAR');
    assert.equal(derive(2.5, 0), 'EMERGING', 'fractional weight below the threshold');
    assert.equal(derive(10, 1), 'CLEAR', 'one objection (below minObjections) does not contest');
  });

  test('CONTESTED needs at least minObjections objection weight, however large its share', () => {
    assert.equal(derive(0, 1), 'EMERGING', '1 objection is 100% of the weight but below minObjections');
    assert.equal(derive(0, 2), 'CONTESTED');
    assert.equal(derive(3, 1), 'CLEAR');
  });

  test('CONTESTED from exactly the contested ratio of all weight, not below it', () => {
    // 2 of 5 = 0.4: contested; 2 of 6 = 0.33: not
    assert.equal(derive(3, 2), 'CONTESTED');
    assert.equal(derive(4, 2), 'CLEAR');
    // 4 of 10 = 0.4 exactly; 4 of 11 just below
    assert.equal(derive(6, 4), 'CONTESTED');
    assert.equal(derive(7, 4), 'CLEAR');
    assert.equal(derive(1, 2), 'CONTESTED', 'contested wins over too little attestation weight');
  });

  test('contested beats clear when both thresholds are met', () => {
    assert.equal(derive(30, 20), 'CONTESTED');
  });

  test('RETRACTED and UNDER_REVIEW are sticky whatever the weights', () => {
    for (const current of ['RETRACTED', 'UNDER_REVIEW'] as const) {
      assert.equal(derive(0, 0, current), current);
      assert.equal(derive(100, 0, current), current);
      assert.equal(derive(0, 100, current), current);
    }
  });

  test('EMERGING, CLEAR and CONTESTED are not sticky: the weights alone decide', () => {
    for (const current of FREE) {
      assert.equal(derive(0, 0, current), 'EMERGING');
      assert.equal(derive(5, 0, current), 'CLEAR');
      assert.equal(derive(0, 5, current), 'CONTESTED');
    }
  });

  test('governance parameters move the thresholds', () => {
    const strict = { ...P, 'consensus.minAttestations': 10, 'consensus.minObjections': 1, 'consensus.contestedObjectionRatio': 0.1 };
    assert.equal(derive(9, 0, 'EMERGING', strict), 'EMERGING');
    assert.equal(derive(10, 0, 'EMERGING', strict), 'CLEAR');
    assert.equal(derive(9, 1, 'EMERGING', strict), 'CONTESTED');
    assert.equal(derive(10, 1, 'EMERGING', strict), 'CLEAR', '1 of 11 is below 0.1');
  });

  test('property: never leaves RETRACTED or UNDER_REVIEW', () => {
    fc.assert(
      fc.property(fc.constantFrom<ReviewStatus>('RETRACTED', 'UNDER_REVIEW'), weight, weight, params, (current, att, obj, p) => {
        assert.equal(derive(att, obj, current, p), current);
      }),
    );
  });

  test('property: from any other status the result is EMERGING, CLEAR or CONTESTED and ignores the current status', () => {
    fc.assert(
      fc.property(fc.constantFrom(...FREE), fc.constantFrom(...FREE), weight, weight, params, (a, b, att, obj, p) => {
        const status = derive(att, obj, a, p);
        assert.ok(FREE.includes(status));
        assert.equal(derive(att, obj, b, p), status);
      }),
    );
  });

  test('property: the result agrees with the thresholds it applies', () => {
    fc.assert(
      fc.property(weight, weight, params, (att, obj, p) => {
        const status = derive(att, obj, 'EMERGING', p);
        const contested = obj >= p['consensus.minObjections'] && obj / (att + obj) >= p['consensus.contestedObjectionRatio'];
        assert.equal(status, contested ? 'CONTESTED' : att >= p['consensus.minAttestations'] ? 'CLEAR' : 'EMERGING');
      }),
    );
  });

  test('property: more attestation weight never turns CLEAR back into EMERGING or CONTESTED', () => {
    fc.assert(
      fc.property(weight, weight, fc.integer({ min: 1, max: 100 }), params, (att, obj, more, p) => {
        if (derive(att, obj, 'EMERGING', p) === 'CLEAR') assert.equal(derive(att + more, obj, 'EMERGING', p), 'CLEAR');
      }),
    );
  });
});
