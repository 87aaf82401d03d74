-- A payout's id is made from its seq: `po-` and the seq in decimal (`po-1234`), so a run's insert keeps one
-- unique index per payout (seq, now the primary key) instead of two. The index of the ids was a fifth of the
-- insert of a million payouts: `COPY` of a run's payouts into a copy of the table took 4.4-5.8 s with it and
-- 3.3-4.7 s without, three times each (docs/performance.md, "Rewards settlement").
--
-- Ids stay unique:
-- - an id of that form is its own row's seq (payouts_id_of_seq), and seqs are unique;
-- - every other id (the ids made before this change: `po_`, a random part and a counter) is unique through
--   payouts_id_before, a unique index of the rows whose id is not of that form, empty on a new database;
-- - the two cannot meet: no id of the other kind starts with `po-`.
-- A payout is found by id through payout_seq_of (the seq the id names) and that index (payoutById in
-- src/rewards/settlements/payout-scope.ts does both).

-- The id of the payout with seq `seq`; PostgreSQL inlines it, so the check and the index predicate below cost what
-- the expression itself does (a million rows inserted in 1.70 s against 1.64 s with the expression written out).
CREATE FUNCTION payout_id_of(seq bigint) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  RETURN 'po-' || seq::text;

-- The seq an id of the `po-` form names; null for any other text.
CREATE FUNCTION payout_seq_of(id text) RETURNS bigint
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  RETURN CASE WHEN id ~ '^po-[1-9][0-9]{0,17}$' THEN substr(id, 4)::bigint END;

ALTER TABLE payouts DROP CONSTRAINT payouts_pkey;
ALTER TABLE payouts DROP CONSTRAINT payouts_seq_key, ADD CONSTRAINT payouts_pkey PRIMARY KEY (seq);
CREATE UNIQUE INDEX payouts_id_before ON payouts (id) WHERE id <> payout_id_of(seq);
ALTER TABLE payouts ADD CONSTRAINT payouts_id_of_seq CHECK (id = payout_id_of(seq) OR id NOT LIKE 'po-%');

-- The batch payouts' check of their payout, by seq for the ids of the new form and by payouts_id_before for the
-- others (the rest of the function is 0025's).
CREATE OR REPLACE FUNCTION claim_batch_payouts_references_exist() RETURNS trigger
  LANGUAGE plpgsql
  AS $$
BEGIN
  IF EXISTS (
    SELECT 1 FROM new_payouts n
    WHERE NOT EXISTS (SELECT 1 FROM payouts p WHERE p.seq = payout_seq_of(n.payout_id) AND p.id = n.payout_id)
      AND NOT EXISTS (SELECT 1 FROM payouts p WHERE p.id = n.payout_id AND p.id <> payout_id_of(p.seq))
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
