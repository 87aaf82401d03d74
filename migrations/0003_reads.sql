-- Public newsroom reads: search on the 'simple' configuration and the indexes that keep every listing a
-- bounded index scan at any page depth (keyset pagination, see docs/newsroom-reads.md).

-- stories.search_vector stems with the story's own language; this one keeps words as written (lowercased),
-- so a query in another language, or in a language without a stemmer (zh-Hans), still finds exact words.
ALTER TABLE stories ADD COLUMN search_vector_simple tsvector GENERATED ALWAYS AS (
  setweight(to_tsvector('simple'::regconfig, title), 'A') ||
  setweight(to_tsvector('simple'::regconfig, summary), 'B') ||
  setweight(to_tsvector('simple'::regconfig, claims_text), 'B') ||
  setweight(to_tsvector('simple'::regconfig, body), 'C')
) STORED;
CREATE INDEX stories_search_simple ON stories USING gin (search_vector_simple);

-- Feed modes filtered by room (the predicates repeat the feed's own conditions literally).
CREATE INDEX stories_room_trending ON stories (room, trending_score DESC, id DESC)
  WHERE publication_stage <> 'CANDIDATE' AND review_status <> 'RETRACTED';
CREATE INDEX stories_room_recent ON stories (room, published_at DESC, id DESC) WHERE publication_stage <> 'CANDIDATE';

-- Search with publicationStage=CANDIDATE orders candidates by submission time.
CREATE INDEX stories_candidates_created ON stories (created_at DESC, id DESC) WHERE publication_stage = 'CANDIDATE';

-- Reward-window module: stories whose window is still open, closing soonest first.
CREATE INDEX stories_reward_window ON stories (reward_window_ends_at, id) WHERE publication_stage <> 'CANDIDATE';

-- Weekly bot rankings: accepted proposals by resolution time (reviews use agent_reviews_bot_time).
CREATE INDEX revision_proposals_accepted ON revision_proposals (resolved_at) WHERE status = 'ACCEPTED';
CREATE INDEX stories_graduated_window ON stories (graduated_at) WHERE graduated_at IS NOT NULL;
CREATE INDEX stories_retracted ON stories (author_bot_id) WHERE review_status = 'RETRACTED';
