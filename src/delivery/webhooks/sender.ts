import { request, type Dispatcher } from 'undici';
import { AddressRefusedError, checkEndpoint, HostNotAllowedError, type AddressPolicy } from './address-policy.js';
import { retryAfterMs } from './backoff.js';
import { webhookHeaders } from './signature.js';

/** What one attempt came to: delivered, worth retrying (maybe not before retryAfterMs), or never to be retried. */
export type SendResult =
  | { kind: 'delivered'; statusCode: number }
  | { kind: 'retry'; statusCode: number | null; error: string; retryAfterMs?: number }
  | { kind: 'gone'; statusCode: 410 }
  | { kind: 'refused'; error: string };

/** The cause of a failure, for the delivery log: never a header, never the payload, never the secret. */
function describe(err: unknown): string {
  if (err instanceof Error) {
    const cause = (err as { cause?: unknown }).cause;
    const code = (err as { code?: string }).code;
    const base = code ? `${code}: ${err.message}` : err.message;
    return cause instanceof Error ? `${base} (${cause.message})` : base;
  }
  return String(err);
}

function refusal(err: unknown): AddressRefusedError | HostNotAllowedError | null {
  for (let e: unknown = err; e instanceof Error; e = (e as { cause?: unknown }).cause) {
    if (e instanceof AddressRefusedError || e instanceof HostNotAllowedError) return e;
  }
  return null;
}

/**
 * One delivery attempt: POST the stored body with the event's headers through the SSRF-checking dispatcher.
 * 2xx delivers; 410 Gone disables the endpoint; a 3xx is a failure (redirects are never followed: undici's
 * request does not follow them); anything else, a timeout or a network error is retried.
 */
export async function sendWebhook(input: {
  endpoint: string;
  event: { id: string; occurredAt: string; payload: string };
  secret: string;
  dispatcher: Dispatcher;
  policy: AddressPolicy;
  timeoutMs: number;
  now: number;
}): Promise<SendResult> {
  let url: URL;
  try {
    url = new URL(input.endpoint);
    checkEndpoint(url, input.policy);
  } catch (err) {
    return { kind: 'refused', error: describe(err) };
  }
  try {
    const res = await request(url, {
      method: 'POST',
      dispatcher: input.dispatcher,
      headers: webhookHeaders(input.secret, input.event),
      body: input.event.payload,
      signal: AbortSignal.timeout(input.timeoutMs),
    });
    await res.body.dump({ limit: 65_536 }).catch(() => undefined);
    if (res.statusCode >= 200 && res.statusCode < 300) return { kind: 'delivered', statusCode: res.statusCode };
    if (res.statusCode === 410) return { kind: 'gone', statusCode: 410 };
    const after = retryAfterMs(res.headers['retry-after'], input.now);
    return {
      kind: 'retry',
      statusCode: res.statusCode,
      error: res.statusCode >= 300 && res.statusCode < 400 ? `redirect ${res.statusCode} not followed` : `HTTP ${res.statusCode}`,
      ...(after !== undefined ? { retryAfterMs: after } : {}),
    };
  } catch (err) {
    const refused = refusal(err);
    if (refused) return { kind: 'refused', error: refused.message };
    return { kind: 'retry', statusCode: null, error: describe(err) };
  }
}
