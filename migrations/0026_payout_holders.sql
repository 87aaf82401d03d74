-- Whose payouts a run created, one row per person and run, instead of an index entry per payout. The bot and
-- linked-human hash indexes of payouts cost about half of a run's payout insert (a million payouts touch their
-- 10,000 keys a hundred times each, at random); a run now writes, for each bot and each linked human its payouts
-- went to, the seqs of those payouts (about 20,000 rows for a million payouts). Payouts of a bot are found through
-- its rows (a payout's bot never changes). Payouts of a linked human are found through its rows, kept to the
-- payouts still theirs, and through `reassigned`: a payout whose linked human changed after its run (an owner's
-- claim, a recipient's release) is marked by a trigger and found by a partial index on the payouts so marked.

CREATE TABLE payout_holders (
  holder_kind    text NOT NULL CHECK (holder_kind IN ('BOT', 'HUMAN')),
  holder_id      text NOT NULL,
  settlement_id  text NOT NULL REFERENCES settlements (id),
  seqs           bigint[] NOT NULL,
  PRIMARY KEY (holder_kind, holder_id, settlement_id)
);

ALTER TABLE payouts ADD COLUMN reassigned boolean NOT NULL DEFAULT false;

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

CREATE INDEX payouts_reassigned_human ON payouts USING hash (linked_human_id) WHERE reassigned;
CREATE INDEX payout_holders_settlement ON payout_holders (settlement_id);

-- A run that wrote payouts of a bot or a person without their payout_holders rows (code from before this migration,
-- still running during a rolling deploy) would leave them unfindable by person: the run's completing update (its
-- payout count, written after the payouts and their persons) is refused instead.
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

-- the payouts of earlier runs, by their bot and their linked human as they are now (none is marked reassigned)
INSERT INTO payout_holders (holder_kind, holder_id, settlement_id, seqs)
  SELECT 'BOT', bot_id, settlement_id, array_agg(seq ORDER BY seq) FROM payouts WHERE bot_id IS NOT NULL
  GROUP BY bot_id, settlement_id;
INSERT INTO payout_holders (holder_kind, holder_id, settlement_id, seqs)
  SELECT 'HUMAN', linked_human_id, settlement_id, array_agg(seq ORDER BY seq) FROM payouts WHERE linked_human_id IS NOT NULL
  GROUP BY linked_human_id, settlement_id;

DROP INDEX payouts_bot;
DROP INDEX payouts_linked_human;

-- the runtime role: a run adds its rows; they never change
GRANT SELECT, INSERT ON payout_holders TO newsroom_runtime;
