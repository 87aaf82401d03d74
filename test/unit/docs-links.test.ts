import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const repo = fileURLToPath(new URL('../..', import.meta.url));

function markdownFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return markdownFiles(path);
    return entry.name.endsWith('.md') ? [path] : [];
  });
}

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens. */
function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}_\- ]/gu, '')
    .replaceAll(' ', '-');
}

function anchors(file: string): Set<string> {
  const found = new Set<string>();
  let fenced = false;
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (line.startsWith('```')) fenced = !fenced;
    const heading = /^#{1,6} (.*)$/.exec(line);
    if (!fenced && heading) found.add(slug(heading[1]!));
  }
  return found;
}

test('every relative link of the docs names a file that exists and, with an anchor, one of its headings', () => {
  const files = [...markdownFiles(join(repo, 'docs')), ...['README.md', 'CHANGELOG.md', 'bench/README.md'].map((f) => join(repo, f))];
  assert.ok(files.length > 40, `found ${files.length} pages`);
  const broken: string[] = [];
  for (const file of files) {
    const text = readFileSync(file, 'utf8').replace(/^```[\s\S]*?^```/gm, '');
    for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^[a-z]+:/.test(target!) || target!.startsWith('/')) continue;
      const [path, anchor] = target!.split('#') as [string, string | undefined];
      const to = path ? join(dirname(file), path) : file;
      const from = relative(repo, file);
      if (!existsSync(to)) broken.push(`${from}: ${target} (no such file)`);
      else if (anchor && to.endsWith('.md') && !anchors(to).has(anchor)) broken.push(`${from}: ${target} (no such heading)`);
    }
  }
  assert.deepEqual(broken, []);
});
