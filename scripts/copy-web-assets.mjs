#!/usr/bin/env node
// Part of `npm run build`: tsc emits only the compiled code (and the JSON it imports), so the web layer's
// static files (src/web/<room>/assets/: style sheets, browser scripts, the icon) are copied beside it, where
// the compiled modules read them at start (dist/src/web/<room>/assets/).
import { cpSync, existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

const web = 'src/web';
for (const room of readdirSync(web)) {
  const assets = join(web, room, 'assets');
  if (existsSync(assets)) cpSync(assets, join('dist', assets), { recursive: true });
}
