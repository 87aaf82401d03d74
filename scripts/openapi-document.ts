// The OpenAPI document of the app, built in process (an in-memory database, no migrations, no network):
//   tsx scripts/openapi-document.ts <file>       writes it to <file> (npm run lint lints that file)
//   tsx scripts/openapi-document.ts --types      regenerates sdk/openapi.ts from it
import { writeFileSync } from 'node:fs';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { generatedTypes, GENERATED_TYPES_FILE } from './openapi-types.js';

/** The document /openapi.json serves, from an app built with placeholder secrets. */
export async function openapiDocument(): Promise<Record<string, unknown>> {
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    DATA_DIR: 'memory://',
    SEED_DEMO: '0',
    PUBLIC_BASE_URL: 'http://127.0.0.1:8080',
  });
  const app = await buildApp(config, { logger: false, migrate: false });
  try {
    return structuredClone(app.swagger()) as Record<string, unknown>;
  } finally {
    await app.close();
  }
}

const target = process.argv[2];
if (target) {
  const doc = await openapiDocument();
  if (target === '--types') writeFileSync(GENERATED_TYPES_FILE, await generatedTypes(doc));
  else writeFileSync(target, JSON.stringify(doc, null, 2));
}
