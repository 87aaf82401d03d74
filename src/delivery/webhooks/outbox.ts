import type { Tx } from '../../platform/db/database.js';
import type { DeliveryTables } from '../tables.js';
import type { WebhookEventType } from '../rows.js';
import { newId } from '../../platform/ids.js';
import { disabledEndpoints, insertDeliveries, insertWebhookEvent } from './repository.js';

/** The event data, as docs/webhooks.md shows receivers: `{ storyId, ledgerEventId, title, reason, ... }`. */
export interface WebhookData {
  storyId: string;
  ledgerEventId: string;
  title: string;
  reason: string;
  [more: string]: unknown;
}

/**
 * Writes a webhook event and one delivery per configured endpoint (except endpoints disabled by a 410) in the
 * caller's transaction: the event exists exactly when the change it reports commits. The body is fixed here,
 * byte for byte, so every retry sends (and signs) the same bytes with the same id.
 */
export async function enqueueWebhook(
  tx: Tx<DeliveryTables>,
  input: { type: WebhookEventType; data: WebhookData; endpoints: readonly string[]; at: Date },
): Promise<{ id: string; payload: string }> {
  const id = newId('whe');
  const occurredAt = input.at.toISOString();
  const payload = JSON.stringify({ id, type: input.type, occurredAt, data: input.data });
  await insertWebhookEvent(tx, { id, type: input.type, storyId: input.data.storyId, occurredAt, payload, at: input.at });
  const disabled = input.endpoints.length ? await disabledEndpoints(tx) : new Set<string>();
  await insertDeliveries(
    tx,
    input.endpoints.filter((e) => !disabled.has(e)).map((endpoint) => ({ id: newId('whd'), eventId: id, endpoint, at: input.at })),
  );
  return { id, payload };
}
