import type { RetentionStep } from '../../platform/db/retention.js';
import { countEndedDeliveries, countSpentEvents, removeEndedDeliveries, removeSpentEvents } from './repository.js';

/**
 * The outbox's rows the retention command removes, in the order it must (docs/webhooks.md, "Retention"):
 * deliveries that ended (DELIVERED or DEAD) before `before`, each with its attempts, then the events created
 * before `before` none of whose deliveries remains. A PENDING delivery is never removed, however old, and
 * keeps its event.
 */
export function webhookRetention(before: Date): RetentionStep[] {
  let deliveriesAfter = '0';
  let eventsAfter = '0';
  return [
    {
      label: `webhook deliveries that ended before ${before.toISOString()}, with their attempts`,
      tables: ['webhook_attempts', 'webhook_deliveries'],
      async count(db) {
        const n = await countEndedDeliveries(db, before);
        return { webhook_attempts: n.attempts, webhook_deliveries: n.deliveries };
      },
      async removeBatch(tx, limit) {
        const batch = await removeEndedDeliveries(tx, before, deliveriesAfter, limit);
        if (batch.lastSeq !== null) deliveriesAfter = batch.lastSeq;
        return { removed: { webhook_attempts: batch.attempts, webhook_deliveries: batch.deliveries }, done: batch.deliveries < limit };
      },
    },
    {
      label: `webhook events created before ${before.toISOString()} without a delivery left`,
      tables: ['webhook_events'],
      count: async (db) => ({ webhook_events: await countSpentEvents(db, before) }),
      async removeBatch(tx, limit) {
        const batch = await removeSpentEvents(tx, before, eventsAfter, limit);
        if (batch.lastSeq !== null) eventsAfter = batch.lastSeq;
        return { removed: { webhook_events: batch.events }, done: batch.events < limit };
      },
    },
  ];
}
