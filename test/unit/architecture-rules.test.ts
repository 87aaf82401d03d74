import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';

interface Report {
  violations: { rule: string; from: string; to: string }[];
  cycles: string[][];
}
type Checker = { checkArchitecture(root?: string): Promise<Report> };

// the checker is plain JavaScript (run by npm run lint); its path is a string so that tsc does not type it
const { checkArchitecture } = (await import('../../scripts/check-architecture.mjs' as string)) as Checker;
const repo = fileURLToPath(new URL('../..', import.meta.url));

/** Writes a tree of source files under a fresh temporary folder. */
function tree(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'architecture-'));
  for (const [path, code] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), code);
  }
  return root;
}

describe('architecture rules (.dependency-cruiser.cjs, scripts/check-architecture.mjs)', () => {
  const roots: string[] = [];
  after(() => {
    for (const root of roots) rmSync(root, { recursive: true, force: true });
  });

  test('each rule bites on a small tree that breaks it', async () => {
    const root = tree({
      // another module's repository
      'src/newsroom/a/service.ts': "import { rows } from '../b/repository.js';\nexport const a = () => rows();\n",
      'src/newsroom/b/repository.ts': 'export const rows = () => [1];\n',
      // a cycle between two modules, through different files (no file cycle)
      'src/newsroom/c/service.ts': "import { d } from '../d/service.js';\nexport const c = () => d();\n",
      'src/newsroom/c/schemas.ts': 'export const C = 1;\n',
      'src/newsroom/d/service.ts': "import { C } from '../c/schemas.js';\nexport const d = () => C;\n",
      // a file cycle inside one module
      'src/newsroom/e/x.ts': "import { y } from './y.js';\nexport const x = () => y;\n",
      'src/newsroom/e/y.ts': "import { x } from './x.js';\nexport const y = () => x;\n",
      // platform importing a context
      'src/platform/util.ts': "import { rule } from '../identity/humans/policy.js';\nexport const util = rule;\n",
      // an upward context import: identity below the newsroom
      'src/identity/humans/policy.ts': "import { a } from '../../newsroom/a/service.js';\nexport const rule = a;\n",
      // allowed: a context importing a lower one, the root importing anything
      'src/readers/users/service.ts': "import { c } from '../../newsroom/c/service.js';\nexport const users = c;\n",
      'src/app.ts': "import { rows } from './newsroom/b/repository.js';\nexport const app = rows;\n",
    });
    roots.push(root);
    const { violations, cycles } = await checkArchitecture(root);
    const found = violations.map((v) => `${v.rule}: ${v.from} -> ${v.to}`).sort();
    assert.deepEqual(found, [
      'layer-identity: src/identity/humans/policy.ts -> src/newsroom/a/service.ts',
      'no-circular: src/newsroom/e/x.ts -> src/newsroom/e/y.ts',
      'no-foreign-repository: src/newsroom/a/service.ts -> src/newsroom/b/repository.ts',
      'platform-imports-no-context: src/platform/util.ts -> src/identity/humans/policy.ts',
    ]);
    assert.deepEqual(cycles, [['src/newsroom/c', 'src/newsroom/d', 'src/newsroom/c']]);
  });

  test('every layer rule: a context may import only the layers below it', async () => {
    const root = tree({
      'src/delivery/webhooks/worker.ts': "import { h } from '../../operations/health/service.js';\nexport const w = h;\n",
      'src/operations/health/service.ts': "import { g } from '../../governance/parameters/service.js';\nexport const h = g;\n",
      'src/governance/parameters/service.ts': "import { r } from '../../rewards/policy/service.js';\nexport const g = r;\n",
      'src/rewards/policy/service.ts': "import { s } from '../../readers/site/service.js';\nexport const r = s;\n",
      'src/readers/site/service.ts':
        "import { p } from '../../platform/ids.js';\nimport { n } from '../../newsroom/feed/service.js';\nexport const s = p + n;\n",
      'src/newsroom/feed/service.ts': "import { wk } from '../../delivery/webhooks/outbox.js';\nexport const n = wk;\n",
      'src/delivery/webhooks/outbox.ts': "import { p } from '../../platform/ids.js';\nexport const wk = p;\n",
      'src/platform/ids.ts': 'export const p = 1;\n',
    });
    roots.push(root);
    const { violations } = await checkArchitecture(root);
    assert.deepEqual(violations.map((v) => v.rule).sort(), ['layer-delivery', 'layer-governance', 'layer-operations', 'layer-rewards']);
  });

  test('the real src/ passes', async () => {
    const { violations, cycles } = await checkArchitecture(repo);
    assert.deepEqual(violations, []);
    assert.deepEqual(cycles, []);
  });
});
