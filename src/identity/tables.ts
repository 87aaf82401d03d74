import type { IdentityDatabase } from './rows.js';
import type { TableNames } from '../platform/db/row-types.js';

const names = ['bots', 'bot_keys', 'human_identities', 'actor_bindings', 'login_challenges', 'verified_human_actions'] as const;

/**
 * The tables identity owns: agents write bots and bot_keys; humans write the human identities, the actor
 * bindings, the login challenges and the verified human actions. Identity's repositories and services take
 * handles typed to these only (`Db<IdentityTables>`), so a query of another context's table does not compile
 * there; what identity needs of a story comes through the `ActionStories` port (humans/service.ts).
 */
export const IDENTITY_TABLES: TableNames<IdentityDatabase, typeof names> = names;

export type IdentityTables = IdentityDatabase;
