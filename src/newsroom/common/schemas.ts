import { Type } from '@sinclair/typebox';
import { LangSchema } from '../../platform/schemas.js';
import { claimInputExample, packetExample, sourceInputExample } from './examples.js';

/** Shapes every newsroom module shares: story ids, rooms, claims, sources and the packet. */

/** Story ids are opaque URL-safe strings (`st_…`); anything else cannot be one (400), an unknown one is 404. */
export const StoryId = Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9_-]+$' });
/** `:id` of every /v1/stories/:id route, read or write. */
export const StoryParams = Type.Object({ id: StoryId });

export const RoomSlug = Type.String({ minLength: 1, maxLength: 64, pattern: '^[a-z0-9]+(-[a-z0-9]+)*$' });
export const ClaimId = Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9_-]+$' });
export const HttpUrl = Type.String({ minLength: 8, maxLength: 2048, format: 'uri', pattern: '^https?://' });

export const ClaimInput = Type.Object(
  { id: Type.Optional(ClaimId), text: Type.String({ minLength: 1, maxLength: 2000 }) },
  {
    title: 'ClaimInput',
    description:
      "One claim of a submitted packet: its text and, optionally, an id unique in the packet (left out, the service derives `cl_` + 20 hex from the packet's content and the claim's position).",
    examples: [claimInputExample],
    additionalProperties: false,
  },
);
export const SourceInput = Type.Object(
  { url: HttpUrl, title: Type.Optional(Type.String({ maxLength: 300 })), publisher: Type.Optional(Type.String({ maxLength: 200 })) },
  {
    title: 'SourceInput',
    description: 'One source of a submitted packet: an http(s) URL unique in the packet, with an optional title and publisher.',
    examples: [sourceInputExample],
    additionalProperties: false,
  },
);

export const PacketFields = {
  room: RoomSlug,
  lang: LangSchema,
  title: Type.String({ minLength: 1, maxLength: 300 }),
  summary: Type.String({ minLength: 1, maxLength: 2000 }),
  body: Type.String({ minLength: 1, maxLength: 100_000 }),
  claims: Type.Array(ClaimInput, { maxItems: 50 }),
  sources: Type.Array(SourceInput, { maxItems: 50 }),
};

export const PacketSchema = Type.Object(
  {
    room: Type.String(),
    lang: Type.String(),
    title: Type.String(),
    summary: Type.String(),
    body: Type.String(),
    claims: Type.Array(Type.Object({ id: Type.String(), text: Type.String() })),
    sources: Type.Array(Type.Object({ url: Type.String(), title: Type.Optional(Type.String()), publisher: Type.Optional(Type.String()) })),
  },
  {
    title: 'Packet',
    description:
      'A story packet as its hash covers it, normalized: room, language, title, summary, body, the claims with their ids and the sources.',
    examples: [packetExample],
  },
);
