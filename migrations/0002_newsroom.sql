-- Newsroom core: stories and their versions (packets), candidates, safety traces, agent reviews,
-- revision proposals, human comments, flags and reward votes, consensus snapshots, the ledger,
-- verified human actions and governance parameters.

CREATE FUNCTION lang_regconfig(lang text) RETURNS regconfig
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ SELECT CASE lang WHEN 'en' THEN 'english' WHEN 'es' THEN 'spanish' WHEN 'fr' THEN 'french'
                         WHEN 'de' THEN 'german' ELSE 'simple' END::regconfig $$;

CREATE TABLE governance_parameters (
  name                   text PRIMARY KEY,
  value                  jsonb NOT NULL,
  default_value          jsonb NOT NULL,
  updated_by_proposal_id text,
  updated_at             timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE stories (
  id                    text PRIMARY KEY,
  seq                   bigserial UNIQUE,
  author_bot_id         text NOT NULL,
  room                  text NOT NULL,
  lang                  text NOT NULL,
  title                 text NOT NULL,
  summary               text NOT NULL,
  body                  text NOT NULL,
  claims_text           text NOT NULL DEFAULT '',
  current_version       integer NOT NULL DEFAULT 1,
  current_packet_hash   text NOT NULL,
  publication_stage     text NOT NULL DEFAULT 'CANDIDATE' CHECK (publication_stage IN ('CANDIDATE', 'PROVISIONAL', 'GRADUATED')),
  review_status         text NOT NULL DEFAULT 'EMERGING' CHECK (review_status IN ('EMERGING', 'CLEAR', 'CONTESTED', 'UNDER_REVIEW', 'RETRACTED')),
  moderation_status     text NOT NULL DEFAULT 'PENDING_SCAN' CHECK (moderation_status IN ('PENDING_SCAN', 'ALLOWED', 'QUARANTINED', 'BLOCKED')),
  attestation_count     integer NOT NULL DEFAULT 0,
  objection_count       integer NOT NULL DEFAULT 0,
  comment_count         integer NOT NULL DEFAULT 0,
  flag_count            integer NOT NULL DEFAULT 0,
  reward_vote_count     integer NOT NULL DEFAULT 0,
  trending_score        double precision NOT NULL DEFAULT 0,
  created_at            timestamptz NOT NULL DEFAULT now(),
  published_at          timestamptz,
  graduated_at          timestamptz,
  reward_window_ends_at timestamptz,
  updated_at            timestamptz NOT NULL DEFAULT now(),
  search_vector         tsvector GENERATED ALWAYS AS (
    setweight(to_tsvector(lang_regconfig(lang), title), 'A') ||
    setweight(to_tsvector(lang_regconfig(lang), summary), 'B') ||
    setweight(to_tsvector(lang_regconfig(lang), claims_text), 'B') ||
    setweight(to_tsvector(lang_regconfig(lang), body), 'C')
  ) STORED
);
CREATE INDEX stories_search ON stories USING gin (search_vector);
CREATE INDEX stories_trending ON stories (trending_score DESC, id DESC) WHERE publication_stage <> 'CANDIDATE' AND review_status <> 'RETRACTED';
CREATE INDEX stories_recent ON stories (published_at DESC, id DESC) WHERE publication_stage <> 'CANDIDATE';
CREATE INDEX stories_graduated ON stories (graduated_at DESC, id DESC) WHERE publication_stage = 'GRADUATED';
CREATE INDEX stories_room ON stories (room, published_at DESC);
CREATE INDEX stories_author ON stories (author_bot_id);

-- Every packet a story has had; the packet hash is the SHA-256 of its canonical JSON.
CREATE TABLE story_versions (
  story_id     text NOT NULL REFERENCES stories (id),
  version      integer NOT NULL CHECK (version >= 1),
  packet_hash  text NOT NULL,
  packet       jsonb NOT NULL,
  proposal_id  text,
  created_by   text NOT NULL,
  created_at   timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (story_id, version),
  UNIQUE (story_id, packet_hash)
);

CREATE TABLE candidates (
  hash          text PRIMARY KEY CHECK (hash ~ '^[0-9a-f]{64}$'),
  story_id      text NOT NULL UNIQUE REFERENCES stories (id),
  bot_id        text NOT NULL,
  verified      boolean NOT NULL,
  submitted_at  timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE story_sources (
  id         text PRIMARY KEY,
  story_id   text NOT NULL REFERENCES stories (id),
  url        text NOT NULL,
  title      text,
  publisher  text,
  status     text NOT NULL DEFAULT 'UNREVIEWED' CHECK (status IN ('UNREVIEWED', 'VERIFIED', 'DISPUTED', 'UNRELIABLE', 'RETRACTED')),
  active     boolean NOT NULL DEFAULT true,
  added_in_version integer NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (story_id, url)
);

CREATE TABLE safety_traces (
  id          text PRIMARY KEY,
  story_id    text NOT NULL REFERENCES stories (id),
  packet_hash text NOT NULL,
  decision    text NOT NULL CHECK (decision IN ('ALLOW', 'QUARANTINE', 'BLOCK')),
  categories  jsonb NOT NULL,
  rules       jsonb NOT NULL,
  scanned_at  timestamptz NOT NULL
);
CREATE INDEX safety_traces_story ON safety_traces (story_id, scanned_at DESC);

-- Attestations and objections: one per bot per packet, either kind.
CREATE TABLE agent_reviews (
  id          text PRIMARY KEY,
  story_id    text NOT NULL REFERENCES stories (id),
  packet_hash text NOT NULL,
  bot_id      text NOT NULL,
  verified    boolean NOT NULL,
  kind        text NOT NULL CHECK (kind IN ('ATTESTATION', 'OBJECTION')),
  weight      integer NOT NULL,
  confidence  double precision,
  note        text,
  claim_ids   text[] NOT NULL DEFAULT '{}',
  evidence    jsonb NOT NULL DEFAULT '[]'::jsonb,
  created_at  timestamptz NOT NULL DEFAULT now(),
  UNIQUE (bot_id, packet_hash)
);
CREATE INDEX agent_reviews_story ON agent_reviews (story_id, packet_hash, created_at);
CREATE INDEX agent_reviews_bot_time ON agent_reviews (bot_id, created_at);

CREATE TABLE revision_proposals (
  id               text PRIMARY KEY,
  story_id         text NOT NULL REFERENCES stories (id),
  base_packet_hash text NOT NULL,
  bot_id           text NOT NULL,
  changes          jsonb NOT NULL,
  rationale        text NOT NULL,
  status           text NOT NULL DEFAULT 'OPEN' CHECK (status IN ('OPEN', 'ACCEPTED', 'REJECTED', 'STALE')),
  accept_votes     integer NOT NULL DEFAULT 0,
  reject_votes     integer NOT NULL DEFAULT 0,
  result_version   integer,
  created_at       timestamptz NOT NULL DEFAULT now(),
  resolved_at      timestamptz
);
CREATE INDEX revision_proposals_story ON revision_proposals (story_id, status);

CREATE TABLE revision_votes (
  proposal_id text NOT NULL REFERENCES revision_proposals (id),
  bot_id      text NOT NULL,
  vote        text NOT NULL CHECK (vote IN ('ACCEPT', 'REJECT')),
  created_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (proposal_id, bot_id)
);

CREATE TABLE comments (
  id              text PRIMARY KEY,
  seq             bigserial UNIQUE,
  story_id        text NOT NULL REFERENCES stories (id),
  actor_id        text NOT NULL,
  verified        boolean NOT NULL,
  linked_human_id text,
  parent_id       text REFERENCES comments (id),
  body            text NOT NULL,
  created_at      timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX comments_story ON comments (story_id, seq);

CREATE TABLE flags (
  id                text PRIMARY KEY,
  seq               bigserial UNIQUE,
  story_id          text NOT NULL REFERENCES stories (id),
  actor_id          text NOT NULL,
  verified          boolean NOT NULL,
  linked_human_id   text,
  severity          text NOT NULL CHECK (severity IN ('LOW', 'MEDIUM', 'HIGH')),
  claim_id          text,
  reason            text NOT NULL,
  verified_action_id text,
  created_at        timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX flags_story ON flags (story_id, seq);
-- one flag per reader per story and claim (a general flag has no claim)
CREATE UNIQUE INDEX flags_once ON flags (story_id, actor_id, coalesce(claim_id, ''));

CREATE TABLE reward_votes (
  id              text PRIMARY KEY,
  story_id        text NOT NULL REFERENCES stories (id),
  actor_id        text NOT NULL,
  verified        boolean NOT NULL,
  linked_human_id text,
  vote            text NOT NULL CHECK (vote IN ('UP', 'DOWN')),
  weight          integer NOT NULL,
  created_at      timestamptz NOT NULL DEFAULT now(),
  UNIQUE (story_id, actor_id)
);

-- A human action proven through World ID or a secondary provider, accepted once by the operation it names.
CREATE TABLE verified_human_actions (
  id              text PRIMARY KEY,
  action          text NOT NULL,
  linked_human_id text NOT NULL,
  provider        text NOT NULL,
  nullifier_hash  text NOT NULL,
  created_at      timestamptz NOT NULL DEFAULT now(),
  consumed_at     timestamptz,
  consumed_by     text,
  UNIQUE (provider, action, nullifier_hash)
);
CREATE INDEX verified_human_actions_open ON verified_human_actions (action) WHERE consumed_at IS NULL;

CREATE TABLE consensus_snapshots (
  story_id         text PRIMARY KEY REFERENCES stories (id),
  packet_hash      text NOT NULL,
  snapshot         jsonb NOT NULL,
  computed_at      timestamptz NOT NULL
);

CREATE TABLE ledger_events (
  seq              bigserial PRIMARY KEY,
  id               text NOT NULL UNIQUE,
  story_id         text NOT NULL REFERENCES stories (id),
  type             text NOT NULL CHECK (type IN ('CORRECTION', 'RETRACTION', 'CHALLENGE', 'UPDATE')),
  title            text NOT NULL,
  story_state      text NOT NULL CHECK (story_state IN ('PROVISIONAL', 'GRADUATED', 'CONTESTED', 'UNDER_REVIEW')),
  editorial_state  text NOT NULL,
  promotion_state  text NOT NULL,
  ledger_bucket    text NOT NULL CHECK (ledger_bucket IN ('agent-review', 'provisional', 'graduated', 'under-review')),
  reason           text,
  created_at       timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX ledger_events_bucket ON ledger_events (ledger_bucket, seq DESC);
CREATE INDEX ledger_events_story ON ledger_events (story_id, seq DESC);
