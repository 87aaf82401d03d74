import type { Database } from '../../src/platform/db/database.js';
import type { DB } from '../../src/tables.js';

/**
 * Records a linked human with its tier and binds `actorId` to it, as a World ID login does: afterwards the
 * actor's signed requests may carry that linkedHumanId.
 */
export async function bindActor(database: Database<DB>, actorId: string, linkedHumanId: string, tier: 'L2' | 'L3' = 'L3'): Promise<void> {
  const { db } = database;
  await db
    .insertInto('human_identities')
    .values({ linked_human_id: linkedHumanId, tier, provider: tier === 'L3' ? 'world_id' : 'passport' })
    .onConflict((oc) => oc.column('linked_human_id').doNothing())
    .execute();
  await db
    .insertInto('actor_bindings')
    .values({ actor_id: actorId, linked_human_id: linkedHumanId })
    .onConflict((oc) => oc.column('actor_id').doUpdateSet({ linked_human_id: linkedHumanId }))
    .execute();
}
