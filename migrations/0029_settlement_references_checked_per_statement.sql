-- A settlement run's two inserts besides its payouts checked their references once per row: its settled_stories
-- rows (one per story it settles: 50,000 for a million contributions) a lookup and a lock of their story and of
-- the settlement, its payout_holders rows (about 20,000, one per person its payouts went to) a lookup and a lock
-- of the settlement. Each lock writes the row it locks. Both are checked once per statement instead, as the
-- payouts' reference to their settlement is (0012), with the same guarantee: every row an INSERT adds names an
-- existing story and settlement, a row keeps what it names, and a story or settlement that rows name is neither
-- deleted nor renamed.
-- The person rows are the run's last insert before it completes, and the settled stories go in while the process
-- divides the shares, ahead of the payouts' COPY on the same connection. A run's 20,000 person rows, 100,000
-- contributions, six runs each alternately: 134-286 ms, mean 228, against 209-399 ms, mean 310, with the per-row
-- key. 50,000 settled stories among 1,000,000 stories, after a checkpoint, three rounds: 0.45-0.59 s against
-- 1.35-1.74 s with the two per-row keys (both measured with the settlement looked up per row).
-- The three tables a run fills share one check of their settlement, in the form the payouts' has had since 0019
-- (one lookup per distinct settlement a statement names, not per row: a run's rows all name one), and one refusal
-- of a row that would move.

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

DROP TRIGGER payouts_settlement_insert ON payouts;
DROP TRIGGER payouts_settlement_unchanged ON payouts;
DROP FUNCTION payouts_settlement_exists();
DROP FUNCTION payouts_settlement_fixed();
CREATE TRIGGER payouts_settlement_insert AFTER INSERT ON payouts
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION rows_name_their_settlement();
CREATE TRIGGER payouts_settlement_unchanged BEFORE UPDATE OF settlement_id ON payouts
  FOR EACH ROW WHEN (NEW.settlement_id IS DISTINCT FROM OLD.settlement_id) EXECUTE FUNCTION rows_keep_their_settlement('settlement');

ALTER TABLE payout_holders DROP CONSTRAINT payout_holders_settlement_id_fkey;
CREATE TRIGGER payout_holders_settlement_insert AFTER INSERT ON payout_holders
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION rows_name_their_settlement();
CREATE TRIGGER payout_holders_settlement_unchanged BEFORE UPDATE OF settlement_id ON payout_holders
  FOR EACH ROW WHEN (NEW.settlement_id IS DISTINCT FROM OLD.settlement_id) EXECUTE FUNCTION rows_keep_their_settlement('settlement');

ALTER TABLE settled_stories DROP CONSTRAINT settled_stories_story_id_fkey;
ALTER TABLE settled_stories DROP CONSTRAINT settled_stories_settlement_id_fkey;
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

-- a settled story stays, under its id (a story is never deleted by the service; this keeps what the key kept)
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

-- what the keys kept: a settlement named by payout_holders or settled_stories rows stays (each table's index by
-- settlement finds them)
CREATE OR REPLACE FUNCTION settlements_keep_payouts() RETURNS trigger
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
