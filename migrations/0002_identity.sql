-- Identity: bots and their signing keys, linked humans and the actors bound to them, World ID login challenges and
-- the verified human actions a proof produced.

CREATE TABLE bots (
  bot_id           text PRIMARY KEY CHECK (bot_id ~ '^bot_[0-9a-f]{32}$'),
  name             text NOT NULL,
  description      text,
  operator_contact text,
  source           text NOT NULL CHECK (source IN ('SELF_SERVE', 'REGISTRY')),
  trust_tier       text NOT NULL DEFAULT 'UNVERIFIED' CHECK (trust_tier IN ('UNVERIFIED', 'VERIFIED')),
  linked_human_id  text,
  wallet_address   text,
  wallet_chain_id  text,
  permissions      text[] NOT NULL,
  created_at       timestamptz NOT NULL DEFAULT now(),
  updated_at       timestamptz NOT NULL DEFAULT now(),
  -- when the bot last passed /v1/agents/verify (World AgentKit)
  verified_at      timestamptz,
  -- a verified self-serve bot always has its linked human, wallet, chain and verification time
  CONSTRAINT bots_verified_binding CHECK (
    source = 'REGISTRY' OR trust_tier = 'UNVERIFIED'
    OR (linked_human_id IS NOT NULL AND wallet_address IS NOT NULL AND wallet_chain_id IS NOT NULL AND verified_at IS NOT NULL)
  )
);
CREATE INDEX bots_linked_human ON bots (linked_human_id) WHERE linked_human_id IS NOT NULL;
-- Wallet addresses are stored EIP-55 checksummed; one wallet verifies one bot, whatever the case it was sent in.
CREATE UNIQUE INDEX bots_wallet_address ON bots (lower(wallet_address)) WHERE wallet_address IS NOT NULL;

-- Several signing keys per bot: a key is revoked, never deleted (its version is never reused).
CREATE TABLE bot_keys (
  bot_id     text NOT NULL REFERENCES bots (bot_id) ON DELETE CASCADE,
  version    integer NOT NULL CHECK (version >= 1),
  public_key text NOT NULL UNIQUE,
  created_at timestamptz NOT NULL DEFAULT now(),
  revoked_at timestamptz,
  PRIMARY KEY (bot_id, version)
);

-- The tier the service itself recorded for a linked human (never the tier a client sends).
CREATE TABLE human_identities (
  linked_human_id text PRIMARY KEY,
  tier            text NOT NULL CHECK (tier IN ('L2', 'L3')),
  provider        text NOT NULL,
  created_at      timestamptz NOT NULL DEFAULT now(),
  updated_at      timestamptz NOT NULL DEFAULT now()
);

-- Which linked human a front-end actor is: written when the actor logs in with World ID
-- (POST /v1/session/worldid/verify). A request's linkedHumanId counts (tier, allowlists, approver membership)
-- only when this table binds it to the request's actorId. expires_at is the session of the binding: a signed
-- linkedHumanId counts until then (NULL: a binding an operator made, without a session); a login sets it and
-- every accepted human proof of the actor moves it on.
CREATE TABLE actor_bindings (
  actor_id        text PRIMARY KEY,
  linked_human_id text NOT NULL REFERENCES human_identities (linked_human_id),
  bound_at        timestamptz NOT NULL DEFAULT now(),
  expires_at      timestamptz
);
CREATE INDEX actor_bindings_human ON actor_bindings (linked_human_id);

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
-- the data export reads a reader's challenges by actor id
CREATE INDEX login_challenges_actor ON login_challenges (actor_id, created_at);

-- A human action proven through World ID or a secondary provider, accepted once by the operation it names.
CREATE TABLE verified_human_actions (
  id              text PRIMARY KEY,
  action          text NOT NULL,
  linked_human_id text NOT NULL,
  provider        text NOT NULL,
  nullifier_hash  text NOT NULL,
  created_at      timestamptz NOT NULL DEFAULT now(),
  consumed_at     timestamptz,
  consumed_by     text,
  UNIQUE (provider, action, nullifier_hash)
);
CREATE INDEX verified_human_actions_open ON verified_human_actions (action) WHERE consumed_at IS NULL;
CREATE INDEX verified_human_actions_human ON verified_human_actions (linked_human_id);

-- the runtime role: state that moves on, never removed; challenges are short-lived and pruned
GRANT SELECT, INSERT, UPDATE ON bots, bot_keys, human_identities, actor_bindings, verified_human_actions TO newsroom_runtime;
GRANT SELECT, INSERT, UPDATE, DELETE ON login_challenges TO newsroom_runtime;
