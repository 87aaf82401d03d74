/**
 * Named schemas become components. A TypeBox schema that carries a `title` (the interface's name for the
 * record or request: `Story`, `Comment`, `Error`) is the same object that validates and serializes the
 * route; @fastify/swagger inlines it wherever a route uses it, and this pass moves each titled schema to
 * `components.schemas[title]` and puts a `$ref` in its place, so generated clients get one type per record.
 */

type Node = Record<string, unknown>;

const isNode = (value: unknown): value is Node => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Keys of an OpenAPI document whose values are not schemas (examples are data, never hoisted). */
const DATA_KEYS = new Set(['example', 'examples', 'x-catalogue', 'enum', 'const', 'default']);

export class SchemaNameConflict extends Error {}

/**
 * Replaces every titled schema under `root` by a `$ref` into `components`, adding it there once. Two
 * different schemas with one title are a mistake in the code (a client would get one type for both): it
 * throws, naming the title.
 */
export function hoistNamedSchemas(root: Node, components: Record<string, unknown>): void {
  const canonical = new Map<string, string>();
  const visit = (node: unknown, inSchema: boolean): unknown => {
    if (Array.isArray(node)) return node.map((n) => visit(n, inSchema));
    if (!isNode(node)) return node;
    const out: Node = {};
    for (const [key, value] of Object.entries(node)) out[key] = DATA_KEYS.has(key) ? value : visit(value, inSchema || key === 'schema');
    const title = out.title;
    if (!inSchema || typeof title !== 'string' || !/^[A-Z][A-Za-z0-9]*$/.test(title)) return out;
    const text = JSON.stringify(out);
    const seen = canonical.get(title);
    if (seen === undefined) {
      canonical.set(title, text);
      components[title] = out;
    } else if (seen !== text) {
      throw new SchemaNameConflict(`two different schemas are named ${title}: give one of them another title`);
    }
    return { $ref: `#/components/schemas/${title}` };
  };
  for (const [key, value] of Object.entries(root)) root[key] = visit(value, false);
}

/**
 * A route's body or response schema as the document should see it. @fastify/swagger moves the `examples` of
 * the top-level schema of a body or response to the media type (deleting them from the schema), which would
 * leave a named record without its examples where a route answers it and with them where it is nested: a
 * titled schema is wrapped in `{ allOf: [schema] }` so that it stays whole (`unwrapSingleAllOf` removes the
 * wrapper after the hoisting). The route's description of the status (`x-response-description`, read by the
 * plugin) is left out: it belongs to the response, not to the record.
 */
export function keepExamples(schema: unknown): unknown {
  // a schema with an $id (the error body) is referenced by @fastify/swagger's resolver instead: the plugin restores its examples
  if (!isNode(schema) || typeof schema.title !== 'string' || schema.$id !== undefined) return schema;
  const { 'x-response-description': _described, ...record } = schema;
  return { allOf: [record] };
}

/** `{ allOf: [{ $ref }] }` with nothing beside it is the `$ref` itself. */
export function unwrapSingleAllOf(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(unwrapSingleAllOf);
  if (!isNode(node)) return node;
  const out: Node = {};
  for (const [key, value] of Object.entries(node)) out[key] = DATA_KEYS.has(key) ? value : unwrapSingleAllOf(value);
  const allOf = out.allOf;
  if (Object.keys(out).length === 1 && Array.isArray(allOf) && allOf.length === 1 && isNode(allOf[0]) && allOf[0].$ref) return allOf[0];
  return out;
}
