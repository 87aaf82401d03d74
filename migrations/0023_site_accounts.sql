-- The reader site's own accounts and sessions (docs/site.md, "Logging in"). The site is the newsroom's front end:
-- it names each person it logs in with an account id of its own (the actorId it signs with), and keeps its
-- browser sessions here, so that any instance serves any session and a logout ends it everywhere.

-- One account per person: the linked human a World ID login proved. The same person logging in again, from any
-- browser, finds this account (and, through its actorId, their bookmarks, topics and history).
CREATE TABLE site_accounts (
  account_id       text PRIMARY KEY CHECK (account_id ~ '^acct_[a-z0-9]{20,40}$'),
  linked_human_id  text NOT NULL UNIQUE REFERENCES human_identities (linked_human_id),
  created_at       timestamptz NOT NULL,
  last_login_at    timestamptz NOT NULL
);

-- Browser sessions (@fastify/session's store): the id is the signed cookie's value, data the session object.
-- A row lives until its expiry (never past the login's sessionExpiresAt) or a logout, and is pruned after it.
CREATE TABLE site_sessions (
  id          text PRIMARY KEY,
  data        jsonb NOT NULL,
  expires_at  timestamptz NOT NULL
);
CREATE INDEX site_sessions_expiry ON site_sessions (expires_at);

-- the runtime role: accounts are created and their last login moves on; sessions are written, ended and pruned
GRANT SELECT, INSERT, UPDATE ON site_accounts TO newsroom_runtime;
GRANT SELECT, INSERT, UPDATE, DELETE ON site_sessions TO newsroom_runtime;
