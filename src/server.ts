import closeWithGrace from 'close-with-grace';
import { buildApp } from './app.js';
import { ConfigError, loadConfig } from './config.js';

/** Entry point: load config, build the app, listen, and shut down gracefully on signals. */
async function main() {
  let config;
  try {
    config = loadConfig();
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
  if (config.publicApiKeys.length === 0 && !config.failClosed)
    app.log.warn('PUBLIC_API_KEYS is unset: candidate status and evidence reads are open (development only)');
  closeWithGrace({ delay: 10_000 }, async ({ err }) => {
    if (err) app.log.error({ err }, 'shutting down after an error');
    await app.close();
  });
  await app.listen({ port: config.port, host: config.host });
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
