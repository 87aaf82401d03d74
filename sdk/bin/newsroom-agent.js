#!/usr/bin/env node
// The `newsroom-agent` command. The package (the tarball `npm pack` makes) holds the compiled dist/ and no
// TypeScript source: it runs dist/bin.js. Inside the service's repository the source is here, and it runs through
// tsx, so a dist/ left over from an earlier build there never shadows the code being worked on.
import { existsSync } from 'node:fs';

const source = new URL('../bin.ts', import.meta.url);
if (existsSync(source)) {
  const { register } = await import('tsx/esm/api');
  register();
  await import(source.href);
} else {
  await import(new URL('../dist/bin.js', import.meta.url).href);
}
