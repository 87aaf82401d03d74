#!/usr/bin/env node
// The `newsroom-agent` command. A published package runs its compiled dist/bin.js; inside the service's
// repository, where the SDK is not compiled, the TypeScript source runs through tsx.
import { existsSync } from 'node:fs';

const built = new URL('../dist/bin.js', import.meta.url);
if (existsSync(built)) {
  await import(built.href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import(new URL('../bin.ts', import.meta.url).href);
}
