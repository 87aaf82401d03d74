-- Rewards (issue 12): the versioned rewards policy, payout recipients and their wallet challenges, the daily
-- paid-action budget, settlements with the stories they settled and their payouts, story freezes and the
-- fraud review cases (docs/rewards.md).

-- Rewards changes are audited on the same hash chain as governance.
ALTER TABLE audit_events DROP CONSTRAINT audit_events_scope_check;
ALTER TABLE audit_events ADD CONSTRAINT audit_events_scope_check CHECK (scope IN ('GOVERNANCE', 'CONTROL_PLANE', 'MODERATION', 'REWARDS'));

-- Every policy change is a new version; the current policy is the highest version. Rates are parts per
-- million (exact integers): the four role splits sum to exactly 1 000 000.
CREATE TABLE rewards_policy_versions (
  version                 integer PRIMARY KEY CHECK (version >= 1),
  status                  text NOT NULL CHECK (status IN ('ACTIVE', 'PAUSED', 'DISABLED')),
  escrow_ppm              integer NOT NULL CHECK (escrow_ppm BETWEEN 0 AND 1000000),
  writer_ppm              integer NOT NULL CHECK (writer_ppm BETWEEN 0 AND 1000000),
  fact_check_ppm          integer NOT NULL CHECK (fact_check_ppm BETWEEN 0 AND 1000000),
  risk_ppm                integer NOT NULL CHECK (risk_ppm BETWEEN 0 AND 1000000),
  source_diversity_ppm    integer NOT NULL CHECK (source_diversity_ppm BETWEEN 0 AND 1000000),
  reason                  text,
  created_by              text NOT NULL,
  created_at              timestamptz NOT NULL,
  CHECK (writer_ppm + fact_check_ppm + risk_ppm + source_diversity_ppm = 1000000)
);
INSERT INTO rewards_policy_versions
  (version, status, escrow_ppm, writer_ppm, fact_check_ppm, risk_ppm, source_diversity_ppm, reason, created_by, created_at)
VALUES (1, 'ACTIVE', 100000, 500000, 250000, 150000, 100000, 'launch defaults', 'system', '2026-01-01T00:00:00Z');

-- A payout recipient is a person (an L3 linked human) who accepted the payout terms; one per person.
CREATE TABLE reward_recipients (
  id                  text PRIMARY KEY,
  linked_human_id     text NOT NULL UNIQUE,
  actor_id            text NOT NULL,
  terms_version       text NOT NULL,
  terms_accepted_at   timestamptz NOT NULL,
  wallet_address      text CHECK (wallet_address ~ '^0x[0-9a-fA-F]{40}$'),
  wallet_chain_id     integer,
  wallet_verified_at  timestamptz,
  frozen_at           timestamptz,
  frozen_reason       text,
  frozen_by           text,
  created_at          timestamptz NOT NULL,
  updated_at          timestamptz NOT NULL
);

-- Wallet binding challenges: single use (used_at set once, by a conditional update), short lifetime.
CREATE TABLE reward_wallet_challenges (
  id              text PRIMARY KEY,
  recipient_id    text NOT NULL REFERENCES reward_recipients (id),
  address         text NOT NULL CHECK (address ~ '^0x[0-9a-fA-F]{40}$'),
  chain_id        integer NOT NULL,
  nonce           text NOT NULL UNIQUE,
  message         text NOT NULL,
  created_at      timestamptz NOT NULL,
  expires_at      timestamptz NOT NULL,
  used_at         timestamptz
);
CREATE INDEX reward_wallet_challenges_recipient ON reward_wallet_challenges (recipient_id, created_at);

-- Paid actions used per person (or actor) and UTC day; the increment is one conditional upsert.
CREATE TABLE paid_action_usage (
  subject   text NOT NULL,
  day       date NOT NULL,
  used      integer NOT NULL CHECK (used >= 0),
  PRIMARY KEY (subject, day)
);

-- Stories frozen for rewards (present row = frozen).
CREATE TABLE reward_story_freezes (
  story_id    text PRIMARY KEY REFERENCES stories (id),
  reason      text NOT NULL,
  frozen_by   text NOT NULL,
  frozen_at   timestamptz NOT NULL
);

CREATE TABLE settlements (
  id                    text PRIMARY KEY,
  seq                   bigserial UNIQUE,
  policy_version        integer NOT NULL REFERENCES rewards_policy_versions (version),
  pool_base             numeric(78, 0) NOT NULL CHECK (pool_base > 0),
  escrow_base           numeric(78, 0) NOT NULL CHECK (escrow_base >= 0),
  paid_base             numeric(78, 0) NOT NULL CHECK (paid_base >= 0),
  token_decimals        integer NOT NULL,
  windows_closed_before timestamptz NOT NULL,
  story_count           integer NOT NULL,
  contribution_count    integer NOT NULL,
  payout_count          integer NOT NULL,
  role_totals           jsonb NOT NULL,
  -- everything the computation used (policy rates, stories, contributions with weights): anyone recomputes it
  inputs                json NOT NULL,  -- kept as written (json, not jsonb): published, never queried into
  created_by            text NOT NULL,
  created_at            timestamptz NOT NULL,
  CHECK (escrow_base + paid_base = pool_base)
);

-- The published inputs of a large run are tens of MB of JSON: compressed with lz4 where the server has it
-- (several times faster to write than the default pglz), else with the default.
DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM pg_settings WHERE name = 'default_toast_compression' AND 'lz4' = ANY (enumvals)) THEN
    ALTER TABLE settlements ALTER COLUMN inputs SET COMPRESSION lz4;
  END IF;
END
$$;

