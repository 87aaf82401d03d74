-- Foundation: bots and their keys, idempotency records, human identities and reader preferences.

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
  updated_at       timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE bot_keys (
  bot_id     text NOT NULL REFERENCES bots (bot_id) ON DELETE CASCADE,
  version    integer NOT NULL CHECK (version >= 1),
  public_key text NOT NULL UNIQUE,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (bot_id, version)
);

-- Responses remembered per (scope, key) so a retried write answers exactly as the first one did.
CREATE TABLE idempotency_records (
  scope        text NOT NULL,
  key          text NOT NULL,
  request_hash text NOT NULL,
  status_code  integer,
  response     jsonb,
  created_at   timestamptz NOT NULL DEFAULT now(),
  expires_at   timestamptz NOT NULL,
  PRIMARY KEY (scope, key)
);
CREATE INDEX idempotency_records_expires_at ON idempotency_records (expires_at);

-- The tier the service itself recorded for a linked human (never the tier a client sends).
CREATE TABLE human_identities (
  linked_human_id text PRIMARY KEY,
  tier            text NOT NULL CHECK (tier IN ('L2', 'L3')),
  provider        text NOT NULL,
  created_at      timestamptz NOT NULL DEFAULT now(),
  updated_at      timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE user_preferences (
  actor_id    text PRIMARY KEY,
  preferences jsonb NOT NULL DEFAULT '{}'::jsonb,
  updated_at  timestamptz NOT NULL DEFAULT now()
);
