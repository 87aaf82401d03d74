-- Governance: parameters and the proposals that change them, emergency measures, two-person control-plane
-- requests (docs/governance.md), and the integrity (cartel) analyses with the members each flagged
-- (docs/integrity.md). Governance, control-plane and rewards changes are written to the audit log (0001_platform).

CREATE TABLE governance_parameters (
  name                   text PRIMARY KEY,
  value                  jsonb NOT NULL,
  default_value          jsonb NOT NULL,
  updated_by_proposal_id text,
  updated_at             timestamptz NOT NULL DEFAULT now()
);

-- A proposal to change governance parameters. Life cycle (src/governance/parameters/proposal-states.ts):
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

-- A change that needs several approvers (FEATURE_EXPLICIT_CONTROL_PLANE_ENABLED=1). States
-- (src/governance/control-plane/request-states.ts): PENDING -> EXECUTED (approvals reached: ready to be consumed)
-- -> CONSUMED (used by the change it names, once); PENDING | EXECUTED -> CANCELLED.
CREATE TABLE control_plane_requests (
  id                           text PRIMARY KEY,
  seq                          bigserial UNIQUE,
  action                       text NOT NULL CHECK (action IN ('governance.activate', 'governance.emergency.apply', 'governance.emergency.clear')),
  target                       text NOT NULL,
  payload                      jsonb NOT NULL,
  -- SHA-256 of the canonical JSON of payload
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

-- Integrity: cartel analyses (POST /v1/admin/governance/cartel/analyze). The latest analysis (highest seq) is the
-- finding in force: consensus discounts attestations inside its clusters when
-- integrity.clusterAttestationDiscount > 0, evaluate reads it as the collusion signal, and the rewards work holds
-- payouts of its flagged members for review.
CREATE TABLE integrity_analyses (
  id            text PRIMARY KEY,
  seq           bigserial UNIQUE,
  method        text NOT NULL,
  -- every parameter the analysis used, as answered
  parameters    jsonb NOT NULL CHECK (jsonb_typeof(parameters) = 'object'),
  window_start  timestamptz NOT NULL,
  analyzed_at   timestamptz NOT NULL,
  analyzed_by   text NOT NULL,
  -- the answer's clusters with their evidence, and the summary of the graph
  clusters      jsonb NOT NULL CHECK (jsonb_typeof(clusters) = 'array'),
  summary       jsonb NOT NULL,
  cluster_count integer NOT NULL CHECK (cluster_count >= 0),
  member_count  integer NOT NULL CHECK (member_count >= 0)
);

-- One row per member of a flagged cluster: bots by bot id, humans by actor id.
CREATE TABLE integrity_flagged_members (
  analysis_id  text NOT NULL REFERENCES integrity_analyses (id),
  member_kind  text NOT NULL CHECK (member_kind IN ('bot', 'actor')),
  member_id    text NOT NULL,
  cluster_id   text NOT NULL,
  score        double precision NOT NULL,
  PRIMARY KEY (analysis_id, member_kind, member_id)
);
CREATE INDEX integrity_flagged_members_cluster ON integrity_flagged_members (analysis_id, cluster_id);

-- the runtime role
-- records: rows are added, never changed or removed
GRANT SELECT, INSERT ON control_plane_approvals, integrity_analyses, integrity_flagged_members TO newsroom_runtime;
-- state that moves on, never removed
GRANT SELECT, INSERT, UPDATE ON governance_parameters, governance_proposals, governance_emergencies, control_plane_requests
  TO newsroom_runtime;
GRANT USAGE ON SEQUENCE governance_proposals_seq_seq, control_plane_requests_seq_seq, integrity_analyses_seq_seq
  TO newsroom_runtime;
