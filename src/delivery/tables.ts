import type { DeliveryDatabase } from './rows.js';
import type { TableNames } from '../platform/db/row-types.js';

const names = ['webhook_events', 'webhook_deliveries', 'webhook_attempts', 'webhook_disabled_endpoints'] as const;

/**
 * The tables delivery owns: the webhook outbox (events written in the transaction of the change they announce),
 * the deliveries with their attempts, and the endpoints switched off. Delivery's repositories take handles typed
 * to these only (`Db<DeliveryTables>`); a context that records an event hands its own wider transaction to
 * `enqueueWebhook`, which is accepted where this narrower one is asked for.
 */
export const DELIVERY_TABLES: TableNames<DeliveryDatabase, typeof names> = names;

export type DeliveryTables = DeliveryDatabase;
