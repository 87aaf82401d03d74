import type { DB } from '../platform/db/schema.js';

/**
 * The tables identity owns: agents write bots and bot_keys; humans write the human identities, the actor
 * bindings, the login challenges and the verified human actions. Identity's repositories and services take
 * handles typed to these only (`Db<IdentityTables>`), so a query of another context's table does not compile
 * there; what identity needs of a story comes through the `ActionStories` port (humans/service.ts). The row
 * types still live in platform/db/schema.ts, beside the tables of the contexts not yet narrowed.
 */
export const IDENTITY_TABLES = [
  'bots',
  'bot_keys',
  'human_identities',
  'actor_bindings',
  'login_challenges',
  'verified_human_actions',
] as const;

export type IdentityTables = Pick<DB, (typeof IDENTITY_TABLES)[number]>;
