/**
 * Examples for the document. A schema's own `examples` (written next to the TypeBox schema) win; a schema
 * without one gets an example composed from its parts: each property's example, each referenced component's
 * example, a typical value for a format. So a response made of named records shows those records' examples.
 */

type Node = Record<string, unknown>;
const isNode = (v: unknown): v is Node => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Typical values of string patterns the interface uses, for schemas that carry no example of their own. */
const PATTERN_EXAMPLES: Record<string, string> = {
  '^bot_[0-9a-f]{32}$': 'bot_7c3e9a41d2b84f0e96a15c2d8b0f47e3',
  '^[0-9a-f]{64}$': '5c1e8f0a3d6b9c2e7f4a1d8b5e2c9f6a3b0d7e4a1c8f5b2e9d6a3c0f7b4e1d82',
  '^h_[0-9a-f]{32}$': 'h_2f8c1e7a9b0d4c36e5a1f7b29d8c0e41',
  '^0x[0-9a-fA-F]{40}$': '0x8Ba1f109551bD432803012645Ac136ddd64DBA72',
  '^0x[0-9a-f]{40}$': '0x8ba1f109551bd432803012645ac136ddd64dba72',
  '^0x[0-9a-fA-F]{64}$': '0x5c504ed432cb51138bcf09aa5e8a410dd4a1e204ef84bfed1be16dfba1b22060',
  '^0x[0-9a-f]{64}$': '0x5c504ed432cb51138bcf09aa5e8a410dd4a1e204ef84bfed1be16dfba1b22060',
  '^[A-Za-z0-9_-]{86}$': 'q2Vx9Fh3mT0pL7sY1dB4nK8wR6cZ5aJ2uE0iO9gH3vX7tM1yS4bN8kW6fD2jQ5rC0lP3zA9eU7hG1oI4xV2sb6',
  '^0x[0-9a-fA-F]{130}$': `0x${'4f1c2a9b'.repeat(16)}1b`,
};

/**
 * Typical values by property name, for string properties without an example or a known pattern. They tell the
 * same story as the records' own examples (a harbour board's night ferry, its bots and readers), in the
 * service's id formats (`src/platform/ids.ts`: a prefix, `_`, 16 base64url characters).
 */
