-- Which linked human a front-end actor is: written when the actor logs in with World ID
-- (POST /v1/session/worldid/verify). A request's linkedHumanId counts (tier, allowlists, approver
-- membership) only when this table binds it to the request's actorId (CONTRACT §3).
CREATE TABLE actor_bindings (
  actor_id        text PRIMARY KEY,
  linked_human_id text NOT NULL REFERENCES human_identities (linked_human_id),
  bound_at        timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX actor_bindings_human ON actor_bindings (linked_human_id);
