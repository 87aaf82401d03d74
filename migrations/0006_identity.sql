-- World ID login challenges (POST /v1/session/worldid/challenge and /verify). A challenge is bound to the
-- actorId that asked for it, lives 5 minutes and is used once: /verify claims it with a conditional UPDATE
-- (used_at IS NULL AND expires_at > now), so two verifies racing on one challenge cannot both succeed.
CREATE TABLE login_challenges (
  id              text PRIMARY KEY,
  actor_id        text NOT NULL,
  action          text NOT NULL,
  signal          text NOT NULL,
  signal_hash     text NOT NULL,
  created_at      timestamptz NOT NULL,
  expires_at      timestamptz NOT NULL,
  used_at         timestamptz,
  linked_human_id text REFERENCES human_identities (linked_human_id),
  CHECK (expires_at > created_at),
  CHECK ((used_at IS NULL) = (linked_human_id IS NULL))
);
-- pruning old challenges
CREATE INDEX login_challenges_expiry ON login_challenges (expires_at);

-- The session of a binding: a signed linkedHumanId counts until expires_at (NULL: a binding an operator made,
-- without a session). A login sets it; every accepted human proof of the actor moves it on.
ALTER TABLE actor_bindings ADD COLUMN expires_at timestamptz;

-- The verified action a reward vote consumed (reward:<storyId>): only such a vote carries the voter's tier weight.
ALTER TABLE reward_votes ADD COLUMN verified_action_id text REFERENCES verified_human_actions (id);

-- /v1/worldid/verify checks that flag_high_severity:<claimId> names a claim of some story's current packet.
CREATE INDEX story_versions_claims ON story_versions USING gin ((packet -> 'claims') jsonb_path_ops);
