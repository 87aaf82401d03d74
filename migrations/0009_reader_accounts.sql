-- Reader accounts (docs/reader-accounts.md): bookmarks, followed topics and the personalization history of a
-- signed reader, plus the indexes that let the data export find everything a reader wrote by actor id.

-- One bookmark per reader per story: bookmarking again is the same bookmark (the primary key).
CREATE TABLE user_bookmarks (
  actor_id   text NOT NULL,
  story_id   text NOT NULL REFERENCES stories (id),
  created_at timestamptz NOT NULL,
  PRIMARY KEY (actor_id, story_id)
);
-- GET /v1/users/me/bookmarks: newest first, keyset on (created_at, story_id)
CREATE INDEX user_bookmarks_newest ON user_bookmarks (actor_id, created_at DESC, story_id DESC);

-- Followed topics: a room (matched against stories.room) or a free tag (a phrase matched against the story's
-- words). `topic` is the normalized form (src/modules/users/topic-name.ts: NFC, lower case, whitespace trimmed
-- and collapsed), so the primary key is the rule that the same topic is never followed twice, whatever the
-- spelling a client sent. `label` keeps the text as the reader first typed it.
CREATE TABLE user_topics (
  actor_id   text NOT NULL,
  topic      text NOT NULL CHECK (char_length(topic) BETWEEN 1 AND 100 AND topic = normalize(topic, NFC) AND topic = btrim(topic)),
  kind       text NOT NULL CHECK (kind IN ('ROOM', 'TAG')),
  label      text NOT NULL,
  created_at timestamptz NOT NULL,
  PRIMARY KEY (actor_id, topic)
);

-- The personalization history: which stories a signed reader read, kept only while the reader's preferences
-- say `personalization: true`, erased by POST /v1/users/me/history/clear. One row per reader and story.
CREATE TABLE reading_history (
  actor_id      text NOT NULL,
  story_id      text NOT NULL REFERENCES stories (id),
  first_read_at timestamptz NOT NULL,
  last_read_at  timestamptz NOT NULL,
  read_count    integer NOT NULL DEFAULT 1 CHECK (read_count >= 1),
  PRIMARY KEY (actor_id, story_id),
  CHECK (last_read_at >= first_read_at)
);
CREATE INDEX reading_history_recent ON reading_history (actor_id, last_read_at DESC);

-- The export reads what a reader wrote by actor id.
CREATE INDEX comments_actor ON comments (actor_id, seq);
CREATE INDEX flags_actor ON flags (actor_id, seq);
CREATE INDEX reward_votes_actor ON reward_votes (actor_id, created_at);
CREATE INDEX login_challenges_actor ON login_challenges (actor_id, created_at);
CREATE INDEX verified_human_actions_human ON verified_human_actions (linked_human_id);
CREATE INDEX bots_linked_human ON bots (linked_human_id) WHERE linked_human_id IS NOT NULL;
