-- The runtime role: what the service connects as, through a LOGIN role the operator makes a member of it
-- (docs/operators.md, "Database roles"). The role that runs the migrations owns every table and keeps the powers
-- that come with it (ALTER, DROP, TRUNCATE, switching triggers off); the runtime role owns nothing and may only
-- read and write rows, table by table as the code needs. Tables that are a record (the audit chain, the ledger,
-- votes, versions, attempts, …) take rows and never change them: the runtime role may not UPDATE or DELETE
-- them, and may not switch off the triggers that guard the audit chain (session_replication_role needs a
-- superuser, DISABLE TRIGGER the owner).
--
-- Roles belong to the whole server: the role is created once and kept if it exists (a second database on the
-- same server, or a concurrent migration, finds it). Creating it needs CREATEROLE; an operator whose migration
-- role lacks it creates the role beforehand. Every later migration that creates a table or a sequence grants
-- the runtime role what the code needs of it (test/platform/db-privileges.test.ts fails otherwise).
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

-- records: rows are added, never changed or removed
GRANT SELECT, INSERT ON
  audit_events, ledger_events, story_versions, candidates, safety_traces, agent_reviews, revision_votes, comments,
  flags, reward_votes, control_plane_approvals, quarantine_decisions, story_corrections, webhook_events,
  webhook_attempts, integrity_analyses, integrity_flagged_members, rewards_policy_versions, settled_stories,
  review_case_events, claim_batch_leaves, claim_batch_payouts, claim_receipts, claim_batch_evidence
  TO newsroom_runtime;

-- state that moves on (UPDATE, upserts, or rows locked FOR UPDATE, which needs UPDATE), never removed
GRANT SELECT, INSERT, UPDATE ON
  bots, bot_keys, human_identities, user_preferences, governance_parameters, stories, story_sources,
  revision_proposals, verified_human_actions, consensus_snapshots, actor_bindings, governance_proposals,
  governance_emergencies, control_plane_requests, source_statuses, quarantine_items, legal_holds,
  webhook_deliveries, reward_recipients, reward_wallet_challenges, paid_action_usage, settlements, payouts,
  review_cases, claim_batches
  TO newsroom_runtime;

-- sets a reader or an operator adds to and removes from
GRANT SELECT, INSERT, DELETE ON user_bookmarks, user_topics, reward_story_freezes, webhook_disabled_endpoints
  TO newsroom_runtime;

-- short-lived rows that are updated and pruned (or erased on a reader's request)
GRANT SELECT, INSERT, UPDATE, DELETE ON idempotency_records, login_challenges, reading_history TO newsroom_runtime;

-- nextval for the serial columns; a settlement run reserves a block of payout seqs with setval (needs UPDATE)
GRANT USAGE ON ALL SEQUENCES IN SCHEMA public TO newsroom_runtime;
GRANT UPDATE ON SEQUENCE payouts_seq_seq TO newsroom_runtime;
