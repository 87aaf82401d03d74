import { sql } from 'kysely';
import type { Queryable, Tx } from '../../platform/db/database.js';
import type { RewardsTables } from '../tables.js';
import type { RewardsPolicyVersionsTable } from '../rows.js';

/** SQL of the versioned rewards policy (migrations/0006_rewards.sql). */

const POLICY_LOCK_KEY = 0x52_45_57_01; // 'REW' 1: serializes policy changes

export async function currentPolicy(db: Queryable<RewardsTables>): Promise<RewardsPolicyVersionsTable> {
  return db.selectFrom('rewards_policy_versions').selectAll().orderBy('version', 'desc').limit(1).executeTakeFirstOrThrow();
}

/** Takes the policy lock (until commit), so the next version number is read and written by one writer at a time. */
export async function lockPolicy(tx: Tx<RewardsTables>): Promise<void> {
  await sql`SELECT pg_advisory_xact_lock(${sql.lit(POLICY_LOCK_KEY)})`.execute(tx);
}

export async function insertPolicyVersion(tx: Tx<RewardsTables>, row: RewardsPolicyVersionsTable): Promise<void> {
  await tx.insertInto('rewards_policy_versions').values(row).execute();
}
