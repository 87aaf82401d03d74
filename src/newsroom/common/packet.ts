import { createHash } from 'node:crypto';
import { canonicalize } from '../../platform/canonical-json.js';
import { validationFailed } from '../../platform/errors.js';

/** A story packet: what the packet hash covers. */
export interface Packet {
  room: string;
  lang: string;
  title: string;
  summary: string;
  body: string;
  claims: { id: string; text: string }[];
  sources: { url: string; title?: string; publisher?: string }[];
}

export type PacketInput = Omit<Packet, 'claims'> & { claims: { id?: string; text: string }[] };

/** lowercase hex SHA-256 of the packet's canonical JSON. */
export function packetHash(packet: Packet): string {
  return createHash('sha256').update(canonicalize(packet)).digest('hex');
}

/**
 * Fills in missing claim ids so every claim can be flagged by id. A missing id is derived from the
 * packet's content and the claim's position (`cl_` + 20 hex), so the same packet always gets the same ids
 * and therefore the same hash; supplied ids are kept. Duplicate ids are refused.
 */
export function normalizePacket(input: PacketInput): Packet {
  const seed = canonicalize({ ...input, claims: input.claims.map((c) => c.text) });
  const claims = input.claims.map((claim, index) => ({
    id: claim.id ?? `cl_${createHash('sha256').update(`${seed}:${index}`).digest('hex').slice(0, 20)}`,
    text: claim.text,
  }));
  const seen = new Set<string>();
  for (const [i, claim] of claims.entries()) {
    if (seen.has(claim.id)) throw validationFailed([{ path: `/claims/${i}/id`, message: `duplicate claim id ${claim.id}` }]);
    seen.add(claim.id);
  }
  const urls = new Set<string>();
  for (const [i, source] of input.sources.entries()) {
    if (urls.has(source.url)) throw validationFailed([{ path: `/sources/${i}/url`, message: 'duplicate source url' }]);
    urls.add(source.url);
  }
  const sources = input.sources.map((s) => ({
    url: s.url,
    ...(s.title !== undefined ? { title: s.title } : {}),
    ...(s.publisher !== undefined ? { publisher: s.publisher } : {}),
  }));
  return { room: input.room, lang: input.lang, title: input.title, summary: input.summary, body: input.body, claims, sources };
}

/** The text of all claims, indexed for search. */
export function claimsText(packet: Packet): string {
  return packet.claims.map((c) => c.text).join('\n');
}
