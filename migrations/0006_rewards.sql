-- Rewards (docs/rewards.md): the versioned rewards policy, payout recipients and their wallet challenges, the daily
-- paid-action budget, bot owners, settlements with the stories they settled, their payouts and the persons those
-- went to, story freezes, the fraud review cases, and the claim rail (docs/claims.md): distribution batches (an
-- OpenZeppelin standard Merkle tree of the payable payouts summed per bound wallet), their leaves with proofs, the
-- payouts each batch carries, the on-chain claim receipts accepted and the batch freezes' on-chain evidence.
--
-- The rows a settlement run or a distribution batch writes by the hundred thousand (payouts, settled stories,
-- payout holders, batch leaves and batch payouts) have no per-row foreign key: each such key is one trigger query
-- and a row lock per inserted row. Their references are checked once per statement instead, by the triggers
-- below, with the same guarantee: every row an INSERT adds names existing rows, a row never moves to other ones,
-- and a row that is named is neither deleted nor renamed.

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

-- A settlement run. Its row is written first and its published inputs last, in the same transaction, so that the
-- payouts are written while the process is still preparing the inputs; a settlement whose inputs are still missing
-- when its transaction commits makes the commit fail (settlements_inputs_required). The service writes the inputs
-- as inputs_gzip: gzip of a packed form (src/rewards/settlements/published-inputs.ts), stored as is (EXTERNAL: not
-- compressed again).
-- The run reserves one block of the payouts' sequence for all its payouts (payout_seq_first..payout_seq_last), so
-- a settlement's payouts are found by that range of the payouts' primary key instead of an index of their
-- settlement.
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
  created_by            text NOT NULL,
  created_at            timestamptz NOT NULL,
  inputs_gzip           bytea,
  payout_seq_first      bigint,
  payout_seq_last       bigint,
  CHECK (escrow_base + paid_base = pool_base),
  CONSTRAINT settlements_payout_seq_range
    CHECK ((payout_seq_first IS NULL) = (payout_seq_last IS NULL) AND payout_seq_first <= payout_seq_last)
);
ALTER TABLE settlements ALTER COLUMN inputs_gzip SET STORAGE EXTERNAL;

CREATE FUNCTION settlements_inputs_published() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM settlements s WHERE s.id = NEW.id AND s.inputs_gzip IS NULL) THEN
    RAISE EXCEPTION 'settlements: % commits without its published inputs', NEW.id USING ERRCODE = 'not_null_violation';
  END IF;
  RETURN NULL;
END
$$;
CREATE CONSTRAINT TRIGGER settlements_inputs_required AFTER INSERT OR UPDATE OF inputs_gzip ON settlements
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION settlements_inputs_published();

-- The constraint that settles a story at most once, whatever runs race. A run reserves one seq per contribution,
-- in the order of its stories, so each story's payouts lie in one block of the run's seq block that no other
-- story's payouts share (payout_seq_first..payout_seq_last; a contribution whose share rounds to nothing leaves
-- its seq unused): a story's payouts are found by that range instead of an index of their story.
CREATE TABLE settled_stories (
  story_id         text PRIMARY KEY,
  settlement_id    text NOT NULL,
  payout_seq_first bigint,
  payout_seq_last  bigint,
  CONSTRAINT settled_stories_payout_seq_range
    CHECK ((payout_seq_first IS NULL) = (payout_seq_last IS NULL) AND payout_seq_first <= payout_seq_last)
);
CREATE INDEX settled_stories_settlement ON settled_stories (settlement_id);

-- A payout's id is made from its seq: `po-` and the seq in decimal (`po-1234`), so a run's insert keeps one unique
-- index per payout (seq, the primary key) instead of two: the id is exactly its row's seq's (payouts_id_of_seq),
-- and a payout is found by id through the seq the id names. payout_id_of is inlined by PostgreSQL, so the check
-- costs what the expression does.
CREATE FUNCTION payout_id_of(seq bigint) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  RETURN 'po-' || seq::text;

-- The seq an id of the `po-` form names; null for any other text.
CREATE FUNCTION payout_seq_of(id text) RETURNS bigint
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  RETURN CASE WHEN id ~ '^po-[1-9][0-9]{0,17}$' THEN substr(id, 4)::bigint END;

