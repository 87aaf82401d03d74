-- Integrity: cartel analyses (POST /v1/admin/governance/cartel/analyze) and the members each one flagged
-- (docs/integrity.md). The latest analysis (highest seq) is the finding in force: consensus discounts
-- attestations inside its clusters when integrity.clusterAttestationDiscount > 0, evaluate reads it as the
-- collusion signal, and the rewards work holds payouts of its flagged members for review.

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

-- The analysis reads a window of recent activity.
CREATE INDEX agent_reviews_created_at ON agent_reviews (created_at);
CREATE INDEX reward_votes_created_at ON reward_votes (created_at);
CREATE INDEX revision_votes_created_at ON revision_votes (created_at);
