-- Search in languages written without spaces (docs/newsroom-reads.md, "Chinese and Japanese"). PostgreSQL's
-- text parser splits words at spaces and punctuation, so a Chinese or Japanese sentence is one token and a word
-- inside it is never found. This vector indexes every run of Han, kana and CJK compatibility characters as its
-- overlapping bigrams (电池技术 → 电池 池技 技术) followed by the run's last character, on the 'simple'
-- configuration: a query of two characters or more needs all of its bigrams, a query of one character the
-- prefix of a token. Text without such characters adds nothing (the vector of a story in English is empty).
-- Plain SQL over built-in functions, no extension: the same on PostgreSQL and PGlite.
CREATE FUNCTION cjk_bigrams(doc text) RETURNS text
  LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
  AS $$
    SELECT coalesce(string_agg(
      CASE WHEN length(run) = 1 THEN run
           ELSE (SELECT string_agg(substr(run, i, 2), ' ' ORDER BY i) FROM generate_series(1, length(run) - 1) AS i)
                || ' ' || right(run, 1) END,
      ' ' ORDER BY n), '')
    FROM regexp_matches(doc, '[぀-ヿ㐀-䶿一-鿿豈-﫿ｦ-ﾟ]+', 'g') WITH ORDINALITY AS m(r, n),
      LATERAL (SELECT m.r[1] AS run) AS x
  $$;

ALTER TABLE stories ADD COLUMN search_vector_cjk tsvector GENERATED ALWAYS AS (
  setweight(to_tsvector('simple'::regconfig, cjk_bigrams(title)), 'A') ||
  setweight(to_tsvector('simple'::regconfig, cjk_bigrams(summary)), 'B') ||
  setweight(to_tsvector('simple'::regconfig, cjk_bigrams(claims_text)), 'B') ||
  setweight(to_tsvector('simple'::regconfig, cjk_bigrams(body)), 'C')
) STORED;
CREATE INDEX stories_search_cjk ON stories USING gin (search_vector_cjk);
ANALYZE stories;
