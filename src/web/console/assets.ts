import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { CLUSTER_COLOURS } from './views/cartel-graph.js';

/**
 * The console's style sheet (./assets/console.css), beside the site's (which it builds on): tables, code, forms,
 * the graph; the colours of the graph's clusters are added from the graph's own list. Read once at start.
 */
const CSS =
  readFileSync(new URL('./assets/console.css', import.meta.url), 'utf8') +
  CLUSTER_COLOURS.map((colour, i) => `.console .swatch.c${i}{background:${colour}}`).join('\n') +
  '\n';

const hash = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 12);

export const CONSOLE_ASSETS = {
  css: { path: `/assets/console-${hash(CSS)}.css`, body: CSS, type: 'text/css; charset=utf-8' },
} as const;
