import { setImmediate as nextTurn } from 'node:timers/promises';
import { promisify } from 'node:util';
import { constants as zlibConstants, gunzip, gzip } from 'node:zlib';

const gzipAsync = promisify(gzip);
const gunzipAsync = promisify(gunzip);

/** Contributions serialized per turn of the event loop (a few ms of work each). */
const SLICE = 5_000;

/**
 * The published inputs as stored: JSON, gzip-compressed at its fastest level. Tens of MB of JSON for a large run:
 * the contributions are serialized a slice at a time, letting the event loop turn between slices (the payouts'
 * COPY reads its next rows meanwhile), and compressed on libuv's thread pool. The JSON is exactly
 * `JSON.stringify({ ...head, contributions })`: the contributions are written as the last key.
 */
export async function compressedInputs(inputs: { contributions: readonly unknown[] }): Promise<Buffer> {
  const { contributions, ...head } = inputs;
  const opening = JSON.stringify(head);
  const parts = [`${opening.slice(0, -1)}${opening === '{}' ? '' : ','}"contributions":[`];
  for (let i = 0; i < contributions.length; i += SLICE) {
    if (i) {
      parts.push(',');
      await nextTurn();
    }
    parts.push(JSON.stringify(contributions.slice(i, i + SLICE)).slice(1, -1));
  }
  parts.push(']}');
  return gzipAsync(parts.join(''), { level: zlibConstants.Z_BEST_SPEED });
}

/** The published inputs of a stored settlement: gzip-compressed JSON, or json for settlements written before 0015. */
export async function storedInputs(row: { inputs: unknown; inputs_gzip: Uint8Array | null }): Promise<unknown> {
  if (!row.inputs_gzip) return row.inputs;
  return JSON.parse((await gunzipAsync(row.inputs_gzip)).toString('utf8')) as unknown;
}
