import { ConfigError, loadConfig } from '../../config.js';
import { createContext } from '../../platform/context.js';
import { runMigrations } from '../../platform/db/migrate.js';
import { createWebhookDispatcher } from './dispatcher.js';
import { createWebhookWorker } from './worker.js';

/**
 * `npm run worker`: the webhook delivery worker alone, against DATABASE_URL (the same configuration as the
 * service). Run it next to services started with WEBHOOK_WORKER=off, or next to others: claims never overlap.
 * Stops on SIGINT/SIGTERM after the attempts in flight.
 */
/** Operator output goes to stdout (the lint keeps console for warnings and errors). */
const print = (line: string) => void process.stdout.write(`${line}\n`);

async function main(): Promise<void> {
  const config = loadConfig();
  const log = { warn: (obj: unknown, msg: string) => console.warn(msg, obj) };
  const ctx = await createContext(config);
  await runMigrations(ctx.database);
  const dispatcher = createWebhookDispatcher({
    allowPrivateAddresses: config.webhooks.allowPrivateAddresses,
    timeoutMs: config.webhooks.timeoutMs,
  });
  const worker = createWebhookWorker({ transactor: ctx.transactor, config: config.webhooks, clock: ctx.clock, dispatcher, log });
  worker.start();
  print(`webhook worker ${worker.name} started (${config.webhooks.endpoints.length} endpoints)`);
  const stop = async () => {
    await worker.stop();
    await dispatcher.close();
    await ctx.database.close();
    ctx.redis?.disconnect();
    process.exit(0);
  };
  process.once('SIGINT', () => void stop());
  process.once('SIGTERM', () => void stop());
}

main().catch((err: unknown) => {
  console.error(err instanceof ConfigError ? `configuration error: ${err.message}` : err);
  process.exit(err instanceof ConfigError ? 78 : 1);
});
