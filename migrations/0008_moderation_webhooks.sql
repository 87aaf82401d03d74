-- Moderation (quarantine decisions, legal holds, source statuses), corrections and retractions, and the
-- durable webhook outbox with its delivery log (docs/moderation.md, docs/webhooks.md).

-- The host of a source URL, lowercased, without a leading "www.": the identity of a source across stories.
CREATE FUNCTION source_host(url text) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ SELECT regexp_replace(lower(substring(url from '^[A-Za-z][A-Za-z0-9+.-]*://(?:[^/?#@]*@)?([^/?#:]+)')), '^www\.', '') $$;

ALTER TABLE story_sources ADD COLUMN host text GENERATED ALWAYS AS (source_host(url)) STORED;
CREATE INDEX story_sources_host ON story_sources (host);

-- A content admin's rating of a source (host). No row: UNRATED. BANNED quarantines new candidates citing it.
CREATE TABLE source_statuses (
  host                 text PRIMARY KEY CHECK (host ~ '^[a-z0-9][a-z0-9.-]{0,252}$'),
  status               text NOT NULL CHECK (status IN ('UNRATED', 'TRUSTED', 'WATCH', 'BANNED')),
  reason               text NOT NULL,
  updated_by           text NOT NULL,
  updated_by_actor_id  text NOT NULL,
  updated_at           timestamptz NOT NULL
);

-- What the safety scan held back (QUARANTINE or BLOCK), waiting for a content admin's decision.
-- OPEN -> RELEASED | BLOCKED (final) or KEPT (still hidden; may be decided again).
CREATE TABLE quarantine_items (
  id                    text PRIMARY KEY,
  seq                   bigserial UNIQUE,
  scope_type            text NOT NULL CHECK (scope_type IN ('story')),
  scope_id              text NOT NULL,
  trace_id              text NOT NULL REFERENCES safety_traces (id),
  status                text NOT NULL DEFAULT 'OPEN' CHECK (status IN ('OPEN', 'KEPT', 'RELEASED', 'BLOCKED')),
  created_at            timestamptz NOT NULL,
  decided_by            text,
  decided_by_actor_id   text,
  decided_at            timestamptz,
  decision_reason       text,
  CHECK (status = 'OPEN' OR (decided_by IS NOT NULL AND decided_at IS NOT NULL AND decision_reason IS NOT NULL))
);
-- one undecided or kept item per scope: a rescan of a held story updates nothing new
CREATE UNIQUE INDEX quarantine_items_one_pending ON quarantine_items (scope_type, scope_id) WHERE status IN ('OPEN', 'KEPT');
CREATE INDEX quarantine_items_status ON quarantine_items (status, seq DESC);

-- Every decision on a quarantine item (the item keeps the last one).
CREATE TABLE quarantine_decisions (
  id               text PRIMARY KEY,
  item_id          text NOT NULL REFERENCES quarantine_items (id),
  decision         text NOT NULL CHECK (decision IN ('RELEASE', 'KEEP', 'BLOCK')),
  reason           text NOT NULL,
  decided_by       text NOT NULL,
  decided_by_actor_id text NOT NULL,
  decided_at       timestamptz NOT NULL
);
CREATE INDEX quarantine_decisions_item ON quarantine_decisions (item_id, decided_at);

-- A legal hold freezes a story: no correction, retraction, revision or hiding while ACTIVE.
CREATE TABLE legal_holds (
  id                   text PRIMARY KEY,
  seq                  bigserial UNIQUE,
  story_id             text NOT NULL REFERENCES stories (id),
  status               text NOT NULL DEFAULT 'ACTIVE' CHECK (status IN ('ACTIVE', 'RELEASED')),
  reason               text NOT NULL,
  case_reference       text,
  placed_by            text NOT NULL,
  placed_by_actor_id   text NOT NULL,
  placed_at            timestamptz NOT NULL,
  released_by          text,
  released_by_actor_id text,
  released_at          timestamptz,
  release_reason       text,
  CHECK (status = 'ACTIVE' OR (released_by IS NOT NULL AND released_at IS NOT NULL AND release_reason IS NOT NULL))
);
CREATE UNIQUE INDEX legal_holds_one_active ON legal_holds (story_id) WHERE status = 'ACTIVE';
CREATE INDEX legal_holds_status ON legal_holds (status, seq DESC);

