-- A settlement reads each eligible story's work units through indexes, the upheld objections among them. Through the
-- reviews' story index that read fetches every review of the story (its attestations too) and filters them: about a
-- million buffer reads more per run of 50,000 stories than the attestations' own read. A partial index holds only
-- the objections, by story, so the settlement finds a story's objections without touching its attestations.
CREATE INDEX agent_reviews_objections_story ON agent_reviews (story_id) WHERE kind = 'OBJECTION';
