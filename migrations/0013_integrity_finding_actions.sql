-- What admins did about a finding of the cartel analysis (docs/integrity.md, "Acting on a finding"): one row per
-- act on one flagged cluster of one analysis: dismissed with a reason, a review case opened for it (the case id),
-- or a member's payouts frozen (the member and the frozen rewards recipient). Rows are added, never changed: a
-- finding is dismissed at most once, and a dismissed finding no longer counts as waiting on the console's home.
CREATE TABLE integrity_finding_actions (
  id           text PRIMARY KEY,
  seq          bigserial NOT NULL UNIQUE,
  analysis_id  text NOT NULL REFERENCES integrity_analyses (id),
  cluster_id   text NOT NULL,
  action       text NOT NULL CHECK (action IN ('DISMISSED', 'CASE_OPENED', 'FROZEN')),
  member_kind  text CHECK (member_kind IN ('bot', 'actor')),
  member_id    text,
  reference    text,
  reason       text NOT NULL CHECK (char_length(reason) BETWEEN 1 AND 1000),
  acted_by     text NOT NULL,
  acted_at     timestamptz NOT NULL,
  CHECK ((member_id IS NULL) = (member_kind IS NULL))
);
CREATE INDEX integrity_finding_actions_finding ON integrity_finding_actions (analysis_id, cluster_id, seq);
CREATE UNIQUE INDEX integrity_finding_actions_dismissed ON integrity_finding_actions (analysis_id, cluster_id)
  WHERE action = 'DISMISSED';

-- the runtime role
-- records: rows are added, never changed or removed
GRANT SELECT, INSERT ON integrity_finding_actions TO newsroom_runtime;
GRANT USAGE ON SEQUENCE integrity_finding_actions_seq_seq TO newsroom_runtime;
