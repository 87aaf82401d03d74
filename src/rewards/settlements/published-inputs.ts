import { once } from 'node:events';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { promisify } from 'node:util';
import { constants as zlibConstants, createGzip, gunzip } from 'node:zlib';

const gunzipAsync = promisify(gunzip);

/** Contributions serialized per turn of the event loop (a few ms of work each). */
const SLICE = 5_000;

/**
 * The published inputs as stored: JSON, gzip-compressed at its fastest level. Hundreds of MB of JSON for a run of
 * a million contributions: the contributions are serialized a slice at a time into a gzip stream (compressed on
 * libuv's thread pool), so only the compressed bytes are held, never the whole JSON text, and the event loop
 * turns between slices (the payouts' COPY reads its next rows meanwhile). The JSON is exactly
 * `JSON.stringify({ ...head, contributions })`: the contributions are written as the last key.
 */
export async function compressedInputs(inputs: { contributions: readonly unknown[] }): Promise<Buffer> {
  const { contributions, ...head } = inputs;
  const gzipped = createGzip({ level: zlibConstants.Z_BEST_SPEED });
  const chunks: Buffer[] = [];
  gzipped.on('data', (chunk: Buffer) => chunks.push(chunk));
  const ended = new Promise<void>((resolve, reject) => {
    gzipped.on('end', resolve);
    gzipped.on('error', reject);
  });
  /** Writes a piece of the JSON; waits for the stream to drain when its buffer is full. */
  const write = async (text: string) => {
    if (!gzipped.write(text)) await once(gzipped, 'drain');
  };
  const opening = JSON.stringify(head);
  await write(`${opening.slice(0, -1)}${opening === '{}' ? '' : ','}"contributions":[`);
  for (let i = 0; i < contributions.length; i += SLICE) {
    if (i) {
      await write(',');
      await nextTurn();
    }
    await write(JSON.stringify(contributions.slice(i, i + SLICE)).slice(1, -1));
  }
  gzipped.end(']}');
  await ended;
  return Buffer.concat(chunks);
}

/** The published inputs of a stored settlement: gzip-compressed JSON, or json for settlements written before 0015. */
export async function storedInputs(row: { inputs: unknown; inputs_gzip: Uint8Array | null }): Promise<unknown> {
  if (!row.inputs_gzip) return row.inputs;
  return JSON.parse((await gunzipAsync(row.inputs_gzip)).toString('utf8')) as unknown;
}