-- One payout per (settlement, story, role, beneficiary) holds by construction (the contributions are grouped on
-- that key before the division); no unique index repeats it. A run inserts its payouts with the seqs of its block;
-- they are found by settlement or story through the seq ranges above, and by person through payout_holders.
-- The story is covered by the settled_stories row of the same settlement; recipients are never deleted.
CREATE TABLE payouts (
  id                text NOT NULL,
  seq               bigserial PRIMARY KEY,
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
  updated_at        timestamptz NOT NULL,
  -- its linked human changed after its run (an owner's claim, a recipient's release): set by payouts_reassigned
  reassigned        boolean NOT NULL DEFAULT false,
  CONSTRAINT payouts_id_of_seq CHECK (id = payout_id_of(seq))
);
CREATE INDEX payouts_held ON payouts (status, seq) WHERE status IN ('FROZEN', 'REVIEW');
-- a payout that became a linked human's after its run is found through this index, not through payout_holders
CREATE INDEX payouts_reassigned_human ON payouts USING hash (linked_human_id) WHERE reassigned;
-- a reader's payouts as a flagger paid by actor id (a HUMAN payout whose beneficiary is the actor: a flagger with
-- no linked human); only the HUMAN payouts, a small part of a run's
CREATE INDEX payouts_human_beneficiary ON payouts (beneficiary_id) WHERE beneficiary_kind = 'HUMAN';

-- Whose payouts a run created, one row per person and run, instead of an index entry per payout: for each bot and
-- each linked human its payouts went to, the seqs of those payouts. Payouts of a bot are found through its rows (a
-- payout's bot never changes); payouts of a linked human through its rows, kept to the payouts still theirs, and
-- through `reassigned`.
CREATE TABLE payout_holders (
  holder_kind    text NOT NULL CHECK (holder_kind IN ('BOT', 'HUMAN')),
  holder_id      text NOT NULL,
  settlement_id  text NOT NULL,
  seqs           bigint[] NOT NULL,
  PRIMARY KEY (holder_kind, holder_id, settlement_id)
);
CREATE INDEX payout_holders_settlement ON payout_holders (settlement_id);

-- The three tables a run fills share one check of their settlement (one lookup per distinct settlement a statement
-- names, not per row: a run's rows all name one) and one refusal of a row that would move.
CREATE FUNCTION rows_name_their_settlement() RETURNS trigger
  LANGUAGE plpgsql
  AS $$
BEGIN
  IF EXISTS (
    SELECT 1 FROM (SELECT DISTINCT settlement_id FROM new_rows) n
    WHERE NOT EXISTS (SELECT 1 FROM settlements s WHERE s.id = n.settlement_id)
  ) THEN
    RAISE EXCEPTION '%: insert names a settlement that does not exist', TG_TABLE_NAME USING ERRCODE = 'foreign_key_violation';
  END IF;
  RETURN NULL;
END
$$;

-- TG_ARGV[0] names what the row keeps
CREATE FUNCTION rows_keep_their_settlement() RETURNS trigger
  LANGUAGE plpgsql
  AS $$
BEGIN
  RAISE EXCEPTION '%: a row stays in its %', TG_TABLE_NAME, TG_ARGV[0] USING ERRCODE = 'foreign_key_violation';
END
$$;

CREATE TRIGGER payouts_settlement_insert AFTER INSERT ON payouts
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION rows_name_their_settlement();
CREATE TRIGGER payouts_settlement_unchanged BEFORE UPDATE OF settlement_id ON payouts
  FOR EACH ROW WHEN (NEW.settlement_id IS DISTINCT FROM OLD.settlement_id) EXECUTE FUNCTION rows_keep_their_settlement('settlement');

CREATE TRIGGER payout_holders_settlement_insert AFTER INSERT ON payout_holders
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION rows_name_their_settlement();
CREATE TRIGGER payout_holders_settlement_unchanged BEFORE UPDATE OF settlement_id ON payout_holders
  FOR EACH ROW WHEN (NEW.settlement_id IS DISTINCT FROM OLD.settlement_id) EXECUTE FUNCTION rows_keep_their_settlement('settlement');

CREATE FUNCTION settled_stories_name_their_stories() RETURNS trigger
  LANGUAGE plpgsql
  AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM new_rows n WHERE NOT EXISTS (SELECT 1 FROM stories s WHERE s.id = n.story_id)) THEN
    RAISE EXCEPTION 'settled_stories: insert names a story that does not exist' USING ERRCODE = 'foreign_key_violation';
  END IF;
  RETURN NULL;
END
$$;
CREATE TRIGGER settled_stories_settlement_insert AFTER INSERT ON settled_stories
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION rows_name_their_settlement();
CREATE TRIGGER settled_stories_story_insert AFTER INSERT ON settled_stories
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION settled_stories_name_their_stories();
CREATE TRIGGER settled_stories_unchanged BEFORE UPDATE OF story_id, settlement_id ON settled_stories
  FOR EACH ROW WHEN (NEW.story_id IS DISTINCT FROM OLD.story_id OR NEW.settlement_id IS DISTINCT FROM OLD.settlement_id)
  EXECUTE FUNCTION rows_keep_their_settlement('story and its settlement');

-- a settled story stays, under its id (a story is never deleted by the service)
CREATE FUNCTION stories_keep_settled() RETURNS trigger
  LANGUAGE plpgsql
  AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM settled_stories x WHERE x.story_id = OLD.id) THEN
    RAISE EXCEPTION 'stories: % is settled', OLD.id USING ERRCODE = 'foreign_key_violation';
  END IF;
  RETURN CASE WHEN TG_OP = 'DELETE' THEN OLD ELSE NEW END;
