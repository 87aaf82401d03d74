-- Bot owners (docs/rewards.md "Owning a bot"): the person a verified bot's payouts go to. AgentBook maps a bot's
-- wallet to an AgentBook human id, which never equals the linkedHumanId of the person's World ID login, so the
-- person claims the bot: an L3 person proves control of the bot's verified wallet (a one-time SIWE message) and
-- the bot consents with its Ed25519 key.

-- Ownership challenges: single use (used_at set once, by a conditional update), short lifetime, for one bot,
-- one wallet (the bot's verified wallet when issued) and one person.
CREATE TABLE bot_owner_challenges (
  id               text PRIMARY KEY,
  bot_id           text NOT NULL REFERENCES bots (bot_id),
  linked_human_id  text NOT NULL REFERENCES human_identities (linked_human_id),
  actor_id         text NOT NULL,
  wallet_address   text NOT NULL CHECK (wallet_address ~ '^0x[0-9a-fA-F]{40}$'),
  wallet_chain_id  text NOT NULL,
  nonce            text NOT NULL UNIQUE,
  message          text NOT NULL,
  created_at       timestamptz NOT NULL,
  expires_at       timestamptz NOT NULL,
  used_at          timestamptz
);
CREATE INDEX bot_owner_challenges_bot ON bot_owner_challenges (bot_id, created_at);

-- Every ownership a claim established, current and ended (append only but for the end columns). A bot has at
-- most one current owner (ended_at null): the partial unique index below decides between concurrent claims.
CREATE TABLE bot_owners (
  id                   text PRIMARY KEY,
  bot_id               text NOT NULL REFERENCES bots (bot_id),
  linked_human_id      text NOT NULL REFERENCES human_identities (linked_human_id),
  actor_id             text NOT NULL,
  -- the wallet proven by the claim: the ownership counts only while the bot stays verified with it
  wallet_address       text NOT NULL CHECK (wallet_address ~ '^0x[0-9a-fA-F]{40}$'),
  wallet_chain_id      text NOT NULL,
  challenge_id         text NOT NULL UNIQUE REFERENCES bot_owner_challenges (id),
  consent_key_version  integer NOT NULL,
  claimed_at           timestamptz NOT NULL,
  ended_at             timestamptz,
  ended_reason         text CHECK (ended_reason IN ('UNLINKED', 'REPLACED')),
  ended_by             text,
  CHECK ((ended_at IS NULL) = (ended_reason IS NULL))
);
CREATE UNIQUE INDEX bot_owners_current ON bot_owners (bot_id) WHERE ended_at IS NULL;
CREATE INDEX bot_owners_human ON bot_owners (linked_human_id);

-- Whose a bot's payouts are: its current owner while the bot is still verified with the wallet the owner proved,
-- else the linked human its AgentBook verification derived (null for an unverified bot). Settlements, the
-- dashboard and payout releases read owners through this one view.
CREATE VIEW bot_payout_owners AS
  SELECT b.bot_id, coalesce(o.linked_human_id, b.linked_human_id) AS linked_human_id, o.id AS owner_id
  FROM bots b
  LEFT JOIN bot_owners o ON o.bot_id = b.bot_id AND o.ended_at IS NULL
    AND lower(o.wallet_address) = lower(b.wallet_address) AND o.wallet_chain_id = b.wallet_chain_id;

-- the runtime role: challenges are used once and ownerships end (UPDATE), neither is removed; the view is read
GRANT SELECT, INSERT, UPDATE ON bot_owner_challenges, bot_owners TO newsroom_runtime;
GRANT SELECT ON bot_payout_owners TO newsroom_runtime;
