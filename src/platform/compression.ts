import compress from '@fastify/compress';
import type { FastifyInstance } from 'fastify';

/**
 * Response compression: brotli or gzip, as the client's
 * Accept-Encoding prefers, for the compressible types (HTML, CSS, JavaScript, JSON, XML, text) of at least
 * THRESHOLD_BYTES. It is transport only: the decoded body is byte for byte what an uncompressed answer
 * carries (the signatures and hashes a JSON body holds are of that body), a client that sends no
 * Accept-Encoding gets exactly the answer it got before, and request bodies are not decompressed (a signed
 * request is verified over the bytes as sent). Registered before the routes: each route's compression runs
 * last of its onSend hooks, after the read cache stored the uncompressed body and after the ETag.
 */
export const THRESHOLD_BYTES = 1024;

export async function registerCompression(app: FastifyInstance): Promise<void> {
  await app.register(compress, {
    encodings: ['br', 'gzip'],
    threshold: THRESHOLD_BYTES,
    globalDecompression: false,
  });
}