END
$$;
CREATE TRIGGER stories_keep_settled_delete BEFORE DELETE ON stories
  FOR EACH ROW EXECUTE FUNCTION stories_keep_settled();
CREATE TRIGGER stories_keep_settled_id BEFORE UPDATE OF id ON stories
  FOR EACH ROW WHEN (NEW.id IS DISTINCT FROM OLD.id) EXECUTE FUNCTION stories_keep_settled();

-- a settlement named by payouts, payout_holders or settled_stories rows stays
CREATE FUNCTION settlements_keep_payouts() RETURNS trigger
  LANGUAGE plpgsql
  AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM payouts p WHERE p.settlement_id = OLD.id) THEN
    RAISE EXCEPTION 'settlements: % has payouts', OLD.id USING ERRCODE = 'foreign_key_violation';
  END IF;
  IF EXISTS (SELECT 1 FROM payout_holders h WHERE h.settlement_id = OLD.id) THEN
    RAISE EXCEPTION 'settlements: % has payout_holders rows', OLD.id USING ERRCODE = 'foreign_key_violation';
  END IF;
  IF EXISTS (SELECT 1 FROM settled_stories x WHERE x.settlement_id = OLD.id) THEN
    RAISE EXCEPTION 'settlements: % has settled stories', OLD.id USING ERRCODE = 'foreign_key_violation';
  END IF;
  RETURN CASE WHEN TG_OP = 'DELETE' THEN OLD ELSE NEW END;
END
$$;
CREATE TRIGGER settlements_keep_payouts BEFORE DELETE OR UPDATE OF id ON settlements
  FOR EACH ROW EXECUTE FUNCTION settlements_keep_payouts();

-- A payout's mark only ever goes on: a changed linked human sets it, and an update that clears it keeps it.
CREATE FUNCTION payouts_mark_reassigned() RETURNS trigger
  LANGUAGE plpgsql
  AS $$
BEGIN
  NEW.reassigned := true;
  RETURN NEW;
END
$$;
CREATE TRIGGER payouts_reassigned BEFORE UPDATE OF linked_human_id, reassigned ON payouts
  FOR EACH ROW WHEN (NEW.linked_human_id IS DISTINCT FROM OLD.linked_human_id OR (OLD.reassigned AND NOT NEW.reassigned))
  EXECUTE FUNCTION payouts_mark_reassigned();

