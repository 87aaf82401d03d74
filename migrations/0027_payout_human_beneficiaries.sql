-- A reader's payouts as a flagger paid by actor id (a HUMAN payout whose beneficiary is the actor: a flagger with no
-- linked human) were found by reading every payout, as the index on the beneficiary never existed: the reader's
-- rewards dashboard and data export read them on each request. A partial index holds only the HUMAN payouts (a
-- run's flaggers, a small part of its payouts), so a run's insert evaluates its predicate and adds few entries.
CREATE INDEX payouts_human_beneficiary ON payouts (beneficiary_id) WHERE beneficiary_kind = 'HUMAN';
