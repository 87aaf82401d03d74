import type { DeliveryDatabase } from './delivery/rows.js';
import type { GovernanceDatabase } from './governance/rows.js';
import type { IdentityDatabase } from './identity/rows.js';
import type { NewsroomDatabase } from './newsroom/rows.js';
import type { PlatformDatabase } from './platform/rows.js';
import type { ReadersDatabase } from './readers/rows.js';
import type { RewardsDatabase } from './rewards/rows.js';

/**
 * The whole database, for Kysely: the tables of every owner, each declaring its row types beside its code
 * (src/<context>/rows.ts). Only the composition root, the migrations and the tools that see every table use it;
 * a context's code takes the handle of its own tables (src/<context>/tables.ts). test/platform/schema-types.test.ts
 * checks it against the migrated database, so a migration fails `npm test` until its owner declares what it changed.
 */
export interface DB
  extends PlatformDatabase, DeliveryDatabase, IdentityDatabase, GovernanceDatabase, RewardsDatabase, NewsroomDatabase, ReadersDatabase {}
