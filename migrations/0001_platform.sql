-- The baseline of the first release, split per bounded context (one file per top folder of src/ that owns tables,
-- in the order of their dependencies: a context's file references only tables of itself and of the files before it).
-- Migrations are forward-only from here on (docs/migrations.md).
--
-- Platform: the runtime role, idempotency records and the audit log.

-- The runtime role: what the service connects as, through a LOGIN role the operator makes a member of it
-- (docs/operators.md, "Database roles"). The role that runs the migrations owns every table and keeps the powers
-- that come with it (ALTER, DROP, TRUNCATE, switching triggers off); the runtime role owns nothing and may only
-- read and write rows, table by table as the code needs. Tables that are a record (the audit chain, the ledger,
-- votes, versions, attempts, …) take rows and never change them: the runtime role may not UPDATE or DELETE
-- them, and may not switch off the triggers that guard the audit chain (session_replication_role needs a
-- superuser, DISABLE TRIGGER the owner). Each context's file grants the runtime role what its code needs of its
-- own tables and sequences; a later migration that creates a table or a sequence does the same
-- (test/platform/db-privileges.test.ts fails otherwise).
--
-- Roles belong to the whole server: the role is created once and kept if it exists (a second database on the
-- same server, or a concurrent migration, finds it). Creating it needs CREATEROLE; an operator whose migration
-- role lacks it creates the role beforehand.
DO $$
BEGIN
  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'newsroom_runtime') THEN
    CREATE ROLE newsroom_runtime NOLOGIN;
  END IF;
EXCEPTION WHEN duplicate_object OR unique_violation THEN
  NULL; -- created meanwhile by a migration of another database on the same server
END
$$;

DO $$
BEGIN
  IF EXISTS (SELECT FROM pg_roles WHERE rolname = 'newsroom_runtime'
               AND (rolsuper OR rolcreaterole OR rolcreatedb OR rolreplication OR rolbypassrls)) THEN
    RAISE EXCEPTION 'newsroom_runtime must be a plain role (no SUPERUSER, CREATEROLE, CREATEDB, REPLICATION or BYPASSRLS)';
  END IF;
END
$$;

GRANT USAGE ON SCHEMA public TO newsroom_runtime;

-- readiness compares the applied migrations with those on disk
GRANT SELECT ON schema_migrations TO newsroom_runtime;

-- The runtime role may not create temporary tables. A temporary table lives in the session's own schema, which
-- is searched before public: one created on a connection would stand in for the table of the same name in every
-- later unqualified statement of that connection. The service never needs one (bulk inserts COPY into their
-- tables, nothing keeps session state: docs/operators.md, "Behind PgBouncer"), nor do the migrations.
--
-- TEMPORARY (TEMP is the same privilege) is granted on every database to PUBLIC by default, so it is revoked from
-- PUBLIC, and from newsroom_runtime in case it was granted to it by name. Only the database's owner (or a
-- superuser) can revoke it: run by another role, the REVOKE changes nothing (PostgreSQL only warns), and the check
-- below warns with the statement to run as the database's owner. A privilege of the database is not copied
-- with it: a database made with CREATE DATABASE … TEMPLATE, or restored without --create, needs the statement again
-- (docs/operators.md, "Database roles").
DO $$
BEGIN
  EXECUTE format('REVOKE TEMPORARY ON DATABASE %I FROM PUBLIC, newsroom_runtime', current_database());
  IF has_database_privilege('newsroom_runtime', current_database(), 'TEMPORARY') THEN
    RAISE WARNING 'newsroom_runtime may still create temporary tables: as the owner of the database, run REVOKE TEMPORARY ON DATABASE % FROM PUBLIC, newsroom_runtime',
      quote_ident(current_database());
  END IF;
END
$$;

-- Responses remembered per (scope, key) so a retried write answers exactly as the first one did.
CREATE TABLE idempotency_records (
  scope        text NOT NULL,
  key          text NOT NULL,
  request_hash text NOT NULL,
  status_code  integer,
  response     jsonb,
  created_at   timestamptz NOT NULL DEFAULT now(),
  expires_at   timestamptz NOT NULL,
  PRIMARY KEY (scope, key)
);
CREATE INDEX idempotency_records_expires_at ON idempotency_records (expires_at);

-- The audit log: an append-only hash chain of governance, control-plane, moderation and rewards changes. Each row
-- stores the previous row's hash and its own SHA-256 over the canonical JSON of its fields and that previous hash
-- (src/platform/audit/chain.ts); the first row's previous hash is 64 zeros. Appends are serialized by a
-- transaction-scoped advisory lock; the database itself refuses UPDATE, DELETE and TRUNCATE, and refuses an INSERT
-- that does not extend the chain.
CREATE TABLE audit_events (
  seq              bigint PRIMARY KEY CHECK (seq >= 1),
  id               text NOT NULL UNIQUE,
  scope            text NOT NULL CHECK (scope IN ('GOVERNANCE', 'CONTROL_PLANE', 'MODERATION', 'REWARDS')),
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

-- the runtime role: retried writes are remembered and pruned; the audit chain takes rows and never changes
GRANT SELECT, INSERT, UPDATE, DELETE ON idempotency_records TO newsroom_runtime;
GRANT SELECT, INSERT ON audit_events TO newsroom_runtime;
