/**
 * websearch_to_tsquery reads each `-` where it expects a word as a NOT of what follows, and skips spaces and
 * other operators (`! & | ( ) <`) there: `- - - word` is NOT NOT NOT word. Its parser keeps such a chain on a
 * stack of 32 operators and fails the whole statement past that ("tsquery stack too small"), so a query of a
 * few dozen dashes was a 500. A chain of three or more is shortened to the same parity (one dash, or two):
 * the same query, never deeper than two.
 */

/**
 * A chain of dashes outside a word: a dash not preceded by a letter, digit, mark or dash (inside a word,
 * `well-known` or `x--`, a dash is part of it), then more dashes with anything but words and quotes between them (what the parser
 * skips or reads as an empty word). Deliberately wider than the parser's own rules, so that whatever it treats
 * as a separator is inside a chain; in a quoted phrase, where dashes are text, a chain separates the same words.
 */
const CHAIN = /(?<![\p{L}\p{N}\p{M}-])-(?:[^\p{L}\p{N}\p{M}"-]*-)+/gu;

/** `q` with every chain of three or more negations shortened to one or two. */
export function boundedNegations(q: string): string {
  return q.replace(CHAIN, (chain) => {
    const dashes = chain.split('-').length - 1;
    return dashes <= 2 ? chain : dashes % 2 === 1 ? '-' : '--';
  });
}
