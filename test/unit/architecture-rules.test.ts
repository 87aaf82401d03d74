import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';

interface Report {
  violations: { rule: string; from: string; to: string }[];
  cycles: string[][];
  sql: { file: string; line: number }[];
}
type Checker = { checkArchitecture(root?: string): Promise<Report> };

// the checker is plain JavaScript (run by npm run lint); its path is a string so that tsc does not type it
const { checkArchitecture } = (await import('../../scripts/check-architecture.mjs' as string)) as Checker;
const repo = fileURLToPath(new URL('../..', import.meta.url));

/**
 * An import line of a fixture file. Built at run time: the test build rewrites relative import specifiers it
 * finds in the test's own text, string literals included.
 */
const use = (name: string, spec: string) => ['import { ', name, ' } from ', JSON.stringify(spec), ';\n'].join('');

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
      'src/newsroom/a/service.ts': use('rows', '../b/repository.js') + 'export const a = () => rows();\n',
      'src/newsroom/b/repository.ts': 'export const rows = () => [1];\n',
      // a cycle between two modules, through different files (no file cycle)
      'src/newsroom/c/service.ts': use('d', '../d/service.js') + 'export const c = () => d();\n',
      'src/newsroom/c/schemas.ts': 'export const C = 1;\n',
      'src/newsroom/d/service.ts': use('C', '../c/schemas.js') + 'export const d = () => C;\n',
      // a file cycle inside one module
      'src/newsroom/e/x.ts': use('y', './y.js') + 'export const x = () => y;\n',
      'src/newsroom/e/y.ts': use('x', './x.js') + 'export const y = () => x;\n',
      // platform importing a context
      'src/platform/util.ts': use('rule', '../identity/humans/policy.js') + 'export const util = rule;\n',
      // an upward context import: identity below the newsroom
      'src/identity/humans/policy.ts': use('a', '../../newsroom/a/service.js') + 'export const rule = a;\n',
      // allowed: a context importing a lower one, the root importing anything
      'src/readers/users/service.ts': use('c', '../../newsroom/c/service.js') + 'export const users = c;\n',
      'src/app.ts': use('rows', './newsroom/b/repository.js') + 'export const app = rows;\n',
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
      'src/delivery/webhooks/worker.ts': use('h', '../../operations/health/service.js') + 'export const w = h;\n',
      'src/operations/health/service.ts': use('g', '../../governance/parameters/service.js') + 'export const h = g;\n',
      'src/governance/parameters/service.ts': use('r', '../../rewards/policy/service.js') + 'export const g = r;\n',
      'src/rewards/policy/service.ts': use('s', '../../readers/users/service.js') + 'export const r = s;\n',
      'src/readers/users/service.ts':
        use('p', '../../platform/ids.js') + use('n', '../../newsroom/feed/service.js') + 'export const s = p + n;\n',
      'src/newsroom/feed/service.ts': use('wk', '../../delivery/webhooks/outbox.js') + 'export const n = wk;\n',
      'src/delivery/webhooks/outbox.ts': use('p', '../../platform/ids.js') + 'export const wk = p;\n',
      'src/platform/ids.ts': 'export const p = 1;\n',
    });
    roots.push(root);
    const { violations } = await checkArchitecture(root);
    assert.deepEqual(violations.map((v) => v.rule).sort(), ['layer-delivery', 'layer-governance', 'layer-operations', 'layer-rewards']);
  });

  test('the web layer sits above every context: it imports them, none of them and no platform file imports it', async () => {
    const root = tree({
      // allowed: a page imports a context's service, platform and another room of the web layer
      'src/web/site/render.ts':
        use('u', '../../readers/users/service.js') +
        use('p', '../../platform/ids.js') +
        use('g', '../console/gate.js') +
        'export const page = u + p + g;\n',
      'src/web/console/gate.ts': use('p', '../../platform/ids.js') + 'export const g = p;\n',
      'src/readers/users/service.ts': use('p', '../../platform/ids.js') + 'export const u = p;\n',
      // forbidden: the top context and platform reaching up into the web layer
      'src/readers/accounts/service.ts': use('page', '../../web/site/render.js') + 'export const a = page;\n',
      'src/platform/ids.ts': 'export const p = 1;\n',
      'src/platform/words.ts': use('g', '../web/console/gate.js') + 'export const w = g;\n',
    });
    roots.push(root);
    const { violations } = await checkArchitecture(root);
    const found = violations.map((v) => `${v.rule}: ${v.from} -> ${v.to}`).sort();
    assert.deepEqual(found, [
      'layer-readers: src/readers/accounts/service.ts -> src/web/site/render.ts',
      'platform-imports-no-context: src/platform/words.ts -> src/web/console/gate.ts',
    ]);
  });

  test('no context and no platform file imports a root file, except the typed configuration', async () => {
    const root = tree({
      'src/app.ts': 'export const app = 1;\n',
      'src/composition.ts': 'export const services = 1;\n',
      'src/config.ts': 'export const config = 1;\n',
      'src/demo/stories.ts': 'export const demo = 1;\n',
      'src/platform/db/keyset.ts': use('app', '../../app.js') + 'export const k = app;\n',
      'src/identity/humans/service.ts': use('services', '../../composition.js') + 'export const h = services;\n',
      'src/identity/agents/service.ts': use('demo', '../../demo/stories.js') + 'export const a = demo;\n',
      // allowed: a service's slice of the configuration, and the root importing contexts
      'src/readers/users/service.ts': use('config', '../../config.js') + 'export const u = config;\n',
      'src/server.ts': use('h', './identity/humans/service.js') + 'export const s = h;\n',
    });
    roots.push(root);
    const { violations } = await checkArchitecture(root);
    const found = violations.map((v) => `${v.rule}: ${v.from} -> ${v.to}`).sort();
    assert.deepEqual(found, [
      'no-root-file: src/identity/agents/service.ts -> src/demo/stories.ts',
      'no-root-file: src/identity/humans/service.ts -> src/composition.ts',
      'no-root-file: src/platform/db/keyset.ts -> src/app.ts',
    ]);
  });

  test('SQL is written only in repositories and the database layer', async () => {
    const tick = '`';
    const root = tree({
      'src/newsroom/a/service.ts': 'export const a = (db) =>\n  db.selectFrom("stories").execute();\n',
      'src/newsroom/a/filters.ts': `export const f = sql${tick}true${tick};\n`,
      'src/rewards/b/budget.ts': `export const g = sql<number>${tick}1${tick};\n`,
      // allowed: a module's repository, a context-level repository, the database layer
      'src/newsroom/a/repository.ts': 'export const r = (db) => db.deleteFrom("stories").execute();\n',
      'src/newsroom/a/write-repository.ts': 'export const w = (db) => db.insertInto("stories").execute();\n',
      'src/newsroom/story-filters-repository.ts': `export const l = sql${tick}x${tick};\n`,
      'src/platform/db/keyset.ts': `export const k = sql${tick}now()${tick};\n`,
    });
    roots.push(root);
    const { sql } = await checkArchitecture(root);
    assert.deepEqual(sql.map((s) => `${s.file}:${s.line}`).sort(), [
      'src/newsroom/a/filters.ts:1',
      'src/newsroom/a/service.ts:2',
      'src/rewards/b/budget.ts:1',
    ]);
  });

  test('the real src/ passes', async () => {
    const { violations, cycles, sql } = await checkArchitecture(repo);
    assert.deepEqual(violations, []);
    assert.deepEqual(cycles, []);
    assert.deepEqual(sql, []);
  });
});
