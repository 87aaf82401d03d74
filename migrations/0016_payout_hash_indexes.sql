-- The payouts' story, bot and linked-human indexes become hash indexes. Their keys reach a settlement run's
-- insert in random order (100,000 payouts: 5,000 stories, 10,000 bots and people), and a B-tree pays a
-- descent and key comparisons on text for every row of each; a hash index pays one hash and one bucket page.
-- Measured with the settlement bench on a 2-core machine: the run 3.1-3.4 s with the B-trees, 2.8 s with
-- hash indexes (B-trees on a 64-bit hash of the key and seq: 2.9-3.1 s). Every query on these columns is an
-- equality (the payout listing's filters, story and recipient freezes, the private reads); a listing filtered
-- by one of them now sorts that key's payouts by seq instead of reading them in order (docs/rewards.md,
-- "Performance"). Hash indexes are WAL-logged and crash-safe since PostgreSQL 10.
DROP INDEX payouts_story;
DROP INDEX payouts_bot;
DROP INDEX payouts_linked_human;
CREATE INDEX payouts_story ON payouts USING hash (story_id);
CREATE INDEX payouts_bot ON payouts USING hash (bot_id);
CREATE INDEX payouts_linked_human ON payouts USING hash (linked_human_id);
