-- Governance and the emergency control plane: parameter proposals, emergency measures, two-person
-- control-plane requests, and the append-only, hash-chained audit log they write (docs/governance.md).

-- A proposal to change governance parameters. Life cycle (src/modules/governance/proposal-states.ts):
-- DRAFT -> RATIFIED -> ACTIVE, DRAFT -> REJECTED, DRAFT | RATIFIED -> SUPERSEDED.
CREATE TABLE governance_proposals (
  id                     text PRIMARY KEY,
  seq                    bigserial UNIQUE,
  title                  text NOT NULL,
  rationale              text NOT NULL,
  -- { "<parameter>": <value> }, checked against the registry when proposed and again when activated
  changes                jsonb NOT NULL CHECK (jsonb_typeof(changes) = 'object'),
  status                 text NOT NULL DEFAULT 'DRAFT' CHECK (status IN ('DRAFT', 'RATIFIED', 'ACTIVE', 'REJECTED', 'SUPERSEDED')),
  created_by             text NOT NULL,
  created_by_actor_id    text NOT NULL,
  created_at             timestamptz NOT NULL,
  -- the ratification or rejection: a verified human (linkedHumanId) and the proof's verified action
  decided_by             text,
  decided_at             timestamptz,
  decision_action_id     text REFERENCES verified_human_actions (id),
  activated_by           text,
  activated_at           timestamptz,
  activation_request_id  text,
  superseded_by          text REFERENCES governance_proposals (id),
  superseded_at          timestamptz,
  updated_at             timestamptz NOT NULL
);
CREATE INDEX governance_proposals_open ON governance_proposals (seq) WHERE status IN ('DRAFT', 'RATIFIED');

-- Emergency measures: an overlay of raised thresholds laid over the parameters while ACTIVE. At most one
-- emergency is active at a time (the partial unique index); cleared ones stay as history.
CREATE TABLE governance_emergencies (
  id                     text PRIMARY KEY,
  status                 text NOT NULL CHECK (status IN ('ACTIVE', 'CLEARED')),
  overlay                jsonb NOT NULL CHECK (jsonb_typeof(overlay) = 'object'),
  -- the evaluation that tripped it: each signal with its numbers and thresholds
  signals                jsonb NOT NULL,
  activated_by           text NOT NULL,
  activated_at           timestamptz NOT NULL,
  activation_request_id  text,
  cleared_by             text,
  cleared_at             timestamptz,
  clear_reason           text,
  clear_request_id       text
);
CREATE UNIQUE INDEX governance_emergencies_one_active ON governance_emergencies ((true)) WHERE status = 'ACTIVE';
CREATE INDEX governance_emergencies_cleared ON governance_emergencies (cleared_at DESC) WHERE status = 'CLEARED';

-- Health signals of evaluate: flags and objections per hour.
CREATE INDEX flags_created_at ON flags (created_at);
CREATE INDEX agent_reviews_objections_created_at ON agent_reviews (created_at) WHERE kind = 'OBJECTION';

-- A change that needs several approvers (FEATURE_EXPLICIT_CONTROL_PLANE_ENABLED=1). States
-- (src/modules/control-plane/request-states.ts): PENDING -> EXECUTED (approvals reached: ready to be consumed)
-- -> CONSUMED (used by the change it names, once); PENDING | EXECUTED -> CANCELLED.
CREATE TABLE control_plane_requests (
  id                           text PRIMARY KEY,
  seq                          bigserial UNIQUE,
  action                       text NOT NULL CHECK (action IN ('governance.activate', 'governance.emergency.apply', 'governance.emergency.clear')),
  target                       text NOT NULL,
  payload                      jsonb NOT NULL,
  -- SHA-256 of the canonical JSON of payload (CONTRACT §3 canonical form)
  payload_hash                 text NOT NULL CHECK (payload_hash ~ '^[0-9a-f]{64}$'),
  reason                       text NOT NULL,
  status                       text NOT NULL DEFAULT 'PENDING' CHECK (status IN ('PENDING', 'EXECUTED', 'CONSUMED', 'CANCELLED')),
  requested_by                 text NOT NULL,
  requested_by_actor_id        text NOT NULL,
  approvals_required           integer NOT NULL CHECK (approvals_required >= 1),
  approval_count               integer NOT NULL DEFAULT 0 CHECK (approval_count >= 0),
  created_at                   timestamptz NOT NULL,
  executed_at                  timestamptz,
  consumed_at                  timestamptz,
  consumed_by                  text,
  cancelled_at                 timestamptz,
  cancelled_by                 text,
  cancel_reason                text,
  CHECK (status <> 'PENDING' OR (executed_at IS NULL AND consumed_at IS NULL AND cancelled_at IS NULL)),
  CHECK (status <> 'EXECUTED' OR executed_at IS NOT NULL),
  CHECK (status <> 'CONSUMED' OR (executed_at IS NOT NULL AND consumed_at IS NOT NULL)),
  CHECK (status <> 'CANCELLED' OR cancelled_at IS NOT NULL)
);
CREATE INDEX control_plane_requests_status ON control_plane_requests (status, seq DESC);
CREATE INDEX control_plane_requests_action ON control_plane_requests (action, seq DESC);

