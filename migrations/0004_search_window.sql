-- Search ranks a bounded window of matches (docs/newsroom-reads.md, "Search"): every candidate of the window
-- is tested and ranked on its vectors, so their size is the cost of a search. The unstemmed vector keeps the
-- words of the title, summary and claims only (a few hundred bytes, stored in the row): it still finds a
-- headline word across languages, while body words are found through the stemmed vector of the story's own
-- language (which, for zh-Hans, is the 'simple' configuration anyway).
DROP INDEX stories_search_simple;
ALTER TABLE stories DROP COLUMN search_vector_simple;
ALTER TABLE stories ADD COLUMN search_vector_simple tsvector GENERATED ALWAYS AS (
  setweight(to_tsvector('simple'::regconfig, title), 'A') ||
  setweight(to_tsvector('simple'::regconfig, summary), 'B') ||
  setweight(to_tsvector('simple'::regconfig, claims_text), 'B')
) STORED;
CREATE INDEX stories_search_simple ON stories USING gin (search_vector_simple);
-- Statistics of the new column now, not at the next autovacuum: the planner chooses between scanning the recent
-- order and the text indexes from how often the query's words occur.
ANALYZE stories;