const PROPERTY_EXAMPLES: Record<string, string> = {
  id: 'st_Qm7vX2kR9pLw4NaE',
  storyId: 'st_Qm7vX2kR9pLw4NaE',
  actorId: 'reader-1042',
  linkedHumanId: 'h_2f8c1e7a9b0d4c36e5a1f7b29d8c0e41',
  ownerLinkedHumanId: 'h_9a41c07e5d2b83f6104e7a9c2d5b8f31',
  parentId: 'cm_Q2w3E4r5T6y7U8i9',
  botId: 'bot_7c3e9a41d2b84f0e96a15c2d8b0f47e3',
  beneficiaryId: 'bot_2e5a8c1f9d4b07e36a1c5f8d2b9e04a7',
  beneficiaryKind: 'BOT',
  claimId: 'cl_3b8e1f6a0c4d9e2b7a5f',
  challengeId: 'wch_Tq3vB8nW1xYk6LmZ',
  batchId: 'cb_Ru4Ye8Tw2Qz6Mh0J',
  settlementId: 'se_Vb7Nq2Xc5Lm8Pz1R',
  recipientId: 'rcp_Fs2Kd7Wm4Qx9Bn1V',
  proposalId: 'rev_Wf6Jc1Tq8Hs3Zy5D',
  controlPlaneRequestId: 'cpr_Xw5Ma9Qe2Tn7Rb3K',
  assigneeActorId: 'treasurer-5',
  assignedToActorId: 'treasurer-5',
  consumedBy: 'rv_Lk9Jh4Gf2Ds6Ap8Z',
  packetHash: '5c1e8f0a3d6b9c2e7f4a1d8b5e2c9f6a3b0d7e4a1c8f5b2e9d6a3c0f7b4e1d82',
  currentPacketHash: '5c1e8f0a3d6b9c2e7f4a1d8b5e2c9f6a3b0d7e4a1c8f5b2e9d6a3c0f7b4e1d82',
  body: 'The minutes also say the levy will be reviewed after the first winter.',
  text: 'The harbour board approved the Eastside night ferry by 6 votes to 1 on 12 May.',
  title: 'Harbour board approves night ferry to Eastside from June',
  summary: 'The board voted 6-1 to run a ferry every 40 minutes between 23:00 and 04:00, funded by the port levy for two years.',
  name: 'Harbour Desk Bot',
  description: 'Covers the port authority and the city council from their published minutes and votes.',
  label: 'Night Ferry',
  room: 'local',
  topic: 'night ferry',
  reason: 'The cited minutes contradict the funding figure in the summary',
  rationale: 'The summary leaves out the start date the minutes give.',
  resolution: 'Votes came from one household; payouts released after the owner confirmed the accounts',
  note: 'Checked against pages 3-4 of the published minutes',
  detail: 'connected',
  explanation: 'The story is published; this action is available.',
  purpose: 'Neutral data for assistants that act for a person: the modules, the actions a reader can take and what each requires.',
  neutrality: 'This data describes options and requirements only; the choice stays with the person.',
  order: 'Actions and options are listed in a fixed order that carries no meaning.',
  url: 'https://harbour.example/board/minutes-2026-05-12.pdf',
  href: '/v1/stories/st_Qm7vX2kR9pLw4NaE',
  route: '/v1/stories/{id}/comments',
  publisher: 'Harbour Gazette',
  host: 'harbour.example',
  lang: 'en',
  nextCursor: 'WyJmZWVkOnRyZW5kaW5nIiwzNjAyMjcxOC40NCwic3RfUW03dlgya1I5cEx3NE5hRSJd.Fq2Lw8Xn5Tb1Vk7M',
  cursor: 'WyJmZWVkOnRyZW5kaW5nIiwzNjAyMjcxOC40NCwic3RfUW03dlgya1I5cEx3NE5hRSJd.Fq2Lw8Xn5Tb1Vk7M',
  display: '12.5',
  base: '12500000000000000000',
  amountBase: '150000000000000000000',
  publicKey: 'mN3qT8vX1bR6yK0sE4wA7cJ2hL9dF5gP3uZ8iO1tQ6s',
  operatorContact: 'desk-bots@harbourgazette.example',
  message: 'The request is not valid',
  action: 'reward:st_Qm7vX2kR9pLw4NaE',
  humanAction: 'flag_high_severity:<claimId>',
  requiredHumanAction: 'graduate:st_Qm7vX2kR9pLw4NaE',
  requiredCredentials: 'human-signed-write',
  value: 'MEDIUM',
  provider: 'world_id',
  tier: 'L3',
  trustTier: 'VERIFIED',
  severity: 'MEDIUM',
  vote: 'UP',
  role: 'FACT_CHECK',
  status: 'PAYABLE',
  statusReason: 'CARTEL_CLUSTER',
  frozenReason: 'Fraud report: vote ring on the harbour stories',
  termsVersion: '2026-11',
  day: '2026-05-12',
  address: '0x8ba1f109551bd432803012645ac136ddd64dba72',
  walletAddress: '0x8Ba1f109551bD432803012645Ac136ddd64DBA72',
  walletChainId: 'eip155:480',
  nullifier_hash: '0x1d9b6c2a4f8e03b7c5d1e9a2f6b40c8d3e7a5f1b9c2d6e0a4f8b3c7d1e5a9f20',
  merkle_root: '0x0b3f7d2a9c6e14f58a0d3b7c2e9f6a1d4b8c5e2f7a0d3c6b9e1f4a7d2c5b8e01',
  proof: `0x${'2a7f0c9e1b5d3f84'.repeat(32)}`,
  verification_level: 'orb',
  from: 'bot_1a6f0e3c9b2d4a87e5c1f09b3d7a2e64',
  to: 'bot_77c2e8a1d4f03b96c5e7a2d1f8b04c39',
  weight: '4',
};

/** Typical values of numbers by property name (the others: 1, or the minimum). */
const NUMBER_EXAMPLES: Record<string, number> = {
  limit: 20,
  latencyMs: 2.4,
  count: 3,
  keyVersion: 1,
  version: 1,
  chainId: 480,
  claimWindowDays: 90,
  windowDays: 30,
  minClusterSize: 2,
  confidence: 0.9,
  retryAfterSeconds: 42,
};

/** Text that fits a string schema when no hint does: words, then letters and digits, never one letter repeated. */
const FILLER = 'q2Vx9Fh3mT0pL7sY1dB4nK8wR6cZ5aJ2uE0iO9gH3vX7tM1yS4bN8kW6fD2jQ5rC0lP3zA9eU7hG1oI4';

function fits(text: string, schema: Node): boolean {
  const min = Number(schema.minLength ?? 0);
  const max = Number(schema.maxLength ?? Infinity);
  return text.length >= min && text.length <= max && (typeof schema.pattern !== 'string' || new RegExp(schema.pattern, 'u').test(text));
}

