#!/usr/bin/env node
// The architecture check of `npm run lint`: runs dependency-cruiser over src/ with the rules of
// .dependency-cruiser.cjs (no file cycles, no import of another module's repository, platform imports no
// context, each context only the contexts below it, the web layer src/web above them all), then collapses the
// graph to modules (src/<context>/<module>, src/web/site and src/web/console included) and fails on any cycle
// between modules, which dependency-cruiser's file-level no-circular does not see.
// It also fails on SQL outside a repository: a Kysely query (selectFrom, insertInto, updateTable, deleteFrom) or
// an sql`` template in a src/ file not named repository.ts or *-repository.ts (src/platform/db/ is exempt).
//   node scripts/check-architecture.mjs [root]   root defaults to the working directory
import { createRequire } from 'node:module';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { cruise } from 'dependency-cruiser';

const require = createRequire(import.meta.url);
/** The rules of the repository (a fixture tree is checked with them too). */
export const rules = require('../.dependency-cruiser.cjs');

/** The module of a file: src/<context>/<module> for a context's files, the file itself otherwise. */
export function moduleOf(file) {
  const parts = file.split('/');
  if (parts[0] !== 'src' || parts.length < 4 || parts[1] === 'platform') return file;
  return parts.slice(0, 3).join('/');
}

/** Every cycle of a module graph (Tarjan's strongly connected components of more than one module), each as a path. */
export function moduleCycles(edges) {
  const graph = new Map();
  for (const [from, to] of edges) {
    if (!graph.has(from)) graph.set(from, new Set());
    if (!graph.has(to)) graph.set(to, new Set());
    graph.get(from).add(to);
  }
  let next = 0;
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const components = [];
  const visit = (v) => {
    index.set(v, next);
    low.set(v, next);
    next++;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v)) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v), low.get(w)));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v), index.get(w)));
    }
    if (low.get(v) === index.get(v)) {
      const component = [];
      let w;
      do {
        w = stack.pop();
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1) components.push(component);
    }
  };
  for (const v of [...graph.keys()].sort()) if (!index.has(v)) visit(v);
  // one readable cycle per component: a path from its first module back to it (breadth first, shortest)
  return components.map((component) => {
    const members = new Set(component);
    const start = [...members].sort()[0];
    const previous = new Map([[start, null]]);
    const queue = [start];
    while (queue.length) {
      const v = queue.shift();
      for (const w of graph.get(v)) {
        if (!members.has(w)) continue;
        if (w === start) {
          const path = [start];
          for (let u = v; u !== start; u = previous.get(u)) path.splice(1, 0, u);
          return [...path, start];
        }
        if (!previous.has(w)) {
          previous.set(w, v);
          queue.push(w);
        }
      }
    }
    return [...component, component[0]];
  });
}

/** Building SQL with Kysely: a query builder's entry point or the sql template tag. */
const SQL = /\.(selectFrom|insertInto|updateTable|deleteFrom)\(|\bsql(<[^>]*>)?`/;
/** Where SQL may be written: repositories, and the database layer itself. */
const SQL_ALLOWED = (file) => /(^|\/|-)repository\.ts$/.test(file) || file.startsWith('src/platform/db/');

/** The files under `root`/src that build SQL but are no repository: [{ file, line }]. */
export function sqlOutsideRepositories(root) {
  const found = [];
  const src = join(root, 'src');
  if (!existsSync(src)) return found;
  for (const entry of readdirSync(src, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !/\.tsx?$/.test(entry.name)) continue;
    const file = relative(root, join(entry.parentPath, entry.name)).split('\\').join('/');
    if (SQL_ALLOWED(file)) continue;
    const lines = readFileSync(join(root, file), 'utf8').split('\n');
    const index = lines.findIndex((line) => SQL.test(line));
    if (index >= 0) found.push({ file, line: index + 1 });
  }
  return found;
}

/**
 * Checks the tree at `root`: dependency-cruiser's violations of the rules, and the cycles between modules.
 * Answers { violations: [{ rule, from, to }], cycles: [[module, …, module]], sql: [{ file, line }] } (all empty
 * when it passes).
 */
export async function checkArchitecture(root = process.cwd()) {
  const base = resolve(root);
  const tsConfig = join(base, 'tsconfig.json');
  const { forbidden, options } = rules;
  const result = await cruise(['src'], {
    ...options,
    baseDir: base,
    validate: true,
    ruleSet: { forbidden, options },
    ...(existsSync(tsConfig) ? { tsConfig: { fileName: tsConfig } } : {}),
  });
  const output = result.output;
  const violations = output.summary.violations.map((v) => ({ rule: v.rule.name, from: v.from, to: v.to }));
  const edges = [];
  for (const module of output.modules) {
    if (!module.source.startsWith('src/')) continue;
    for (const dependency of module.dependencies) {
      if (!dependency.resolved.startsWith('src/')) continue;
      const from = moduleOf(module.source);
      const to = moduleOf(dependency.resolved);
      if (from !== to && from.split('/').length === 3 && to.split('/').length === 3) edges.push([from, to]);
    }
  }
  return { violations, cycles: moduleCycles(edges), sql: sqlOutsideRepositories(base) };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const { violations, cycles, sql } = await checkArchitecture(process.argv[2]);
  for (const v of violations) console.error(`${v.rule}: ${v.from} → ${v.to}`);
  for (const cycle of cycles) console.error(`module cycle: ${cycle.join(' → ')}`);
  for (const s of sql) console.error(`sql-outside-repository: ${s.file}:${s.line}`);
  if (violations.length || cycles.length || sql.length) {
    console.error(
      `architecture check failed: ${violations.length} rule violation(s), ${cycles.length} module cycle(s), ${sql.length} file(s) with SQL outside a repository (docs/architecture.md)`,
    );
    process.exit(1);
  }
}
