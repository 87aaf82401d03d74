import closeWithGrace from 'close-with-grace';
import { buildApp } from './app.js';
import { ConfigError, loadConfig } from './config.js';
import { DEMO_ADMINS, type LocalDemo, prepareLocalDemo } from './local-demo.js';
import { DatabaseRefusedError } from './platform/db/database.js';
import { drainAndClose } from './platform/http-edge.js';
import { missingNodeFlags } from './platform/node-flags.js';

/** Entry point: load config, build the app, listen, and shut down gracefully on signals. */
async function main() {
  let config;
  let demo: LocalDemo | undefined;
  try {
    demo = prepareLocalDemo(process.env);
    config = loadConfig(demo?.env ?? process.env);
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(`configuration error: ${err.message}`);
      process.exit(78);
    }
    throw err;
  }
  const app = await buildApp(config);
  if (config.seedDemo) {
    const { seedDemoIfEmpty } = await import('./demo/seed.js');
    const seeded = await seedDemoIfEmpty(app.ctx);
    if (seeded) app.log.info(seeded, 'seeded the demo newsroom');
  }
  if (demo) {
    // where the secrets are, never the secrets themselves
    app.log.info(
      { secretsFile: demo.secretsFile, supplies: demo.supplies, created: demo.created },
      `local demo: ${demo.supplies.length ? `${demo.supplies.join(' and ')} of this data directory are` : 'this data directory keeps its secrets'} in ${demo.secretsFile} (humanSigningSecret, operationsToken; mode 0600); set the variables to use your own`,
    );
    app.log.info(
      { agentbookFile: demo.agentbookFile },
      `local demo: a local AgentBook in ${demo.agentbookFile}; register a bot's wallet with: npm run agentbook:register -- <0x address>`,
    );
    if (demo.demoAdmins)
      app.log.info(
        `local demo: the console (/console) admits the development login’s ${DEMO_ADMINS.CONTENT_ADMIN_IDS.join(', ')} (content admins and approvers) and ${DEMO_ADMINS.REWARDS_ADMIN_IDS.join(', ')} (rewards admins); set CONTENT_ADMIN_IDS, REWARDS_ADMIN_IDS or CONTROL_PLANE_APPROVER_LINKED_HUMAN_IDS to choose your own`,
      );
  }
  const missing = missingNodeFlags();
  if (missing.length > 0)
    app.log.warn({ missing }, 'started without the node flags the service runs with (npm start passes them; docs/operators.md)');
  if (config.publicApiKeys.length === 0 && !config.failClosed)
    app.log.warn('PUBLIC_API_KEYS is unset: candidate status and evidence reads are open (development only)');
  // SIGTERM/SIGINT drain (src/platform/http-edge.ts); past the drain's own bounds plus 10 s for the worker's
  // attempts in flight and the pools, close-with-grace exits with 1
  const { readinessDelayMs, timeoutMs } = config.shutdown;
  closeWithGrace({ delay: readinessDelayMs + timeoutMs + config.webhooks.timeoutMs + 10_000 }, async ({ err, signal }) => {
    if (err) app.log.error({ err }, 'shutting down after an error');
    else app.log.info({ signal }, 'shutting down: draining');
    const started = Date.now();
    const { forced } = await drainAndClose(app, config.shutdown);
    app.log.info({ ms: Date.now() - started, forced }, 'shut down');
  });
  await app.listen({ port: config.port, host: config.host });
}

main().catch((err: unknown) => {
  if (err instanceof DatabaseRefusedError) {
    console.error(`refusing to start: ${err.message}`);
    process.exit(1);
  }
  console.error(err);
  process.exit(1);
});
