import { createHash } from 'node:crypto';
import type { onSendAsyncHookHandler } from 'fastify';

/**
 * ETags of the site's answers: a weak validator, the SHA-1 of the
 * uncompressed body of a 200 to GET or HEAD. A request whose If-None-Match lists it is answered 304 with no
 * body. The hook runs on every site route before the read cache's and the compression's own: the read cache
 * keeps the ETag with the body it stores, and a body served from it comes with that ETag, which is not hashed
 * again.
 * Weak, because the one validator stands for the identity, gzip and brotli encodings of the same page.
 */
export const pageEtag: onSendAsyncHookHandler = async (request, reply, payload) => {
  if (reply.statusCode !== 200 || (request.method !== 'GET' && request.method !== 'HEAD')) return payload;
  if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return payload;
  // a body from the read cache comes with the ETag this hook gave it when it was read (src/platform/read-cache.ts)
  const stored = reply.getHeader('etag');
  const etag = typeof stored === 'string' ? stored : `W/"${createHash('sha1').update(payload).digest('base64url')}"`;
  reply.header('etag', etag);
  if (matches(request.headers['if-none-match'], etag)) {
    reply.code(304);
    reply.removeHeader('content-length');
    return '';
  }
  return payload;
};

/** If-None-Match by the weak comparison: `*`, or any listed tag equal to ours with or without its W/. */
function matches(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  const opaque = etag.slice(2);
  return header.split(',').some((tag) => {
    const t = tag.trim();
    return t === '*' || t === etag || t === opaque;
  });
}
