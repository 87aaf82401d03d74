import { createHash } from 'node:crypto';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * `/openapi.json` as it is sent: the document's JSON, made once, with a weak ETag of its bytes (the same for each
 * encoding of it) and its brotli and gzip encodings, so that a client that has it revalidates it for a 304 and a
 * client that accepts an encoding downloads a tenth of it. The document is fixed for the life of the process.
 */
export interface ServedDocument {
  etag: string;
  identity: Buffer;
  br: Buffer;
  gzip: Buffer;
}

export function servedDocument(document: unknown): ServedDocument {
  const identity = Buffer.from(JSON.stringify(document), 'utf8');
  return {
    etag: `W/"${createHash('sha256').update(identity).digest('base64url').slice(0, 27)}"`,
    identity,
    br: brotliCompressSync(identity, {
      params: { [constants.BROTLI_PARAM_QUALITY]: 9, [constants.BROTLI_PARAM_SIZE_HINT]: identity.length },
    }),
    gzip: gzipSync(identity, { level: 9 }),
  };
}

/** The quality the client's Accept-Encoding gives `coding` (RFC 9110 §12.5.3): its own entry, else `*`, else 0. */
function quality(acceptEncoding: string, coding: string): number {
  let star = 0;
  for (const entry of acceptEncoding.split(',')) {
    const [name = '', ...params] = entry.trim().toLowerCase().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const value = q === undefined ? 1 : Number(q.slice(2));
    const weight = Number.isFinite(value) && value >= 0 && value <= 1 ? value : 0;
    if (name.trim() === coding) return weight;
    if (name.trim() === '*') star = weight;
  }
  return star;
}

/** The encoding to send: brotli, then gzip, as the client accepts them (a higher quality wins); none otherwise. */
export function chooseEncoding(acceptEncoding: string | undefined): 'br' | 'gzip' | undefined {
  if (!acceptEncoding) return undefined;
  const br = quality(acceptEncoding, 'br');
  const gzip = quality(acceptEncoding, 'gzip');
  if (br > 0 && br >= gzip) return 'br';
  return gzip > 0 ? 'gzip' : undefined;
}

/** Whether If-None-Match names this ETag (weak comparison, RFC 9110 §13.1.2), or is `*`. */
export function matchesEtag(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  const opaque = (tag: string) => tag.trim().replace(/^W\//, '');
  return ifNoneMatch.trim() === '*' || ifNoneMatch.split(',').some((tag) => opaque(tag) === opaque(etag));
}

/** Answers the document: 304 when the client has it, else its bytes in the encoding the client accepts best. */
export function sendDocument(request: FastifyRequest, reply: FastifyReply, served: ServedDocument): FastifyReply {
  reply.header('etag', served.etag).header('vary', 'accept-encoding').header('cache-control', 'no-cache');
  if (matchesEtag(request.headers['if-none-match'], served.etag)) return reply.code(304).send();
  reply.type('application/json; charset=utf-8');
  const encoding = chooseEncoding(request.headers['accept-encoding']);
  if (!encoding) return reply.send(served.identity);
  return reply.header('content-encoding', encoding).send(served[encoding]);
}
