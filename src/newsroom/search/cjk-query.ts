/**
 * Chinese and Japanese in a search query. Their text has no spaces, so PostgreSQL's parser would read a whole
 * run of characters as one word; stories index such runs as overlapping bigrams instead (the column
 * stories.search_vector_cjk, cjk_bigrams in migrations/0003_newsroom.sql). A query is split the same way: each run of two
 * characters or more requires all of its bigrams (`锂电池` → `'锂电' & '电池'`), a run of one character the
 * prefix of a token (`'电':*`: the character anywhere in a run, each run's last character being indexed alone
 * too). All bigrams rather than their phrase: the index answers an AND of lexemes exactly, while a phrase is
 * rechecked on every candidate's vector (read from TOAST: 460 ms instead of 70 ms for a word in 4,400 stories
 * of the bench); the rank (cover density) puts the stories where the bigrams stand together first. The rest
 * of the query is kept for the word search.
 */

/** Han (with extension A and compatibility ideographs), hiragana, katakana and half-width katakana: the characters of the database function. */
const CJK_RUN = /[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff66-\uff9f]+/gu;

export interface CjkQuery {
  /** A to_tsquery text on the 'simple' configuration (every run required), undefined without CJK characters. */
  cjk: string | undefined;
  /** The query without its CJK runs (other words, operators), trimmed; '' when nothing else was asked. */
  rest: string;
}

export function splitCjkQuery(q: string): CjkQuery {
  const runs = q.match(CJK_RUN) ?? [];
  if (runs.length === 0) return { cjk: undefined, rest: q.trim() };
  // the runs are characters of the class above only: no quote, operator or space can reach to_tsquery
  const terms = runs.map((run) => {
    const chars = [...run];
    if (chars.length === 1) return `'${run}':*`;
    return chars
      .slice(0, -1)
      .map((c, i) => `'${c}${chars[i + 1]!}'`)
      .join(' & ');
  });
  const rest = q.replace(CJK_RUN, ' ').trim();
  // what is left of `"电池"` or `-电池` is punctuation only: no words to search for
  return { cjk: terms.join(' & '), rest: /[\p{L}\p{N}]/u.test(rest) ? rest : '' };
}
