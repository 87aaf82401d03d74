// Compiles the TypeScript of src/, test/, sdk/, scripts/, bench/ and examples/ once per test run, file by file
// with esbuild (the compiler tsx uses, with the same settings), so that each test file's process loads plain
// JavaScript instead of transpiling every module again through tsx's loader hooks (about a second of CPU per
// file on the 2-core machine). Used by scripts/run-tests.mjs; `TEST_TSX=1` runs the sources through tsx instead.
//
// The output mirrors the repository under node_modules/.cache/test-build/<run id>/ (bare imports still resolve
// to the repository's node_modules). Each file's import.meta.url is its source's URL, so paths computed from it
// (docs, migrations, the repository root) are the same as under tsx; relative imports of non-TypeScript files
// (contract artifacts as JSON) point at the sources. Inline source maps keep stack traces on the .ts lines.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { transform } from 'esbuild';

const DIRS = ['src', 'test', 'sdk', 'scripts', 'bench', 'examples'];
const SKIP = new Set(['node_modules', 'dist', 'scratch']);
const HOUR = 3_600_000;

function walk(dir, out = []) {
  for (const name of readdirSync(dir)) {
    if (SKIP.has(name) || name.startsWith('.')) continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) walk(path, out);
    else if (/\.tsx?$/.test(name) && !name.endsWith('.d.ts')) out.push(path);
  }
  return out;
}

const IMPORT = /(\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)(['"])(\.{1,2}\/[^'"]+)\2/g;

/** `./x.js` naming a compiled `./x.ts` stays; any other relative import names the source file itself. */
function rewriteImports(code, sourceDir) {
  return code.replace(IMPORT, (whole, lead, quote, spec) => {
    const target = resolve(sourceDir, spec);
    if (/\.js$/.test(spec) && (existsSync(target.replace(/\.js$/, '.ts')) || existsSync(target.replace(/\.js$/, '.tsx')))) return whole;
    return `${lead}${quote}${pathToFileURL(target).href}${quote}`;
  });
}

/** Compiles the repository at `root` into a new directory and returns it with a function that removes it. */
export async function buildTests(root, runId) {
  const base = join(root, 'node_modules', '.cache', 'test-build');
  mkdirSync(base, { recursive: true });
  for (const name of readdirSync(base)) {
    const path = join(base, name);
    if (Date.now() - statSync(path).mtimeMs > HOUR) rmSync(path, { recursive: true, force: true });
  }
  const out = join(base, runId);
  const tsconfigRaw = readFileSync(join(root, 'tsconfig.json'), 'utf8');
  const files = DIRS.flatMap((d) => (existsSync(join(root, d)) ? walk(join(root, d)) : []));
  await Promise.all(
    files.map(async (file) => {
      const { code } = await transform(readFileSync(file, 'utf8'), {
        loader: file.endsWith('.tsx') ? 'tsx' : 'ts',
        format: 'esm',
        target: `node${process.versions.node}`,
        tsconfigRaw,
        sourcemap: 'inline',
        sourcefile: file,
        define: { 'import.meta.url': JSON.stringify(pathToFileURL(file).href) },
      });
      const target = join(out, relative(root, file)).replace(/\.tsx?$/, '.js');
      mkdirSync(dirname(target), { recursive: true });
      writeFileSync(target, rewriteImports(code, dirname(file)));
    }),
  );
  // node_modules/ ends package scopes: the output needs its own to be read as ES modules
  writeFileSync(join(out, 'package.json'), '{ "type": "module" }\n');
  return {
    dir: out,
    compiled: (file) => join(out, file).replace(/\.tsx?$/, '.js'),
    remove: () => rmSync(out, { recursive: true, force: true }),
  };
}
