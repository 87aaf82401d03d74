-- Notifications (docs/site.md, "Notifications"): what happened around a reader is read from the records themselves
-- (replies to their comments, corrections and retractions of stories they saved, commented on or flagged); this
-- table keeps, per reader, when they last looked, and the private token of their Atom feed of them.
CREATE TABLE reader_notifications (
  actor_id    text PRIMARY KEY,
  seen_at     timestamptz,
  -- the Atom feed's secret address: random, replaced on request (the old address stops working)
  feed_token  text UNIQUE,
  updated_at  timestamptz NOT NULL
);

-- replies to a reader's comments are found from their comments (comments_actor) through the replies' parent
CREATE INDEX comments_parent ON comments (parent_id) WHERE parent_id IS NOT NULL;
-- corrections and retractions of many stories at once, newest first
CREATE INDEX story_corrections_created ON story_corrections (created_at DESC);

-- the runtime role: state that moves on, never removed by the service (the data export and history clear leave it)
GRANT SELECT, INSERT, UPDATE ON reader_notifications TO newsroom_runtime;
