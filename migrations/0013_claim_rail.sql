-- The claim rail (issue 13): distribution batches (an OpenZeppelin standard Merkle tree of the payable payouts
-- summed per bound wallet), their leaves with proofs, the payouts each batch carries, the on-chain claim
-- receipts accepted, and the batch freezes with their on-chain evidence.

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
  batch_id        text NOT NULL REFERENCES claim_batches (id),
  leaf_index      integer NOT NULL,
  wallet_address  text NOT NULL CHECK (wallet_address ~ '^0x[0-9a-f]{40}$'),
  amount_base     numeric(78, 0) NOT NULL CHECK (amount_base > 0),
  proof           jsonb NOT NULL,
  PRIMARY KEY (batch_id, leaf_index),
  UNIQUE (batch_id, wallet_address)
);

-- The constraint that puts a payout in at most one batch, whatever finalize runs race.
CREATE TABLE claim_batch_payouts (
  payout_id     text PRIMARY KEY REFERENCES payouts (id),
  batch_id      text NOT NULL REFERENCES claim_batches (id),
  leaf_index    integer NOT NULL,
  recipient_id  text NOT NULL,
  FOREIGN KEY (batch_id, leaf_index) REFERENCES claim_batch_leaves (batch_id, leaf_index)
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
