-- Display names (docs/reader-accounts.md, "Display names"): the name a person shows on the newsroom's pages, one
-- per actor (the site's account id), and every name they gave up, kept for moderators.

-- `name_key` is the name's comparison form (src/readers/names/policy.ts: NFKC, then lower case), computed by the
-- service (not lower(): the database's locale may not lower every script): its unique index is the rule that no two people hold names that differ only in case or width, whatever
-- two requests race. The checks repeat the rules a database can state (length, no space at either end, NFC).
CREATE TABLE display_names (
  actor_id    text PRIMARY KEY,
  name        text NOT NULL CHECK (char_length(name) BETWEEN 3 AND 30 AND name = btrim(name) AND name = normalize(name, NFC)),
  name_key    text NOT NULL CHECK (name_key <> ''),
  chosen_at   timestamptz NOT NULL,
  created_at  timestamptz NOT NULL
);
CREATE UNIQUE INDEX display_names_key ON display_names (name_key);

-- A name given up: who held it, from when until when. Appended when a person changes their name, never changed.
CREATE TABLE display_name_history (
  id          text PRIMARY KEY,
  actor_id    text NOT NULL,
  name        text NOT NULL,
  chosen_at   timestamptz NOT NULL,
  replaced_at timestamptz NOT NULL,
  CHECK (replaced_at >= chosen_at)
);
CREATE INDEX display_name_history_actor ON display_name_history (actor_id, replaced_at DESC);

-- the runtime role
-- state that moves on (a name changes), never removed
GRANT SELECT, INSERT, UPDATE ON display_names TO newsroom_runtime;
-- records: rows are added, never changed or removed
GRANT SELECT, INSERT ON display_name_history TO newsroom_runtime;
