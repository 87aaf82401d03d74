import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { test } from 'node:test';
import { PARAMETER_DEFAULTS, PARAMETER_NAMES, parameterSpec } from '../../src/governance/parameters/parameters.js';

/** The parameters table of docs/governance.md, rendered from the registry (src/governance/parameters/parameters.ts). */
function parametersTable(): string {
  const rows = PARAMETER_NAMES.map((name) => {
    const { description, min, max, integer } = parameterSpec(name);
    return `| \`${name}\` | ${PARAMETER_DEFAULTS[name]} | ${min} to ${max}${integer ? ', integer' : ''} | ${description.replace(/\|/g, '\\|')} |`;
  });
  return ['| parameter | default | valid range | meaning |', '|---|---|---|---|', ...rows].join('\n');
}

test('docs/governance.md lists every parameter exactly as the registry defines it', async () => {
  const doc = await readFile(new URL('../../docs/governance.md', import.meta.url), 'utf8');
  assert.ok(
    doc.includes(parametersTable()),
    `docs/governance.md's parameters table is out of date; it must read:\n\n${parametersTable()}\n`,
  );
});
