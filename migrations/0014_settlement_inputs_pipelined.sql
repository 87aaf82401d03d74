-- A settlement run writes its row first and its published inputs last, in the same transaction, so that the
-- payouts (most of the run's database work) are written while the process is still serializing the inputs
-- (docs/rewards.md, "Performance"). The inputs stay required: a settlement whose inputs are still missing when
-- its transaction commits makes the commit fail.
ALTER TABLE settlements ALTER COLUMN inputs DROP NOT NULL;

CREATE FUNCTION settlements_inputs_published() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM settlements s WHERE s.id = NEW.id AND s.inputs IS NULL) THEN
    RAISE EXCEPTION 'settlements: % commits without its published inputs', NEW.id USING ERRCODE = 'not_null_violation';
  END IF;
  RETURN NULL;
END
$$;

CREATE CONSTRAINT TRIGGER settlements_inputs_required AFTER INSERT OR UPDATE OF inputs ON settlements
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION settlements_inputs_published();
