-- The payouts' story index is a B-tree again (0016 made it a hash index with the bot and linked-human ones).
-- A run inserts its payouts grouped by story, so each story's keys arrive together: a B-tree appends them to
-- one leaf as one deduplicated posting list, where the hash index paid a bucket page, and the bucket splits
-- of a growing index, for every row. Measured on the 2-core machine with COPY of 100,000 payouts into a copy
-- of the table: 874-896 ms with this B-tree, 913-961 ms with the hash index. The bot and linked-human keys
-- reach the insert in no order and stay hash indexes.
DROP INDEX payouts_story;
CREATE INDEX payouts_story ON payouts (story_id);
