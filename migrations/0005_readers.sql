-- Readers: a reader's preferences, bookmarks, followed topics and personalization history
-- (docs/reader-accounts.md), and the reader site's own accounts and browser sessions (docs/site.md).

CREATE TABLE user_preferences (
  actor_id    text PRIMARY KEY,
  preferences jsonb NOT NULL DEFAULT '{}'::jsonb,
  updated_at  timestamptz NOT NULL DEFAULT now()
);

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
-- words). `topic` is the normalized form (src/readers/users/topic-name.ts: NFC, lower case, whitespace trimmed
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

-- The site is the newsroom's front end: it names each person it logs in with an account id of its own (the
-- actorId it signs with). One account per person: the linked human a World ID login proved. The same person
-- logging in again, from any browser, finds this account (and, through its actorId, their bookmarks, topics and
-- history).
CREATE TABLE site_accounts (
  account_id       text PRIMARY KEY CHECK (account_id ~ '^acct_[a-z0-9]{20,40}$'),
  linked_human_id  text NOT NULL UNIQUE REFERENCES human_identities (linked_human_id),
  created_at       timestamptz NOT NULL,
  last_login_at    timestamptz NOT NULL
);

-- Browser sessions (@fastify/session's store), kept here so that any instance serves any session and a logout
-- ends it everywhere: the id is the signed cookie's value, data the session object. A row lives until its expiry
-- (never past the login's sessionExpiresAt) or a logout, and is pruned after it.
CREATE TABLE site_sessions (
  id          text PRIMARY KEY,
  data        jsonb NOT NULL,
  expires_at  timestamptz NOT NULL
);
CREATE INDEX site_sessions_expiry ON site_sessions (expires_at);

-- the runtime role
-- state that moves on, never removed (accounts: their last login)
GRANT SELECT, INSERT, UPDATE ON user_preferences, site_accounts TO newsroom_runtime;
-- sets a reader adds to and removes from
GRANT SELECT, INSERT, DELETE ON user_bookmarks, user_topics TO newsroom_runtime;
-- short-lived rows that are updated and pruned, or erased on a reader's request
GRANT SELECT, INSERT, UPDATE, DELETE ON reading_history, site_sessions TO newsroom_runtime;
