-- The retention command (npm run retention; docs/scaling.md, "Tables that grow without end") connects as the
-- runtime role and deletes webhook deliveries that ended more than WEBHOOK_RETENTION_DAYS ago, with their
-- attempts, and the events none of whose deliveries remain. The runtime role may therefore delete these rows;
-- it still may not change an event or an attempt (no UPDATE: a record stays as it was written until it goes).
GRANT DELETE ON webhook_events, webhook_attempts, webhook_deliveries TO newsroom_runtime;
