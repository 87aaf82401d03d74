import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';

const sdk = fileURLToPath(new URL('../../sdk', import.meta.url));
const pkg = JSON.parse(readFileSync(join(sdk, 'package.json'), 'utf8')) as {
  name: string;
  types: string;
  exports: Record<string, { types: string; default: string }>;
  bin: Record<string, string>;
  dependencies: Record<string, string>;
};

describe('the SDK is its own package', () => {
  test('every import of sdk/ is relative inside sdk/, a node: module, or a declared dependency (no server code)', () => {
    const allowed = Object.keys(pkg.dependencies);
    for (const file of readdirSync(sdk).filter((f) => f.endsWith('.ts'))) {
      const source = readFileSync(join(sdk, file), 'utf8');
      for (const [, spec] of source.matchAll(/from '([^']+)'/g)) {
        const ok =
          (spec!.startsWith('./') && !spec!.includes('..')) ||
          spec!.startsWith('node:') ||
          allowed.some((dep) => spec === dep || spec!.startsWith(`${dep}/`));
        assert.ok(ok, `${file} imports ${spec}`);
      }
    }
    assert.equal(pkg.name, '@newsroom/agent-sdk');
    assert.equal(pkg.exports['.']!.types, './dist/index.d.ts');
    assert.equal(pkg.bin['newsroom-agent'], './bin/newsroom-agent.js');
  });

  test('it type-checks on its own tsconfig, declarations included', () => {
    const tsc = fileURLToPath(new URL('../../node_modules/typescript/bin/tsc', import.meta.url));
    const res = spawnSync(process.execPath, [tsc, '-p', join(sdk, 'tsconfig.json'), '--noEmit'], { encoding: 'utf8' });
    assert.equal(res.status, 0, res.stdout + res.stderr);
  });
});