-- A run's completing update (its payout count, written after the payouts and their persons) is refused when the
-- run wrote payouts of a bot or a person without their payout_holders rows: those payouts would be unfindable by
-- person.
CREATE FUNCTION settlements_payouts_held() RETURNS trigger
  LANGUAGE plpgsql
  AS $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM payout_holders h WHERE h.settlement_id = NEW.id)
    AND EXISTS (SELECT 1 FROM payouts p WHERE p.seq BETWEEN NEW.payout_seq_first AND NEW.payout_seq_last
      AND p.settlement_id = NEW.id AND (p.bot_id IS NOT NULL OR p.linked_human_id IS NOT NULL)) THEN
    RAISE EXCEPTION 'settlements: % has payouts without their payout_holders rows', NEW.id USING ERRCODE = 'foreign_key_violation';
  END IF;
  RETURN NULL;
END
$$;
CREATE TRIGGER settlements_payouts_held AFTER UPDATE OF payout_count ON settlements
  FOR EACH ROW WHEN (NEW.payout_count > 0) EXECUTE FUNCTION settlements_payouts_held();

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

CREATE TABLE claim_batches (
  id                    text PRIMARY KEY,
  seq                   bigserial UNIQUE,
  -- keccak256 of the id: the batch's key in the distributor contract
  chain_batch_id        text NOT NULL UNIQUE CHECK (chain_batch_id ~ '^0x[0-9a-f]{64}$'),
  merkle_root           text NOT NULL CHECK (merkle_root ~ '^0x[0-9a-f]{64}$'),
  distributor_address   text CHECK (distributor_address ~ '^0x[0-9a-f]{40}$'),
  total_base            numeric(78, 0) NOT NULL CHECK (total_base > 0),
  token_decimals        integer NOT NULL,
  leaf_count            integer NOT NULL CHECK (leaf_count > 0),
  payout_count          integer NOT NULL CHECK (payout_count > 0),
  claim_deadline        timestamptz NOT NULL,
  status                text NOT NULL CHECK (status IN ('ACTIVE', 'FROZEN')),
  frozen_at             timestamptz,
  frozen_reason         text,
  frozen_by             text,
  -- the verified on-chain freeze (BatchFrozen) of the current freeze, if the batch has a distributor
  freeze_tx_hash        text CHECK (freeze_tx_hash ~ '^0x[0-9a-f]{64}$'),
  finalized_by          text NOT NULL,
  created_at            timestamptz NOT NULL,
  updated_at            timestamptz NOT NULL,
  CHECK ((status = 'FROZEN') = (frozen_at IS NOT NULL))
);

-- One leaf per wallet per batch; the proof is computed at finalize, so a proof read is one row.
CREATE TABLE claim_batch_leaves (
  batch_id        text NOT NULL,
  leaf_index      integer NOT NULL,
  wallet_address  text NOT NULL CHECK (wallet_address ~ '^0x[0-9a-f]{40}$'),
  amount_base     numeric(78, 0) NOT NULL CHECK (amount_base > 0),
  -- the sibling hashes from the leaf up to the root, 32 bytes each, one after the other (the API answers them as
  -- an array of hex strings)
  proof           bytea NOT NULL,
  PRIMARY KEY (batch_id, leaf_index),
  UNIQUE (batch_id, wallet_address),
  CONSTRAINT claim_batch_leaves_proof_hashes CHECK (length(proof) % 32 = 0)
);

-- The constraint that puts a payout in at most one batch, whatever finalize runs race.
CREATE TABLE claim_batch_payouts (
  payout_id     text PRIMARY KEY,
  batch_id      text NOT NULL,
  leaf_index    integer NOT NULL,
  recipient_id  text NOT NULL
);
CREATE INDEX claim_batch_payouts_recipient ON claim_batch_payouts (recipient_id, batch_id);

-- An accepted on-chain claim: one per leaf, and a transaction proves one claim only.
CREATE TABLE claim_receipts (
  batch_id      text NOT NULL,
  leaf_index    integer NOT NULL,
  tx_hash       text NOT NULL UNIQUE CHECK (tx_hash ~ '^0x[0-9a-f]{64}$'),
  block_number  numeric(78, 0) NOT NULL,
  confirmations integer NOT NULL,
  submitted_by  text NOT NULL,
  created_at    timestamptz NOT NULL,
  PRIMARY KEY (batch_id, leaf_index),
  FOREIGN KEY (batch_id, leaf_index) REFERENCES claim_batch_leaves (batch_id, leaf_index)
);

