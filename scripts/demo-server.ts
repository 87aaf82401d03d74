import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { seedDemoIfEmpty } from '../src/demo/seed.js';

/**
 * The service in this process on a fresh embedded database seeded with the demo newsroom, on a free loopback port,
 * with the development login and public reads unthrottled: what the page tools (Lighthouse, the screenshots) open.
 */
export async function startDemoServer(name: string) {
  const dataDir = mkdtempSync(join(tmpdir(), `${name}-newsroom-`));
  const config = loadConfig({
    ...process.env,
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    HUMAN_PROOF_VERIFIER: 'dev',
    RATE_LIMIT_PUBLIC_READS_PER_MINUTE: '100000',
  });
  const app = await buildApp(config);
  await seedDemoIfEmpty(app.ctx);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as { port: number };
  return {
    app,
    base: `http://127.0.0.1:${port}`,
    async close() {
      await app.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
