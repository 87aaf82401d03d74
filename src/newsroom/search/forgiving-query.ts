/**
 * What makes search forgive: the last word read as a prefix while the reader is still typing ("librar" finds
 * "library"), and a query whose words are found nowhere corrected word by word to the nearest title words
 * ("libary" → "library"; the words come from search_words, see repository.nearestWords).
 */

/** A plain word: letters, marks and digits only (no operator, quote or dash of web-search syntax). */
const PLAIN_WORD = /^[\p{L}\p{M}\p{N}]+$/u;

/** The shortest last word read as a prefix: a shorter one would match too many words to be of use. */
const MIN_PREFIX = 3;

export interface PrefixTerm {
  /** The query before its last word, for websearch_to_tsquery ('' when the word was all). */
  head: string;
  /** The last word as a to_tsquery prefix term, `'word':*` (plain word: nothing to escape). */
  term: string;
}

/**
 * The last word of `q` as a prefix, when it is a plain word of at least MIN_PREFIX characters and the query
 * has no quoted phrase or OR (whose meaning a prefix would change); undefined otherwise. A negated last word
 * (`-word`) is not plain and stays exact.
 */
export function prefixTerm(q: string): PrefixTerm | undefined {
  const tokens = q.trim().split(/\s+/u);
  const last = tokens.at(-1) ?? '';
  if ([...last].length < MIN_PREFIX || !PLAIN_WORD.test(last)) return undefined;
  if (q.includes('"') || tokens.some((token) => token.toLowerCase() === 'or')) return undefined;
  return { head: tokens.slice(0, -1).join(' '), term: `'${last.toLowerCase()}':*` };
}

/** Words worth correcting: plain words of 3 to 40 letters (what search_words holds), lowercased, in order. */
export function correctableWords(q: string): string[] {
  return q
    .trim()
    .split(/\s+/u)
    .map((token) => token.toLowerCase())
    .filter((token) => /^[\p{L}\p{M}]{3,40}$/u.test(token));
}

/**
 * `q` with each unknown word replaced by its nearest known word (`nearest`: word → the nearest title word, or
 * null when the word is known or nothing is near). Undefined when nothing changed. Other tokens (operators,
 * quoted words, numbers) are kept as written.
 */
export function correctedQuery(q: string, nearest: ReadonlyMap<string, string | null>): string | undefined {
  let changed = false;
  const tokens = q
    .trim()
    .split(/\s+/u)
    .map((token) => {
      const better = nearest.get(token.toLowerCase());
      if (!better || better === token.toLowerCase()) return token;
      changed = true;
      return better;
    });
  return changed ? tokens.join(' ') : undefined;
}