-- The on-chain freeze and unfreeze transactions accepted as evidence: a transaction proves one change only,
-- so an old unfreeze cannot be replayed to lift a later freeze.
CREATE TABLE claim_batch_evidence (
  tx_hash       text PRIMARY KEY CHECK (tx_hash ~ '^0x[0-9a-f]{64}$'),
  batch_id      text NOT NULL REFERENCES claim_batches (id),
  kind          text NOT NULL CHECK (kind IN ('FREEZE', 'UNFREEZE')),
  block_number  numeric(78, 0) NOT NULL,
  created_at    timestamptz NOT NULL
);

-- The references of leaves and batch payouts, checked once per statement: every leaf an INSERT adds names an
-- existing batch, every batch payout an existing payout and a leaf of its batch (so an existing batch). The rows a
-- batch references are read by the transaction that writes it (a batch's payouts are locked FOR UPDATE by the
-- finalize; its leaves and the batch row are its own, not yet visible to anyone), and the runtime role may delete
-- none of these tables' rows.
CREATE FUNCTION claim_batch_leaves_batch_exists() RETURNS trigger
  LANGUAGE plpgsql
  AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM new_leaves n WHERE NOT EXISTS (SELECT 1 FROM claim_batches b WHERE b.id = n.batch_id)) THEN
    RAISE EXCEPTION 'claim_batch_leaves: insert names a batch that does not exist' USING ERRCODE = 'foreign_key_violation';
  END IF;
  RETURN NULL;
END
$$;
CREATE TRIGGER claim_batch_leaves_insert AFTER INSERT ON claim_batch_leaves
  REFERENCING NEW TABLE AS new_leaves FOR EACH STATEMENT EXECUTE FUNCTION claim_batch_leaves_batch_exists();
-- a batch payout's payout by the seq its id names (a payout's id is its seq's: payouts_id_of_seq)
CREATE FUNCTION claim_batch_payouts_references_exist() RETURNS trigger
  LANGUAGE plpgsql
  AS $$
BEGIN
  IF EXISTS (
    SELECT 1 FROM new_payouts n
    WHERE NOT EXISTS (SELECT 1 FROM payouts p WHERE p.seq = payout_seq_of(n.payout_id))
  ) THEN
    RAISE EXCEPTION 'claim_batch_payouts: insert names a payout that does not exist' USING ERRCODE = 'foreign_key_violation';
  END IF;
  IF EXISTS (
    SELECT 1 FROM new_payouts n
    WHERE NOT EXISTS (SELECT 1 FROM claim_batch_leaves l WHERE l.batch_id = n.batch_id AND l.leaf_index = n.leaf_index)
  ) THEN
    RAISE EXCEPTION 'claim_batch_payouts: insert names a leaf that does not exist' USING ERRCODE = 'foreign_key_violation';
  END IF;
  RETURN NULL;
END
$$;
CREATE TRIGGER claim_batch_payouts_insert AFTER INSERT ON claim_batch_payouts
  REFERENCING NEW TABLE AS new_payouts FOR EACH STATEMENT EXECUTE FUNCTION claim_batch_payouts_references_exist();

-- a leaf stays in its batch, a batch payout stays on its payout, batch and leaf
CREATE FUNCTION claim_rows_stay() RETURNS trigger
  LANGUAGE plpgsql
  AS $$
BEGIN
  RAISE EXCEPTION '%: a row keeps the rows it references', TG_TABLE_NAME USING ERRCODE = 'foreign_key_violation';
END
$$;
CREATE TRIGGER claim_batch_leaves_stay BEFORE UPDATE OF batch_id ON claim_batch_leaves
  FOR EACH ROW WHEN (NEW.batch_id IS DISTINCT FROM OLD.batch_id) EXECUTE FUNCTION claim_rows_stay();
CREATE TRIGGER claim_batch_payouts_stay BEFORE UPDATE OF payout_id, batch_id, leaf_index ON claim_batch_payouts
  FOR EACH ROW WHEN ((NEW.payout_id, NEW.batch_id, NEW.leaf_index) IS DISTINCT FROM (OLD.payout_id, OLD.batch_id, OLD.leaf_index))
  EXECUTE FUNCTION claim_rows_stay();

