/**
 * `npx tsx bench/profile-summary.ts <file.cpuprofile> [top] [skipSeconds]`: where a server process spent its
 * CPU, from a V8 profile written with BENCH_CPU_PROF=<dir> (the main thread's file is the larger one of each
 * server directory; the other is tsx's loader thread). skipSeconds drops the start-up (module loading).
 * Prints self time by function, self time by package or file, and inclusive time by package or file.
 */
import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** A package name, a node: module, a project file, or (native). */
function place(url: string): string {
  if (!url) return '(native)';
  const nm = url.lastIndexOf('node_modules/');
  if (nm >= 0) {
    const rest = url.slice(nm + 'node_modules/'.length).split('/');
    return rest[0]!.startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0]!;
  }
  if (url.startsWith('node:')) return url;
  const root = process.cwd().replace(/\/$/, '') + '/';
  const path = url.replace(/^file:\/\//, '');
  return path.startsWith(root) ? path.slice(root.length) : path;
}

const [file, topText, skipText] = process.argv.slice(2);
if (!file) {
  console.error('usage: npx tsx bench/profile-summary.ts <file.cpuprofile> [top=25] [skipSeconds=0]');
  process.exit(2);
}
const top = Number(topText ?? 25);
const skipMicros = Number(skipText ?? 0) * 1e6;
const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map<number, number>();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);

const self = new Map<number, number>();
let elapsed = 0;
let total = 0;
profile.samples.forEach((id, i) => {
  const dt = profile.timeDeltas[i] ?? 0;
  elapsed += dt;
  if (elapsed < skipMicros) return;
  self.set(id, (self.get(id) ?? 0) + dt);
  total += dt;
});

const selfByFunction = new Map<string, number>();
const selfByPlace = new Map<string, number>();
const inclusiveByPlace = new Map<string, number>();
const add = (map: Map<string, number>, key: string, time: number) => map.set(key, (map.get(key) ?? 0) + time);
let idle = 0;
for (const [id, time] of self) {
  const node = byId.get(id)!;
  const name = node.callFrame.functionName || '(anonymous)';
  if (name === '(idle)') {
    idle += time;
    continue;
  }
  add(selfByFunction, `${name} ${place(node.callFrame.url)}:${node.callFrame.lineNumber + 1}`, time);
  add(selfByPlace, place(node.callFrame.url), time);
  const seen = new Set<string>();
  for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
    const where = place(byId.get(cur)!.callFrame.url);
    if (!seen.has(where)) {
      seen.add(where);
      add(inclusiveByPlace, where, time);
    }
  }
}

const busy = total - idle;
const show = (title: string, map: Map<string, number>) => {
  console.log(`\n${title}`);
  for (const [key, time] of [...map].sort((a, b) => b[1] - a[1]).slice(0, top)) {
    console.log(`${((time / busy) * 100).toFixed(1).padStart(6)}%  ${(time / 1000).toFixed(0).padStart(7)} ms  ${key}`);
  }
};
console.log(
  `${file}: ${(total / 1e6).toFixed(1)} s sampled, ${(busy / 1e6).toFixed(1)} s busy (${((busy / total) * 100).toFixed(0)}%); percentages are of busy time`,
);
show('self time by function', selfByFunction);
show('self time by package / file', selfByPlace);
show('inclusive time by package / file', inclusiveByPlace);
