import type { ServerOptions } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import type { Config } from '../config.js';
import { appError } from './errors.js';

/**
 * The HTTP edge: the limits and timeouts of Node's server, set explicitly from the config, and the
 * drain that SIGTERM starts.
 */

export interface Lifecycle {
  /** Set when shutdown begins: /readyz answers 503 and every answer carries `connection: close`. */
  draining: boolean;
}

declare module 'fastify' {
  interface FastifyInstance {
    lifecycle: Lifecycle;
  }
}

/** Fastify's server options for the limits: Node's http server gets them at creation (`http`). */
export function httpServerOptions(http: Config['http']): Pick<
  FastifyServerOptions,
  'bodyLimit' | 'keepAliveTimeout' | 'requestTimeout' | 'return503OnClosing'
> & {
  http: ServerOptions;
} {
  return {
    bodyLimit: http.bodyLimitBytes,
    // Fastify sets these two on the server itself after creating it (its own defaults: 72 s and none)
    keepAliveTimeout: http.keepAliveTimeoutMs,
    requestTimeout: http.requestTimeoutMs,
    // a request arriving on an open connection while the app closes is served (the database closes only after
    // the last connection), with `connection: close`; Fastify's own 503 body is not the contract's
    return503OnClosing: false,
    http: {
      maxHeaderSize: http.maxHeaderBytes,
      headersTimeout: http.headersTimeoutMs,
      requestTimeout: http.requestTimeoutMs,
      keepAliveTimeout: http.keepAliveTimeoutMs,
      connectionsCheckingInterval: http.connectionsCheckingIntervalMs,
    },
  };
}

/** The URL limit (414 with the contract body) and the drain's `connection: close`, before any other hook. */
export function registerEdgeGuards(app: FastifyInstance, http: Config['http']): void {
  const lifecycle: Lifecycle = { draining: false };
  app.decorate('lifecycle', lifecycle);
  // plain callbacks, as every request runs them (src/app.ts)
  app.addHook('onRequest', (request, _reply, done) => {
    if ((request.raw.url ?? '').length > http.maxUrlBytes)
      done(appError('URI_TOO_LONG', { message: `The request target is longer than ${http.maxUrlBytes} bytes` }));
    else done();
  });
  // at onSend, so that a request already in flight when the drain began closes its connection too
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (lifecycle.draining) reply.header('connection', 'close');
    done(null, payload);
  });
}

/**
 * Graceful shutdown: readiness turns 503 (and answers say `connection: close`) for `readinessDelayMs` while
 * requests are still served; then the listener closes (new connections are refused), idle keep-alive
 * connections are closed and requests in flight finish, for at most `timeoutMs` (then the connections still
 * open are cut); then the app closes: the webhook worker finishes its attempts in flight and stops, and the
 * database pool and Redis close.
 */
export async function drainAndClose(app: FastifyInstance, shutdown: Config['shutdown']): Promise<{ forced: boolean }> {
  app.lifecycle.draining = true;
  if (shutdown.readinessDelayMs > 0) await sleep(shutdown.readinessDelayMs);
  let forced = false;
  if (app.server.listening) {
    const closed = new Promise<void>((resolve) => app.server.close(() => resolve()));
    app.server.closeIdleConnections();
    const timer = setTimeout(() => {
      forced = true;
      app.log.warn({ timeoutMs: shutdown.timeoutMs }, 'shutdown: connections still open after SHUTDOWN_TIMEOUT_MS are cut');
      app.server.closeAllConnections();
    }, shutdown.timeoutMs);
    await closed;
    clearTimeout(timer);
  }
  await app.close();
  return { forced };
}
