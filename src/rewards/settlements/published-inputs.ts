import { endianness } from 'node:os';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { promisify } from 'node:util';
import { constants as zlibConstants, gunzip, gzip } from 'node:zlib';
import type { PublishedContribution } from './payout-rows.js';

const gzipAsync = promisify(gzip);
const gunzipAsync = promisify(gunzip);

/**
 * The fields of a published contribution, in the order its JSON has always had them. The stored form keeps one
 * column per field, in this order, of numbers into its list of texts; the read gives the objects back with their
 * fields in this order.
 */
const FIELDS = [
  'storyId',
  'role',
  'beneficiaryKind',
  'beneficiaryId',
  'weight',
  'units',
  'storyVoteWeight',
  'owner',
] as const satisfies readonly (keyof PublishedContribution)[];

/** The first bytes of the packed form once unzipped. */
const PACKED = Buffer.from('packed-inputs/1\n', 'latin1');

/** Contributions numbered per turn of the event loop (the payouts' COPY reads its next rows between slices). */
const SLICE = 50_000;

/** The column value of a null field. */
const NULL = -1;

/**
 * The published inputs as stored: gzip (fastest level, on libuv's thread pool) of a packed form. A run of a million
 * contributions repeats a few tens of thousands of texts (story, bot and person ids, roles, weights), so the form
 * keeps each text once and each contribution as eight numbers into that list:
 * - `packed-inputs/1\n`;
 * - the byte length of the header (uint32, little-endian), then the header, JSON: `{ head, fields, texts, count }`,
 *   `head` being every key of the inputs but `contributions`, in order;
 * - one column per field, `count` int32 little-endian each: the index of the field's text, -1 for null.
 *
 * `storedInputs` gives back exactly the object that was packed (the JSON of the two is the same text). For a
 * million contributions packing costs about 0.7 s of CPU and stores about 5.5 MB; serializing them as JSON and
 * compressing it cost 1.45-1.69 s and stored 18.1 MB.
 */
export async function compressedInputs<T extends { contributions: readonly PublishedContribution[] }>(inputs: T): Promise<Buffer> {
  const { contributions, ...head } = inputs;
  const count = contributions.length;
  // A Map, not platform/interner.ts: a run's texts are the same few string objects met again and again, whose hash
  // V8 keeps, where the Interner hashes each string's characters (made for fresh strings from the driver); packing
  // a million contributions with it took 0.79-1.25 s of CPU against 0.90 s.
  const ids = new Map<string, number>();
  const texts: string[] = [];
  const idOf = (text: string | null): number => {
    if (text === null) return NULL;
    let id = ids.get(text);
    if (id === undefined) {
      id = texts.length;
      texts.push(text);
      ids.set(text, id);
    }
    return id;
  };
  const columns = new Int32Array(FIELDS.length * count);
  for (let from = 0; from < count; from += SLICE) {
    if (from) await nextTurn();
    const to = Math.min(count, from + SLICE);
    // field by field, in the order of FIELDS, which the header names for the read
    for (let f = 0; f < FIELDS.length; f++) {
      const field = FIELDS[f]!;
      const column = f * count;
      for (let i = from; i < to; i++) columns[column + i] = idOf(contributions[i]![field]);
    }
  }
  const header = Buffer.from(JSON.stringify({ head, fields: FIELDS, texts, count }), 'utf8');
  const length = Buffer.alloc(4);
  length.writeUInt32LE(header.length);
  const body = Buffer.from(columns.buffer, columns.byteOffset, columns.byteLength);
  if (endianness() === 'BE') body.swap32();
  return gzipAsync(Buffer.concat([PACKED, length, header, body]), { level: zlibConstants.Z_BEST_SPEED });
}

interface PackedHeader {
  head: Record<string, unknown>;
  fields: string[];
  texts: string[];
  count: number;
}

/** Unpacks the packed form (after its first line). */
function unpack(raw: Buffer): Record<string, unknown> {
  const start = PACKED.length + 4;
  const headerEnd = start + raw.readUInt32LE(PACKED.length);
  const { head, fields, texts, count } = JSON.parse(raw.toString('utf8', start, headerEnd)) as PackedHeader;
  const text = (field: number, i: number): string | null => {
    const id = raw.readInt32LE(headerEnd + 4 * (field * count + i));
    return id === NULL ? null : texts[id]!;
  };
  const contributions = new Array<Record<string, string | null>>(count);
  for (let i = 0; i < count; i++) {
    const c: Record<string, string | null> = {};
    for (let f = 0; f < fields.length; f++) c[fields[f]!] = text(f, i);
    contributions[i] = c;
  }
  return { ...head, contributions };
}

/** The published inputs of a stored settlement (settlements.inputs_gzip, as compressedInputs wrote them). */
export async function storedInputs(row: { inputs_gzip: Uint8Array | null }): Promise<unknown> {
  if (!row.inputs_gzip) throw new Error('the settlement has no published inputs');
  const raw = await gunzipAsync(row.inputs_gzip);
  if (!(raw.length >= PACKED.length && raw.subarray(0, PACKED.length).equals(PACKED)))
    throw new Error('the published inputs are not of the packed form');
  return unpack(raw);
}