-- what is referenced is kept (batch payouts name a leaf of their batch, so a batch without leaves has none)
CREATE FUNCTION payouts_keep_batched() RETURNS trigger
  LANGUAGE plpgsql
  AS $$
BEGIN
  IF TG_OP = 'UPDATE' AND NEW.id = OLD.id THEN
    RETURN NEW;
  END IF;
  IF EXISTS (SELECT 1 FROM claim_batch_payouts c WHERE c.payout_id = OLD.id) THEN
    RAISE EXCEPTION 'payouts: % is carried by a distribution batch', OLD.id USING ERRCODE = 'foreign_key_violation';
  END IF;
  RETURN CASE WHEN TG_OP = 'DELETE' THEN OLD ELSE NEW END;
END
$$;
CREATE TRIGGER payouts_keep_batched BEFORE DELETE OR UPDATE OF id ON payouts
  FOR EACH ROW EXECUTE FUNCTION payouts_keep_batched();

CREATE FUNCTION claim_batches_keep_leaves() RETURNS trigger
  LANGUAGE plpgsql
  AS $$
BEGIN
  IF TG_OP = 'UPDATE' AND NEW.id = OLD.id THEN
    RETURN NEW;
  END IF;
  IF EXISTS (SELECT 1 FROM claim_batch_leaves l WHERE l.batch_id = OLD.id) THEN
    RAISE EXCEPTION 'claim_batches: % has leaves', OLD.id USING ERRCODE = 'foreign_key_violation';
  END IF;
  RETURN CASE WHEN TG_OP = 'DELETE' THEN OLD ELSE NEW END;
END
$$;
CREATE TRIGGER claim_batches_keep_leaves BEFORE DELETE OR UPDATE OF id ON claim_batches
  FOR EACH ROW EXECUTE FUNCTION claim_batches_keep_leaves();

CREATE FUNCTION claim_batch_leaves_keep_payouts() RETURNS trigger
  LANGUAGE plpgsql
  AS $$
BEGIN
  IF TG_OP = 'UPDATE' AND (NEW.batch_id, NEW.leaf_index) = (OLD.batch_id, OLD.leaf_index) THEN
    RETURN NEW;
  END IF;
  IF EXISTS (SELECT 1 FROM claim_batch_payouts c WHERE c.batch_id = OLD.batch_id AND c.leaf_index = OLD.leaf_index) THEN
    RAISE EXCEPTION 'claim_batch_leaves: leaf % of % carries payouts', OLD.leaf_index, OLD.batch_id USING ERRCODE = 'foreign_key_violation';
  END IF;
  RETURN CASE WHEN TG_OP = 'DELETE' THEN OLD ELSE NEW END;
END
$$;
CREATE TRIGGER claim_batch_leaves_keep_payouts BEFORE DELETE OR UPDATE OF batch_id, leaf_index ON claim_batch_leaves
  FOR EACH ROW EXECUTE FUNCTION claim_batch_leaves_keep_payouts();

-- the runtime role
-- records: rows are added, never changed or removed
GRANT SELECT, INSERT ON
  rewards_policy_versions, settled_stories, payout_holders, review_case_events, claim_batch_leaves, claim_batch_payouts,
  claim_receipts, claim_batch_evidence
  TO newsroom_runtime;
-- state that moves on (UPDATE, upserts, or rows locked FOR UPDATE, which needs UPDATE), never removed: challenges
-- are used once, ownerships end
GRANT SELECT, INSERT, UPDATE ON
  reward_recipients, reward_wallet_challenges, paid_action_usage, bot_owner_challenges, bot_owners, settlements, payouts,
  review_cases, claim_batches
  TO newsroom_runtime;
-- a set an operator adds to and removes from
GRANT SELECT, INSERT, DELETE ON reward_story_freezes TO newsroom_runtime;
GRANT SELECT ON bot_payout_owners TO newsroom_runtime;
-- nextval for the serial columns; a settlement run reserves a block of payout seqs with setval (needs UPDATE)
GRANT USAGE ON SEQUENCE settlements_seq_seq, payouts_seq_seq, review_cases_seq_seq, claim_batches_seq_seq TO newsroom_runtime;
GRANT UPDATE ON SEQUENCE payouts_seq_seq TO newsroom_runtime;
