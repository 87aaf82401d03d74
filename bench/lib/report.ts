import { problemsOf, type ScenarioResult, type SideResult } from './measure.js';

const int = (n: number) => Math.round(n).toLocaleString('en-US');
const ms = (n: number) => n.toFixed(2);
const pct = (n: number) => `${(n * 100).toFixed(1)}%`;

export function isInvalid(r: ScenarioResult): boolean {
  return problemsOf(r.subject).length > 0 || problemsOf(r.baseline).length > 0 || (r.verifyProblems?.length ?? 0) > 0;
}

/** The markdown table: one row per scenario, the service next to its baseline. */
export function renderTable(results: readonly ScenarioResult[]): string {
  const header = ['scenario', 'req/s', 'p50 ms', 'p99 ms', 'baseline req/s', 'baseline p50', 'baseline p99', 'ratio', 'target'];
  const rows = results.map((r) => {
    const s = r.subject;
    const b = r.baseline;
    const ratio = b.rps > 0 ? s.rps / b.rps : 0;
    const verdict = isInvalid(r) ? 'INVALID (see checks)' : ratio >= r.targetRatio ? 'met' : 'MISSED';
    return [r.title, int(s.rps), ms(s.p50), ms(s.p99), int(b.rps), ms(b.p50), ms(b.p99), pct(ratio), `>= ${pct(r.targetRatio)}: ${verdict}`];
  });
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
  const leftAligned = (i: number) => i === 0 || i === header.length - 1;
  const line = (cells: string[]) => `| ${cells.map((c, i) => (leftAligned(i) ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join(' | ')} |`;
  const rule = `|${widths.map((w, i) => (leftAligned(i) ? '-'.repeat(w + 2) : `${'-'.repeat(w + 1)}:`)).join('|')}|`;
  return [line(header), rule, ...rows.map(line)].join('\n');
}

function describeSide(label: string, side: SideResult): string[] {
  const statuses = Object.entries(side.statusCounts)
    .map(([status, count]) => `${status}: ${int(count)}`)
    .join(', ');
  const problems = problemsOf(side);
  const lines = [
    `- ${label} (${side.server}): ${int(side.responses)} responses in ${side.durationSeconds.toFixed(2)} s [${statuses || 'none'}], ` +
      `errors ${side.errors}, timeouts ${side.timeouts}, body mismatches ${side.mismatches}` +
      (side.prepared ? `, ${int(side.prepared)} requests pre-signed` : '') +
      `; slices ${side.sliceRps.map(int).join(' / ')} req/s; server CPU ${side.serverCpuPercent.toFixed(0)}% of a core, ` +
      `${int(side.cpuMicrosPerResponse)} µs per response; autocannon CPU ${side.clientCpuPercent.toFixed(0)}%: ` +
      (problems.length ? `INVALID: ${problems.join('; ')}` : 'ok'),
  ];
  for (const sample of side.samples) lines.push(`    unexpected response: ${sample}`);
  for (const p of side.warmupProblems) lines.push(`    warm-up: ${p}`);
  return lines;
}

/** Per side: every status seen, errors, per-slice req/s, server CPU, and samples of unexpected answers. */
export function renderChecks(results: readonly ScenarioResult[]): string {
  const lines: string[] = [];
  for (const r of results) {
    lines.push(`${r.title} [${r.name}]`);
    lines.push(...describeSide('scenario', r.subject), ...describeSide('baseline', r.baseline));
    if (r.subject.cpuMicrosPerResponse > 0) {
      const cpuRatio = r.baseline.cpuMicrosPerResponse / r.subject.cpuMicrosPerResponse;
      lines.push(`- server CPU per response, baseline / scenario: ${pct(cpuRatio)} (the req/s ratio if each server's own CPU time were the only limit)`);
    }
    if (r.verifyProblems) {
      if (r.verifyProblems.length === 0) lines.push('- data check: ok (every accepted write left its rows in the database)');
      for (const p of r.verifyProblems) lines.push(`- data check: INVALID: ${p}`);
    }
  }
  return lines.join('\n');
}
