import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { boundedNegations } from '../../src/newsroom/search/negations.js';
import { fuzzRuns } from '../helpers/fuzz.js';

/** The longest run of dashes with only spaces and operators between them that starts outside a word. */
function longestChain(q: string): number {
  let longest = 0;
  for (const m of q.matchAll(/(?<![\p{L}\p{N}\p{M}-])-(?:[^\p{L}\p{N}\p{M}"-]*-)*/gu))
    longest = Math.max(longest, m[0].split('-').length - 1);
  return longest;
}

const queryText = fc.string({
  unit: fc.constantFrom('-', ' ', '!', '(', ')', '&', '|', '<', '"', ',', '\\', '\u3000', 'a', 'or', 'é', '选', '\u0301'),
  maxLength: 200,
});

describe('chains of negations in a web-search query', () => {
  test('three or more are shortened to the same parity; words, short chains and the rest are left as they are', () => {
    const cases: [string, string][] = [
      ['election -council', 'election -council'],
      ['election --council', 'election --council'],
      ['election ---council', 'election -council'],
      ['election ----council', 'election --council'],
      ['- - - - - x', '- x'],
      ['-!-(-)-x', '--x'],
      ['well-known fact', 'well-known fact'],
      ['x---- y', 'x---- y'],
      ['a ---b ----c', 'a -b --c'],
      ['"a --- b"', '"a - b"'],
      ['-'.repeat(500), '--'],
      [`${'-'.repeat(499)}x`, '-x'],
    ];
    for (const [q, expected] of cases) assert.equal(boundedNegations(q), expected, q);
  });

  test('no chain longer than two is left, and a text without one is unchanged', () => {
    fc.assert(
      fc.property(queryText, (q) => {
        const bounded = boundedNegations(q);
        assert.ok(longestChain(bounded) <= 2, JSON.stringify(bounded));
        if (longestChain(q) <= 2) assert.equal(bounded, q);
        assert.equal(boundedNegations(bounded), bounded);
      }),
      { numRuns: fuzzRuns(5000, 500) },
    );
  });
});
