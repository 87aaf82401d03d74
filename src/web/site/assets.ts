import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { IDKIT_JS } from './assets-account.js';

/**
 * The site's static files, real files in ./assets/ that Prettier and ESLint check: the style sheet (the account
 * forms' part in account.css), a small script that only enhances pages that work without it (site.js: "more" links
 * load the next page into the list in place, each still a plain link without JavaScript, and focus moves to the
 * first new item), the World ID script (world-id.js) and the newsroom's icon, so browsers find one without asking
 * for /favicon.ico. Read once at start; `npm run build` copies them beside the compiled code. Their URLs carry a
 * hash of their content, so they are cached for a year and a new build is fetched at once.
 */
const file = (name: string) => readFileSync(new URL(`./assets/${name}`, import.meta.url), 'utf8');

const CSS = file('site.css') + file('account.css');
const JS = file('site.js');
const ACCOUNT_JS = file('world-id.js');
const ICON = file('icon.svg');

const hash = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 12);

export const ASSETS = {
  css: { path: `/assets/site-${hash(CSS)}.css`, body: CSS, type: 'text/css; charset=utf-8' },
  js: { path: `/assets/site-${hash(JS)}.js`, body: JS, type: 'text/javascript; charset=utf-8' },
  idkit: { path: `/assets/idkit-${hash(IDKIT_JS)}.js`, body: IDKIT_JS, type: 'text/javascript; charset=utf-8' },
  worldId: { path: `/assets/world-id-${hash(ACCOUNT_JS)}.js`, body: ACCOUNT_JS, type: 'text/javascript; charset=utf-8' },
  icon: { path: `/assets/icon-${hash(ICON)}.svg`, body: ICON, type: 'image/svg+xml' },
} as const;

/** The site's pages load nothing but their own style sheet and script, and fetch nothing but the site. */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "style-src 'self'",
  "script-src 'self'",
  "img-src 'self'",
  "connect-src 'self'",
  "form-action 'self'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** The headers of every site answer (pages, error pages, the 404 page of an unknown path). */
export const SITE_HEADERS = {
  'content-security-policy': CONTENT_SECURITY_POLICY,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'same-origin',
} as const;
