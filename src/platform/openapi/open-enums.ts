/**
 * Enums of answers are open: within /v1 the service may
 * answer a value it did not list before, and a client must take it as "something else". Each enum an answer can
 * carry gets `x-extensible-enum`, the list of the values it has today (the form client generators read as
 * "this list may grow"); its `enum` stays, as what a request may send. Enums only requests use are left closed.
 */

type Node = Record<string, unknown>;
const isNode = (v: unknown): v is Node => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Keys whose values are data, not schemas. */
const DATA_KEYS = new Set(['example', 'examples', 'x-catalogue', 'enum', 'const', 'default', 'x-extensible-enum']);

/** The values of a union of string literals (`anyOf: [{ enum: ['A'] }, { const: 'B' }]`), or undefined. */
function literalUnion(node: Node): string[] | undefined {
  const variants = (node.anyOf ?? node.oneOf) as unknown;
  if (!Array.isArray(variants) || variants.length === 0) return undefined;
  const values: string[] = [];
  for (const v of variants) {
    if (!isNode(v)) return undefined;
    if (typeof v.const === 'string') values.push(v.const);
    else if (Array.isArray(v.enum) && v.enum.every((e) => typeof e === 'string')) values.push(...(v.enum as string[]));
    else return undefined;
  }
  return values;
}

/** Marks every string enum reachable from the document's response bodies and headers. */
export function openAnswerEnums(doc: Node): void {
  const components = ((doc.components as Node).schemas ?? {}) as Node;
  const visited = new Set<string>();
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (!isNode(node)) return;
    if (typeof node.$ref === 'string' && node.$ref.startsWith('#/components/schemas/')) {
      const name = node.$ref.slice('#/components/schemas/'.length);
      if (visited.has(name)) return;
      visited.add(name);
      visit(components[name]);
      return;
    }
    const values = Array.isArray(node.enum) && node.enum.every((e) => typeof e === 'string') ? (node.enum as string[]) : literalUnion(node);
    if (values && values.length > 1) node['x-extensible-enum'] = [...values];
    for (const [key, value] of Object.entries(node)) if (!DATA_KEYS.has(key)) visit(value);
  };
  const responses = Object.values(doc.paths as Node).flatMap((ops) =>
    Object.values(ops as Node).flatMap((op) => (isNode(op) ? Object.values((op.responses ?? {}) as Node) : [])),
  );
  for (const answer of [...responses, ...Object.values(((doc.components as Node).responses ?? {}) as Node)]) {
    if (!isNode(answer)) continue;
    for (const media of Object.values((answer.content ?? {}) as Node)) if (isNode(media)) visit(media.schema);
  }
  for (const header of Object.values(((doc.components as Node).headers ?? {}) as Node)) if (isNode(header)) visit(header.schema);
}
