import type { DB } from '../platform/db/schema.js';

/**
 * The tables delivery owns: the webhook outbox (events written in the transaction of the change they announce),
 * the deliveries with their attempts, and the endpoints switched off. Delivery's repositories take handles typed
 * to these only (`Db<DeliveryTables>`); a context that records an event hands its own wider transaction to
 * `enqueueWebhook`, which is accepted where this narrower one is asked for.
 */
export const DELIVERY_TABLES = ['webhook_events', 'webhook_deliveries', 'webhook_attempts', 'webhook_disabled_endpoints'] as const;

export type DeliveryTables = Pick<DB, (typeof DELIVERY_TABLES)[number]>;
