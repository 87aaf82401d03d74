import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { test } from 'node:test';
import type { TSchema } from '@sinclair/typebox';
import { ExportSectionsSchema } from '../../src/readers/users/export-sections.js';

/** Every field path of a section schema: `a.b` for objects, `a[].b` for arrays, nullable objects followed. */
function fieldPaths(schema: TSchema, path: string): string[] {
  const s = schema as { type?: string; properties?: Record<string, TSchema>; items?: TSchema; anyOf?: TSchema[] };
  if (s.anyOf) return [path, ...s.anyOf.flatMap((member) => fieldPaths(member, path).filter((p) => p !== path))];
  if (s.type === 'object' && s.properties) {
    return [path, ...Object.entries(s.properties).flatMap(([name, child]) => fieldPaths(child, `${path}.${name}`))];
  }
  if (s.type === 'array' && s.items) {
    const inner = fieldPaths(s.items, `${path}[]`).filter((p) => p !== `${path}[]`);
    return [path, ...inner];
  }
  return [path];
}

test('docs/reader-accounts.md documents every field of every export section', async () => {
  const doc = await readFile(new URL('../../docs/reader-accounts.md', import.meta.url), 'utf8');
  const sections = Object.entries(ExportSectionsSchema.properties as Record<string, TSchema>);
  assert.ok(sections.length >= 8);
  const missing: string[] = [];
  for (const [name, schema] of sections) {
    assert.ok(doc.includes(`### \`${name}\``), `a heading for the section ${name}`);
    // a section that is an array documents its item fields; the bare name of an object section is its heading
    for (const path of fieldPaths(schema, name).filter((p) => p !== name)) {
      if (!doc.includes(`\`${path}\``)) missing.push(path);
    }
  }
  assert.deepEqual(missing, [], `fields of the export missing from docs/reader-accounts.md: ${missing.join(', ')}`);
});
