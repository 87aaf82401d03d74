import type { RetentionBatch, RetentionStep } from '../../platform/db/retention.js';
import type { DeliveryTables } from '../tables.js';
import { countEndedDeliveries, countSpentEvents, removeEndedDeliveries, removeSpentEvents } from './repository.js';

/**
 * The outbox's rows the retention command removes: deliveries that ended
 * (DELIVERED or DEAD) before `before`, each with its attempts and, once none of its deliveries is left, its
 * event; then a pass over the events for those created before `before` with no delivery at all (recorded while
 * no endpoint was configured). A PENDING delivery is never removed, however old, and keeps its event.
 */
export function webhookRetention(before: Date): RetentionStep<DeliveryTables> {
  /** Where the next batch starts: the deliveries' seq, then (null) the events' pass. */
  let deliveriesAfter: string | null = '0';
  let eventsAfter = '0';
  return {
    label: `webhook deliveries that ended before ${before.toISOString()}, their attempts, and the events created before then without a delivery left`,
    tables: ['webhook_attempts', 'webhook_deliveries', 'webhook_events'],
    async count(db) {
      const n = await countEndedDeliveries(db, before);
      return { webhook_attempts: n.attempts, webhook_deliveries: n.deliveries, webhook_events: await countSpentEvents(db, before) };
    },
    async removeBatch(tx, limit): Promise<RetentionBatch> {
      if (deliveriesAfter !== null) {
        const batch = await removeEndedDeliveries(tx, before, deliveriesAfter, limit);
        deliveriesAfter = batch.deliveries < limit ? null : batch.lastSeq;
        return {
          removed: { webhook_attempts: batch.attempts, webhook_deliveries: batch.deliveries, webhook_events: batch.events },
          done: false,
        };
      }
      const batch = await removeSpentEvents(tx, before, eventsAfter, limit);
      if (batch.lastSeq !== null) eventsAfter = batch.lastSeq;
      return { removed: { webhook_events: batch.events }, done: batch.events < limit };
    },
  };
}
