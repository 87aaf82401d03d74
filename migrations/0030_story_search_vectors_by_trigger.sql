-- A story's three search vectors are kept by a trigger that runs when its text changes, no longer as stored
-- generated columns. PostgreSQL computes every stored generated column again on each UPDATE of the row, whatever
-- the UPDATE sets: a comment's count, a review's consensus, a vote's trending score each parsed the whole title,
-- summary, claims and body three times (two text parsers and the CJK bigrams), and wrote three new vectors. An
-- update of a story's comment count took a median 1.6-2.4 ms of the database that way, 0.33-0.43 ms without it
-- (docs/performance.md, "Story updates and the search vectors").
--
-- The guarantee stays: a vector always equals its expression of the row's current text. The trigger runs on every
-- insert and on every update that sets the text, the language or a vector itself; an update that sets none of
-- them keeps the vectors the row has, which are that expression of the text it keeps. The expressions are those of
-- 0002 (search_vector), 0004 (search_vector_simple) and 0022 (search_vector_cjk), unchanged. DROP EXPRESSION keeps
-- every vector stored so far and rewrites nothing.
ALTER TABLE stories
  ALTER COLUMN search_vector DROP EXPRESSION,
  ALTER COLUMN search_vector_simple DROP EXPRESSION,
  ALTER COLUMN search_vector_cjk DROP EXPRESSION;

CREATE FUNCTION stories_search_vectors() RETURNS trigger
  LANGUAGE plpgsql
  AS $$
  BEGIN
    NEW.search_vector :=
      setweight(to_tsvector(lang_regconfig(NEW.lang), NEW.title), 'A') ||
      setweight(to_tsvector(lang_regconfig(NEW.lang), NEW.summary), 'B') ||
      setweight(to_tsvector(lang_regconfig(NEW.lang), NEW.claims_text), 'B') ||
      setweight(to_tsvector(lang_regconfig(NEW.lang), NEW.body), 'C');
    NEW.search_vector_simple :=
      setweight(to_tsvector('simple'::regconfig, NEW.title), 'A') ||
      setweight(to_tsvector('simple'::regconfig, NEW.summary), 'B') ||
      setweight(to_tsvector('simple'::regconfig, NEW.claims_text), 'B');
    NEW.search_vector_cjk :=
      setweight(to_tsvector('simple'::regconfig, cjk_bigrams(NEW.title)), 'A') ||
      setweight(to_tsvector('simple'::regconfig, cjk_bigrams(NEW.summary)), 'B') ||
      setweight(to_tsvector('simple'::regconfig, cjk_bigrams(NEW.claims_text)), 'B') ||
      setweight(to_tsvector('simple'::regconfig, cjk_bigrams(NEW.body)), 'C');
    RETURN NEW;
  END
  $$;

CREATE TRIGGER stories_search_vectors
  BEFORE INSERT OR UPDATE OF lang, title, summary, claims_text, body, search_vector, search_vector_simple, search_vector_cjk
  ON stories
  FOR EACH ROW EXECUTE FUNCTION stories_search_vectors();
