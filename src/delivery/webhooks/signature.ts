import { createHmac } from 'node:crypto';

/**
 * docs/webhooks.md, "What a receiver gets": `x-svc-webhook-signature: sha256=<hex HMAC-SHA256 over id.occurredAt.payloadJson>`, keyed with
 * WEBHOOK_SIGNING_SECRET, where payloadJson is the exact request body bytes. The same id and occurredAt go in
 * the `x-svc-webhook-id` and `x-svc-webhook-timestamp` headers, so a receiver signs headers and raw body.
 */
export function webhookSignature(secret: string, id: string, occurredAt: string, payloadJson: string): string {
  return `sha256=${createHmac('sha256', secret).update(`${id}.${occurredAt}.${payloadJson}`).digest('hex')}`;
}

/** The headers of one delivery attempt (identical on every retry of the event). */
export function webhookHeaders(secret: string, event: { id: string; occurredAt: string; payload: string }): Record<string, string> {
  return {
    'content-type': 'application/json; charset=utf-8',
    'user-agent': 'newsroom-service-webhooks/1',
    'x-svc-webhook-id': event.id,
    'x-svc-webhook-timestamp': event.occurredAt,
    'x-svc-webhook-signature': webhookSignature(secret, event.id, event.occurredAt, event.payload),
  };
}
