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
