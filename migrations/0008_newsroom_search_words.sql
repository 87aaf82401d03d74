-- Search that forgives a typo (docs/newsroom-reads.md, "Did you mean"): the words of published stories' titles,
-- per story language, with a trigram index, so that a query word found nowhere is matched to the nearest title
-- word ("libary" → "library") in a few index probes. pg_trgm is a trusted extension: the database's owner (the
-- migration role) may create it without being a superuser; PGlite loads it as a contrib extension.
CREATE EXTENSION IF NOT EXISTS pg_trgm;

-- Words are added, never changed or removed: a word whose stories were all hidden stays, but a suggestion is only
-- offered after the suggested query found a visible story, so the table never shows a hidden title by itself.
CREATE TABLE search_words (
  word text NOT NULL,
  lang text NOT NULL,
  PRIMARY KEY (word, lang)
);
CREATE INDEX search_words_trgm ON search_words USING gin (word gin_trgm_ops);
GRANT SELECT, INSERT ON search_words TO newsroom_runtime;

-- The words of a title as the 'simple' configuration reads them (lowercased), of 3 to 40 characters, without
-- numbers, hosts, addresses or Chinese and Japanese runs (those are searched by bigrams, not by spelling).
CREATE FUNCTION title_words(title text) RETURNS SETOF text
  LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
  AS $$
    SELECT w FROM unnest(tsvector_to_array(to_tsvector('simple'::regconfig, title))) AS w
    WHERE length(w) BETWEEN 3 AND 40 AND w !~ '[0-9./@:_''-]' AND w !~ '[぀-ヿ㐀-䶿一-鿿豈-﫿ｦ-ﾟ]'
  $$;

-- Kept on publish: a story that is not a candidate adds its title's new words. Words already known are skipped
-- before any insert (no lock on them), and new ones are inserted in order, so concurrent publications take the
-- rows' locks in one order.
CREATE FUNCTION stories_search_words() RETURNS trigger
  LANGUAGE plpgsql
  AS $$
  BEGIN
    INSERT INTO search_words (word, lang)
      SELECT w, NEW.lang FROM title_words(NEW.title) AS w
      WHERE NOT EXISTS (SELECT FROM search_words s WHERE s.word = w AND s.lang = NEW.lang)
      ORDER BY w
      ON CONFLICT DO NOTHING;
    RETURN NULL;
  END
  $$;

CREATE TRIGGER stories_search_words
  AFTER INSERT OR UPDATE OF title, lang, publication_stage ON stories
  FOR EACH ROW WHEN (NEW.publication_stage <> 'CANDIDATE')
  EXECUTE FUNCTION stories_search_words();

-- The words of the stories published so far. The trigger above already holds its lock on stories (no story is
-- written until this commits), so no publication falls between the two; titles are short and few words per title
-- are new, so this reads the stories once and writes a table of the languages' vocabulary.
INSERT INTO search_words (word, lang)
  SELECT DISTINCT w, s.lang FROM stories s, title_words(s.title) AS w WHERE s.publication_stage <> 'CANDIDATE'
  ON CONFLICT DO NOTHING;