-- The constraint that settles a story at most once, whatever runs race.
CREATE TABLE settled_stories (
  story_id        text PRIMARY KEY REFERENCES stories (id),
  settlement_id   text NOT NULL REFERENCES settlements (id)
);
CREATE INDEX settled_stories_settlement ON settled_stories (settlement_id);

-- One payout per (settlement, story, role, beneficiary) holds by construction (the contributions are grouped
-- on that key before the division); no unique index repeats it, for the same reason as below.
-- No column carries a per-row foreign key on purpose: a run inserts up to 100 000 payouts in one statement and
-- each key is one trigger query per row (about 0.3 to 0.6 s per key at that size on a loaded 2-core machine).
-- The settlement is checked once per statement instead (payouts_settlement_exists below, same guarantee); the
-- story is covered by the settled_stories row of the same settlement (which does reference stories), and
-- recipients are never deleted.
CREATE TABLE payouts (
  id                text PRIMARY KEY,
  seq               bigserial UNIQUE,
  settlement_id     text NOT NULL,
  story_id          text NOT NULL,
  role              text NOT NULL CHECK (role IN ('WRITER', 'FACT_CHECK', 'RISK', 'SOURCE_DIVERSITY')),
  beneficiary_kind  text NOT NULL CHECK (beneficiary_kind IN ('BOT', 'HUMAN')),
  beneficiary_id    text NOT NULL,
  bot_id            text,
  linked_human_id   text,
  recipient_id      text,
  weight            numeric(78, 0) NOT NULL CHECK (weight > 0),
  amount_base       numeric(78, 0) NOT NULL CHECK (amount_base > 0),
  status            text NOT NULL CHECK (status IN ('PAYABLE', 'PENDING_RECIPIENT', 'FROZEN', 'REVIEW')),
  status_reason     text,
  created_at        timestamptz NOT NULL,
  updated_at        timestamptz NOT NULL
);
CREATE INDEX payouts_settlement ON payouts (settlement_id, seq);
CREATE INDEX payouts_story ON payouts (story_id, seq);
CREATE INDEX payouts_bot ON payouts (bot_id, seq);
CREATE INDEX payouts_linked_human ON payouts (linked_human_id, seq);
CREATE INDEX payouts_held ON payouts (status, seq) WHERE status IN ('FROZEN', 'REVIEW');

-- The foreign key of payouts.settlement_id, checked per statement: every payout an INSERT adds names an
-- existing settlement (one anti-join over the statement's new rows, not one query per row), a payout never
-- moves to another settlement, and a settlement that has payouts is never deleted nor renamed.
CREATE FUNCTION payouts_settlement_exists() RETURNS trigger
  LANGUAGE plpgsql
  AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM new_payouts n WHERE NOT EXISTS (SELECT 1 FROM settlements s WHERE s.id = n.settlement_id)) THEN
    RAISE EXCEPTION 'payouts: insert names a settlement that does not exist' USING ERRCODE = 'foreign_key_violation';
  END IF;
  RETURN NULL;
END
$$;
CREATE TRIGGER payouts_settlement_insert AFTER INSERT ON payouts
  REFERENCING NEW TABLE AS new_payouts FOR EACH STATEMENT EXECUTE FUNCTION payouts_settlement_exists();

CREATE FUNCTION payouts_settlement_fixed() RETURNS trigger
  LANGUAGE plpgsql
  AS $$
BEGIN
  RAISE EXCEPTION 'payouts: a payout stays in its settlement' USING ERRCODE = 'foreign_key_violation';
END
$$;
CREATE TRIGGER payouts_settlement_unchanged BEFORE UPDATE OF settlement_id ON payouts
  FOR EACH ROW WHEN (NEW.settlement_id IS DISTINCT FROM OLD.settlement_id) EXECUTE FUNCTION payouts_settlement_fixed();

CREATE FUNCTION settlements_keep_payouts() RETURNS trigger
  LANGUAGE plpgsql
  AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM payouts p WHERE p.settlement_id = OLD.id) THEN
    RAISE EXCEPTION 'settlements: % has payouts', OLD.id USING ERRCODE = 'foreign_key_violation';
  END IF;
  RETURN CASE WHEN TG_OP = 'DELETE' THEN OLD ELSE NEW END;
END
$$;
CREATE TRIGGER settlements_keep_payouts BEFORE DELETE OR UPDATE OF id ON settlements
  FOR EACH ROW EXECUTE FUNCTION settlements_keep_payouts();

CREATE TABLE review_cases (
  id                    text PRIMARY KEY,
  seq                   bigserial UNIQUE,
  target_type           text NOT NULL CHECK (target_type IN ('RECIPIENT', 'STORY', 'BATCH', 'PAYOUT')),
  target_id             text NOT NULL,
  status                text NOT NULL CHECK (status IN ('OPEN', 'IN_REVIEW', 'APPEALED', 'ESCALATED', 'RESOLVED', 'DISMISSED')),
  reason                text NOT NULL,
  assigned_to_actor_id  text,
  resolution            text,
  opened_by             text NOT NULL,
  created_at            timestamptz NOT NULL,
  due_at                timestamptz NOT NULL,
  updated_at            timestamptz NOT NULL,
  closed_at             timestamptz
);
CREATE INDEX review_cases_status ON review_cases (status, seq);
CREATE INDEX review_cases_target ON review_cases (target_type, target_id);

-- Who moved a case, from which state to which, when: append only.
CREATE TABLE review_case_events (
  id            text PRIMARY KEY,
  case_id       text NOT NULL REFERENCES review_cases (id),
  action        text NOT NULL,
  from_status   text,
  to_status     text NOT NULL,
  actor         text NOT NULL,
  note          text,
  created_at    timestamptz NOT NULL
);
CREATE INDEX review_case_events_case ON review_case_events (case_id, created_at);
