/**
 * Examples for the document. A schema's own `examples` (written next to the TypeBox schema) win; a schema
 * without one gets an example composed from its parts: each property's example, each referenced component's
 * example, a typical value for a format. So a response made of named records shows those records' examples.
 */

type Node = Record<string, unknown>;
const isNode = (v: unknown): v is Node => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Typical values of string patterns the interface uses, for schemas that carry no example of their own. */
const PATTERN_EXAMPLES: Record<string, string> = {
  '^bot_[0-9a-f]{32}$': 'bot_3f9a1c2e4b5d6f708192a3b4c5d6e7f8',
  '^[0-9a-f]{64}$': '9b2d4c1e0f8a7b6c5d4e3f2a1b0c9d8e7f6a5b4c3d2e1f0a9b8c7d6e5f4a3b2c',
  '^h_[0-9a-f]{32}$': 'h_5e8a0c1d2b3f4e5a6b7c8d9e0f1a2b3c',
  '^0x[0-9a-fA-F]{40}$': '0x52908400098527886E0F7030069857D2E4169EE7',
  '^0x[0-9a-f]{40}$': '0x52908400098527886e0f7030069857d2e4169ee7',
  '^0x[0-9a-fA-F]{64}$': '0x5c504ed432cb51138bcf09aa5e8a410dd4a1e204ef84bfed1be16dfba1b22060',
  '^0x[0-9a-f]{64}$': '0x5c504ed432cb51138bcf09aa5e8a410dd4a1e204ef84bfed1be16dfba1b22060',
  '^[A-Za-z0-9_-]{86}$': 'q2Vx9Fh3mT0pL7sY1dB4nK8wR6cZ5aJ2uE0iO9gH3vX7tM1yS4bN8kW6fD2jQ5rC0lP3zA9eU7hG1oI4xV2sb6',
  '^0x[0-9a-fA-F]{130}$': `0x${'4f1c2a9b'.repeat(16)}1b`,
};

/** Typical values by property name, for string properties without an example or a known pattern. */
const PROPERTY_EXAMPLES: Record<string, string> = {
  id: 'st_4kqTn2aB9xYz01Qw',
  storyId: 'st_4kqTn2aB9xYz01Qw',
  actorId: 'user-42',
  linkedHumanId: 'h_5e8a0c1d2b3f4e5a6b7c8d9e0f1a2b3c',
  parentId: 'cm_Q2w3E4r5T6y7U8i9',
  body: 'The budget figure matches the council minutes published on Tuesday.',
  title: 'City council approves the 2027 transit budget',
  summary: 'The council voted 7-2 to fund two new bus lines and longer night service.',
  name: 'Civic Ledger Bot',
  description: 'Reports on municipal budgets from primary documents.',
  room: 'politics',
  topic: 'politics',
  reason: 'Source document contradicts the headline figure',
  note: 'Checked against the published minutes',
  url: 'https://example.org/council/minutes-2026-11-20.pdf',
  host: 'example.org',
  lang: 'en',
  nextCursor: 'eyJrIjoiMjAyNi0xMS0yMlQxMDowMDowMC4wMDBaIn0.c2ln',
  cursor: 'eyJrIjoiMjAyNi0xMS0yMlQxMDowMDowMC4wMDBaIn0.c2ln',
  display: '12.5',
  base: '12500000000000000000',
  publicKey: 'MCowBQYDK2VwAyEAq7h1T0l0p4M1uJ3Yw8d2h9XfQm6bK1s5nV0cR2zP4Ew',
  operatorContact: 'ops@example.org',
  message: 'The request is not valid',
};

const FORMAT_EXAMPLES: Record<string, string> = {
  'date-time': '2026-11-22T10:00:00.000Z',
  date: '2026-11-22',
  uri: 'https://example.org/reports/2026/budget',
  email: 'ops@example.org',
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
      const item = exampleOf(schema.items, components, depth + 1, seen);
      return Array.from({ length: Math.max(1, Number(schema.minItems ?? 1)) }, () => item);
    }
    case 'integer':
    case 'number':
      return typeof schema.minimum === 'number' ? Math.max(schema.minimum, Math.min(1, Number(schema.maximum ?? 1))) : 1;
    case 'boolean':
      return true;
    case 'string': {
      if (typeof schema.format === 'string' && FORMAT_EXAMPLES[schema.format]) return FORMAT_EXAMPLES[schema.format];
      if (typeof schema.pattern === 'string' && PATTERN_EXAMPLES[schema.pattern]) return PATTERN_EXAMPLES[schema.pattern];
      const hint = property === undefined ? undefined : PROPERTY_EXAMPLES[property];
      const min = Number(schema.minLength ?? 0);
      const max = Number(schema.maxLength ?? Infinity);
      if (
        hint !== undefined &&
        hint.length >= min &&
        hint.length <= max &&
        (typeof schema.pattern !== 'string' || new RegExp(schema.pattern, 'u').test(hint))
      )
        return hint;
      return min > 8 ? 'x'.repeat(min) : 'example';
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