-- Corrections and retractions issued by content admins, each with its ledger event and webhook event.
CREATE TABLE story_corrections (
  id                  text PRIMARY KEY,
  story_id            text NOT NULL REFERENCES stories (id),
  kind                text NOT NULL CHECK (kind IN ('CORRECTION', 'RETRACTION')),
  version             integer NOT NULL,
  note                text NOT NULL,
  ledger_event_id     text NOT NULL REFERENCES ledger_events (id),
  webhook_event_id    text NOT NULL,
  created_by          text NOT NULL,
  created_by_actor_id text NOT NULL,
  created_at          timestamptz NOT NULL
);
CREATE INDEX story_corrections_story ON story_corrections (story_id, created_at);

-- The webhook outbox: one event per correction or retraction, its body stored byte for byte as it is sent
-- (the signature covers these bytes), and one delivery per configured endpoint.
CREATE TABLE webhook_events (
  id           text PRIMARY KEY,
  seq          bigserial UNIQUE,
  type         text NOT NULL CHECK (type IN ('story.correction', 'story.retraction')),
  story_id     text NOT NULL REFERENCES stories (id),
  occurred_at  text NOT NULL,
  payload      text NOT NULL,
  created_at   timestamptz NOT NULL
);

-- PENDING: due at next_attempt_at (a claim pushes next_attempt_at past the request timeout: a worker that dies
-- mid-delivery leaves the row due again); DELIVERED; DEAD: too old, endpoint gone (410) or refused (SSRF rules).
CREATE TABLE webhook_deliveries (
  id               text PRIMARY KEY,
  seq              bigserial UNIQUE,
  event_id         text NOT NULL REFERENCES webhook_events (id),
  endpoint         text NOT NULL,
  status           text NOT NULL DEFAULT 'PENDING' CHECK (status IN ('PENDING', 'DELIVERED', 'DEAD')),
  attempts         integer NOT NULL DEFAULT 0,
  next_attempt_at  timestamptz NOT NULL,
  created_at       timestamptz NOT NULL,
  last_attempt_at  timestamptz,
  last_status_code integer,
  last_error       text,
  delivered_at     timestamptz,
  dead_at          timestamptz,
  UNIQUE (event_id, endpoint)
);
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at) WHERE status = 'PENDING';
CREATE INDEX webhook_deliveries_status ON webhook_deliveries (status, seq DESC);

-- The delivery log: one row per attempt.
CREATE TABLE webhook_attempts (
  id           text PRIMARY KEY,
  seq          bigserial UNIQUE,
  delivery_id  text NOT NULL REFERENCES webhook_deliveries (id),
  attempt      integer NOT NULL,
  started_at   timestamptz NOT NULL,
  status_code  integer,
  error        text,
  outcome      text NOT NULL CHECK (outcome IN ('DELIVERED', 'RETRY', 'DEAD')),
  worker       text NOT NULL
);
CREATE INDEX webhook_attempts_delivery ON webhook_attempts (delivery_id, attempt);

-- Endpoints that answered 410 Gone: no new deliveries until an operator enables them again.
CREATE TABLE webhook_disabled_endpoints (
  endpoint     text PRIMARY KEY,
  disabled_at  timestamptz NOT NULL,
  reason       text NOT NULL
);

-- Moderation decisions join the audit chain.
ALTER TABLE audit_events DROP CONSTRAINT audit_events_scope_check;
ALTER TABLE audit_events ADD CONSTRAINT audit_events_scope_check CHECK (scope IN ('GOVERNANCE', 'CONTROL_PLANE', 'MODERATION'));
