import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

/** World's IDKit (its standalone browser bundle, @worldcoin/idkit-standalone), served from this origin. */
export const IDKIT_JS = readFileSync(createRequire(import.meta.url).resolve('@worldcoin/idkit-standalone'), 'utf8');

/**
 * The policy of the pages that run IDKit (the World ID login step, and a logged-in reader's pages when people
 * log in with World ID): scripts from this site only, as everywhere; IDKit's own injected styles, its QR code
 * (data: images) and World ID's bridge, which the World App answers through.
 */
export const WORLD_ID_CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "style-src 'self' 'unsafe-inline'",
  "script-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self' https://bridge.worldcoin.org",
  "form-action 'self'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join('; ');
