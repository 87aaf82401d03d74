-- A settlement's published inputs (tens of MB of JSON for a large run) are written gzip-compressed by the
-- service, which compresses them off its event loop while the database is still inserting the payouts: the
-- database then receives a few MB, neither parses them as JSON nor compresses them again (storage EXTERNAL),
-- instead of about half a second of receiving, validating and compressing a large json value in the middle of
-- the run (docs/rewards.md, "Performance"). Settlements written before keep their json `inputs`; each row has
-- exactly one of the two once committed.
ALTER TABLE settlements ADD COLUMN inputs_gzip bytea;
ALTER TABLE settlements ALTER COLUMN inputs_gzip SET STORAGE EXTERNAL;
ALTER TABLE settlements ADD CONSTRAINT settlements_inputs_once CHECK (inputs IS NULL OR inputs_gzip IS NULL);

CREATE OR REPLACE FUNCTION settlements_inputs_published() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM settlements s WHERE s.id = NEW.id AND s.inputs IS NULL AND s.inputs_gzip IS NULL) THEN
    RAISE EXCEPTION 'settlements: % commits without its published inputs', NEW.id USING ERRCODE = 'not_null_violation';
  END IF;
  RETURN NULL;
END
$$;

DROP TRIGGER settlements_inputs_required ON settlements;
CREATE CONSTRAINT TRIGGER settlements_inputs_required AFTER INSERT OR UPDATE OF inputs, inputs_gzip ON settlements
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION settlements_inputs_published();
