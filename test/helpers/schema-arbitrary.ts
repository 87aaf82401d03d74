import fc from 'fast-check';
import { exampleOf } from '../../src/platform/openapi/examples.js';
import type { Json } from './json.js';

/**
 * fast-check arbitraries for the JSON Schemas of the OpenAPI document: values a schema allows, built from its
 * keywords (types, enums, patterns, lengths, ranges, required and optional properties, items, references into
 * `components`). What they cannot build exactly (`not`, `oneOf`'s exclusivity, `minProperties`) may come out
 * outside the schema: callers check each value against the schema with Ajv and skip the few that fail.
 * Strings stay short (a schema's maxLength is kept, its length is not sought), numbers within ±1e9.
 */

const FORMATS: Record<string, fc.Arbitrary<string>> = {
  'date-time': fc
    .date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2100-01-01T00:00:00Z'), noInvalidDate: true })
    .map((d) => d.toISOString()),
  date: fc
    .date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2100-01-01T00:00:00Z'), noInvalidDate: true })
    .map((d) => d.toISOString().slice(0, 10)),
  uri: fc.webUrl(),
  email: fc.emailAddress(),
};

function stringArbitrary(schema: Json, components: Json): fc.Arbitrary<string> {
  const minLength = Number(schema.minLength ?? 0);
  const maxLength = Math.min(Number(schema.maxLength ?? minLength + 40), minLength + 40);
  const inLength = (s: string) => s.length >= minLength && s.length <= Number(schema.maxLength ?? Infinity);
  // a pattern or format whose values seldom have the schema's length (`^[A-Za-z0-9_-]+={0,1}$` of 43 characters)
  // gives the document's typical value instead of one it would have to search for
  const typical = exampleOf(schema, components);
  const orTypical = (s: string) => (inLength(s) || typeof typical !== 'string' ? s : typical);
  if (typeof schema.format === 'string' && FORMATS[schema.format]) return FORMATS[schema.format]!.map(orTypical);
  if (typeof schema.pattern === 'string') return fc.stringMatching(new RegExp(schema.pattern, 'u')).map(orTypical);
  return fc.oneof(
    { weight: 3, arbitrary: fc.string({ minLength, maxLength }) },
    { weight: 1, arbitrary: fc.string({ minLength, maxLength, unit: 'grapheme' }).map(orTypical) },
  );
}

function numberArbitrary(schema: Json, integer: boolean): fc.Arbitrary<number> {
  const min = Math.max(Number(schema.minimum ?? -1e9), -1e9);
  const max = Math.min(Number(schema.maximum ?? 1e9), 1e9);
  if (integer) return fc.integer({ min: Math.ceil(min), max: Math.floor(max) });
  return fc.oneof(
    fc.integer({ min: Math.ceil(min), max: Math.floor(max) }),
    fc.double({ min, max, noNaN: true, noDefaultInfinity: true }).map((n) => (Math.abs(n) < 1e-6 ? 0 : n)),
  );
}

export function schemaArbitrary(schema: unknown, components: Json, depth = 0): fc.Arbitrary<unknown> {
  if (typeof schema !== 'object' || schema === null || depth > 8) return fc.constant(null);
  const s = schema as Json;
  if (typeof s.$ref === 'string') return schemaArbitrary(components[s.$ref.split('/').pop()!], components, depth + 1);
  if (s.const !== undefined) return fc.constant(s.const);
  if (Array.isArray(s.enum)) return fc.constantFrom(...(s.enum as unknown[]));
  const variants = (s.anyOf ?? s.oneOf) as unknown[] | undefined;
  if (Array.isArray(variants)) return fc.oneof(...variants.map((v) => schemaArbitrary(v, components, depth + 1)));
  if (Array.isArray(s.allOf)) {
    const parts = (s.allOf as Json[]).map((p) => (p.$ref ? (components[String(p.$ref).split('/').pop()!] as Json) : p));
    const merged: Json = { type: 'object', properties: {}, required: [] };
    for (const part of [s, ...parts]) {
      Object.assign(merged.properties, part.properties ?? {});
      merged.required.push(...((part.required ?? []) as string[]));
    }
    return schemaArbitrary(merged, components, depth + 1);
  }
  const types = Array.isArray(s.type) ? (s.type as string[]) : [s.type ?? (s.properties ? 'object' : 'string')];
  return fc.oneof(
    ...types.map((type): fc.Arbitrary<unknown> => {
      switch (type) {
        case 'string':
          return stringArbitrary(s, components);
        case 'integer':
          return numberArbitrary(s, true);
        case 'number':
          return numberArbitrary(s, false);
        case 'boolean':
          return fc.boolean();
        case 'null':
          return fc.constant(null);
        case 'array': {
          const item = schemaArbitrary(s.items ?? {}, components, depth + 1);
          const minLength = Number(s.minItems ?? 0);
          const maxLength = Math.min(Number(s.maxItems ?? minLength + 3), minLength + 3);
          return s.uniqueItems
            ? fc.uniqueArray(item, { minLength, maxLength, selector: (v) => JSON.stringify(v) })
            : fc.array(item, { minLength, maxLength });
        }
        case 'object': {
          const properties = (s.properties ?? {}) as Json;
          const required = new Set((s.required ?? []) as string[]);
          const record = fc.record(
            Object.fromEntries(Object.entries(properties).map(([k, v]) => [k, schemaArbitrary(v, components, depth + 1)])),
            { requiredKeys: Object.keys(properties).filter((k) => required.has(k)) },
          );
          if (typeof s.additionalProperties !== 'object' || Object.keys(properties).length) return record;
          // a free-form object (a payload of JSON values)
          return fc.dictionary(fc.string({ minLength: 1, maxLength: 8 }), fc.jsonValue({ maxDepth: 2 }), {
            maxKeys: Math.min(Number(s.maxProperties ?? 4), 4),
          });
        }
        default:
          return fc.constant(null);
      }
    }),
  );
}