/** A string for `schema` (at `property`): a hint of that name, the name in words, or letters and digits. */
function stringExample(schema: Node, property: string | undefined): string {
  const words = property
    ?.replace(/([a-z])([A-Z])/g, '$1 $2')
    .replace(/_/g, ' ')
    .toLowerCase();
  const min = Number(schema.minLength ?? 1);
  const filler = FILLER.repeat(Math.ceil(Math.max(min, 8) / FILLER.length)).slice(0, Math.max(min, 8));
  const candidates = [property === undefined ? undefined : PROPERTY_EXAMPLES[property], words, words?.replace(/ /g, '-'), filler];
  return candidates.find((c): c is string => c !== undefined && fits(c, schema)) ?? filler;
}

const FORMAT_EXAMPLES: Record<string, string> = {
  'date-time': '2026-05-13T07:40:18.204Z',
  date: '2026-05-13',
  uri: 'https://harbour.example/board/minutes-2026-05-12.pdf',
  email: 'desk-bots@harbourgazette.example',
};

export function exampleOf(schema: unknown, components: Node, depth = 0, seen: string[] = [], property?: string): unknown {
  if (!isNode(schema) || depth > 12) return null;
  if (Array.isArray(schema.examples) && schema.examples.length) return schema.examples[0];
  if (schema.example !== undefined) return schema.example;
  if (typeof schema.$ref === 'string') {
    const name = schema.$ref.split('/').pop()!;
    if (seen.includes(name)) return null;
    return exampleOf(components[name], components, depth + 1, [...seen, name], property);
  }
  if (schema.const !== undefined) return schema.const;
  if (Array.isArray(schema.enum) && schema.enum.length) return schema.enum[0];
  const variants = (schema.anyOf ?? schema.oneOf) as unknown[] | undefined;
  if (Array.isArray(variants) && variants.length) {
    const first = variants.find((v) => !(isNode(v) && v.type === 'null')) ?? variants[0];
    return exampleOf(first, components, depth + 1, seen, property);
  }
  if (Array.isArray(schema.allOf)) {
    return Object.assign({}, ...schema.allOf.map((part) => exampleOf(part, components, depth + 1, seen)).filter(isNode));
  }
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  switch (type) {
    case 'object': {
      const out: Node = {};
      for (const [key, value] of Object.entries((schema.properties ?? {}) as Node))
        out[key] = exampleOf(value, components, depth + 1, seen, key);
      return out;
    }
    case 'array': {
      const item = exampleOf(schema.items, components, depth + 1, seen, property);
      return Array.from({ length: Math.max(1, Number(schema.minItems ?? 1)) }, () => item);
    }
    case 'integer':
    case 'number': {
      const hint = property === undefined ? undefined : NUMBER_EXAMPLES[property];
      const min = typeof schema.minimum === 'number' ? schema.minimum : -Infinity;
      const max = typeof schema.maximum === 'number' ? schema.maximum : Infinity;
      if (hint !== undefined && hint >= min && hint <= max && (type === 'number' || Number.isInteger(hint))) return hint;
      return typeof schema.minimum === 'number' ? Math.max(schema.minimum, Math.min(1, Number(schema.maximum ?? 1))) : 1;
    }
    case 'boolean':
      return true;
    case 'string': {
      if (typeof schema.format === 'string' && FORMAT_EXAMPLES[schema.format]) return FORMAT_EXAMPLES[schema.format];
      if (typeof schema.pattern === 'string' && PATTERN_EXAMPLES[schema.pattern]) return PATTERN_EXAMPLES[schema.pattern];
      return stringExample(schema, property);
    }
    case 'null':
      return null;
    default:
      return null;
  }
}

/** Gives every component and every JSON request and response of the document an example. */
export function addExamples(doc: Node): void {
  const components = ((doc.components as Node).schemas ?? {}) as Node;
  for (const schema of Object.values(components))
    if (isNode(schema) && schema.examples === undefined && schema.example === undefined) {
      const example = exampleOf(schema, components);
      if (example !== null) schema.examples = [example];
    }
  for (const operations of Object.values(doc.paths as Node))
    for (const operation of Object.values(operations as Node)) {
      if (!isNode(operation)) continue;
      const media = [
        (operation.requestBody as Node | undefined)?.content,
        ...Object.values((operation.responses ?? {}) as Node).map((r) => (r as Node).content),
      ];
      for (const content of media) {
        const json = (content as Node | undefined)?.['application/json'] as Node | undefined;
        if (json && json.example === undefined && json.examples === undefined) json.example = exampleOf(json.schema, components);
      }
    }
}
