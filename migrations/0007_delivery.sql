-- Delivery: the durable webhook outbox with its delivery log (docs/webhooks.md).

-- One event per correction or retraction, its body stored byte for byte as it is sent (the signature covers these
-- bytes), and one delivery per configured endpoint.
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

-- the runtime role
-- events and attempts are records (never updated); deliveries move on. The retention command (npm run retention,
-- in operations; docs/scaling.md, "Tables that grow without end") connects as the runtime role and deletes the
-- deliveries that ended more than WEBHOOK_RETENTION_DAYS ago, with their attempts, and the events none of whose
-- deliveries remain.
GRANT SELECT, INSERT, DELETE ON webhook_events, webhook_attempts TO newsroom_runtime;
GRANT SELECT, INSERT, UPDATE, DELETE ON webhook_deliveries TO newsroom_runtime;
-- a set an operator adds to and removes from
GRANT SELECT, INSERT, DELETE ON webhook_disabled_endpoints TO newsroom_runtime;
GRANT USAGE ON SEQUENCE webhook_events_seq_seq, webhook_deliveries_seq_seq, webhook_attempts_seq_seq TO newsroom_runtime;