-- One approval per approver (identity key) per request: distinct approvers are a database rule.
CREATE TABLE control_plane_approvals (
  request_id          text NOT NULL REFERENCES control_plane_requests (id),
  approver            text NOT NULL,
  approver_actor_id   text NOT NULL,
  verified_action_id  text NOT NULL REFERENCES verified_human_actions (id),
  approved_at         timestamptz NOT NULL,
  PRIMARY KEY (request_id, approver)
);

-- The audit log: an append-only hash chain. Each row stores the previous row's hash and its own SHA-256 over
-- the canonical JSON of its fields and that previous hash (src/platform/audit/chain.ts); the first row's
-- previous hash is 64 zeros. Appends are serialized by a transaction-scoped advisory lock; the database
-- itself refuses UPDATE, DELETE and TRUNCATE, and refuses an INSERT that does not extend the chain.
CREATE TABLE audit_events (
  seq              bigint PRIMARY KEY CHECK (seq >= 1),
  id               text NOT NULL UNIQUE,
  scope            text NOT NULL CHECK (scope IN ('GOVERNANCE', 'CONTROL_PLANE')),
  action           text NOT NULL,
  actor_id         text NOT NULL,
  linked_human_id  text,
  target           text NOT NULL,
  details          jsonb NOT NULL,
  created_at       timestamptz NOT NULL,
  prev_hash        text NOT NULL CHECK (prev_hash ~ '^[0-9a-f]{64}$'),
  hash             text NOT NULL UNIQUE CHECK (hash ~ '^[0-9a-f]{64}$')
);
CREATE INDEX audit_events_scope ON audit_events (scope, seq);

CREATE FUNCTION audit_events_refuse_change() RETURNS trigger
  LANGUAGE plpgsql
  AS $$
BEGIN
  RAISE EXCEPTION 'audit_events is append-only: % refused', TG_OP USING ERRCODE = 'object_not_in_prerequisite_state';
END
$$;

-- TRUNCATE fires no row trigger: a statement-level BEFORE TRUNCATE trigger refuses it.
CREATE TRIGGER audit_events_no_update_delete BEFORE UPDATE OR DELETE ON audit_events
  FOR EACH ROW EXECUTE FUNCTION audit_events_refuse_change();
CREATE TRIGGER audit_events_no_truncate BEFORE TRUNCATE ON audit_events
  FOR EACH STATEMENT EXECUTE FUNCTION audit_events_refuse_change();

-- An inserted row must follow the last one: the next seq and the last row's hash as prev_hash. The lock is the
-- one the application's append takes (AUDIT_LOCK_KEY in src/platform/audit/audit-log.ts).
CREATE FUNCTION audit_events_link() RETURNS trigger
  LANGUAGE plpgsql
  AS $$
DECLARE
  last_seq bigint;
  last_hash text;
BEGIN
  PERFORM pg_advisory_xact_lock(7346221002);
  SELECT seq, hash INTO last_seq, last_hash FROM audit_events ORDER BY seq DESC LIMIT 1;
  IF NEW.seq <> coalesce(last_seq, 0) + 1 OR NEW.prev_hash <> coalesce(last_hash, repeat('0', 64)) THEN
    RAISE EXCEPTION 'audit_events: row % does not extend the chain (last row %)', NEW.seq, coalesce(last_seq, 0)
      USING ERRCODE = 'object_not_in_prerequisite_state';
  END IF;
  RETURN NEW;
END
$$;
CREATE TRIGGER audit_events_extend_chain BEFORE INSERT ON audit_events
  FOR EACH ROW EXECUTE FUNCTION audit_events_link();
