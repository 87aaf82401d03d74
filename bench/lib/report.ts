import { problemsOf, type ScenarioResult, type SideResult } from './measure.js';

const int = (n: number) => Math.round(n).toLocaleString('en-US');
const ms = (n: number) => n.toFixed(2);
const pct = (n: number) => `${(n * 100).toFixed(1)}%`;

export function isInvalid(r: ScenarioResult): boolean {
  if (r.failure !== undefined) return true;
  return problemsOf(r.subject).length > 0 || problemsOf(r.baseline).length > 0 || (r.verifyProblems?.length ?? 0) > 0;
}

/** The targets of a row and whether each is met ("MISSED" otherwise), or INVALID when the numbers cannot be trusted. */
export function targetVerdict(r: ScenarioResult): string {
  const ratio = r.baseline.rps > 0 ? r.subject.rps / r.baseline.rps : 0;
  const parts: string[] = [];
  if (r.targetRatio !== undefined) parts.push(`>= ${pct(r.targetRatio)}: ${ratio >= r.targetRatio ? 'met' : 'MISSED'}`);
  if (r.targetP99Ms !== undefined) parts.push(`p99 < ${r.targetP99Ms} ms: ${r.subject.p99 < r.targetP99Ms ? 'met' : 'MISSED'}`);
  if (r.failure !== undefined) return `${parts.map((p) => p.replace(/: .*$/, '')).join(', ')}: FAILED (see checks)`;
  if (isInvalid(r)) return `${parts.map((p) => p.replace(/: .*$/, '')).join(', ')}: INVALID (see checks)`;
  return parts.join(', ') || 'none';
}

/** The markdown table: one row per scenario, the service next to its baseline. */
export function renderTable(results: readonly ScenarioResult[]): string {
  const header = ['scenario', 'conns', 'req/s', 'p50 ms', 'p99 ms', 'baseline req/s', 'baseline p50', 'baseline p99', 'ratio', 'target'];
  const rows = results.map((r) => {
    const s = r.subject;
    const b = r.baseline;
    const ratio = b.rps > 0 ? s.rps / b.rps : 0;
    return [
      r.title,
      String(r.connections),
      int(s.rps),
      ms(s.p50),
      ms(s.p99),
      int(b.rps),
      ms(b.p50),
      ms(b.p99),
      pct(ratio),
      targetVerdict(r),
    ];
  });
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
  const leftAligned = (i: number) => i === 0 || i === header.length - 1;
  const line = (cells: string[]) =>
    `| ${cells.map((c, i) => (leftAligned(i) ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join(' | ')} |`;
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
      `; slices ${side.sliceRps.map(int).join(' / ')} req/s; ${side.instances ? 'server CPU (instances together)' : 'server CPU'} ${side.serverCpuPercent.toFixed(0)}% of a core, ` +
      `${int(side.cpuMicrosPerResponse)} µs per response (${int(side.systemMicrosPerResponse)} µs in the kernel); autocannon CPU ${side.clientCpuPercent.toFixed(0)}%: ` +
      (problems.length ? `INVALID: ${problems.join('; ')}` : 'ok'),
  ];
  for (const sample of side.samples) lines.push(`    unexpected response: ${sample}`);
  const bg = side.background;
  if (bg) {
    const bgStatuses = Object.entries(bg.statusCounts)
      .map(([status, count]) => `${status}: ${int(count)}`)
      .join(', ');
    lines.push(
      `    meanwhile ${bg.label}: ${int(bg.responses)} answered [${bgStatuses || 'none'}], ${bg.rate.toFixed(1)}/s over the measured slices (asked ${bg.targetRate}/s), ` +
        `errors ${bg.errors}, timeouts ${bg.timeouts}; not counted in req/s or latency`,
    );
    for (const sample of bg.samples) lines.push(`    unexpected ${bg.label} response: ${sample}`);
  }
  if (side.instances && side.proxy) {
    const each = side.instances.map(
      (it, i) =>
        `instance ${i + 1}: ${pct(it.share)} (${int(it.forwarded)}), CPU ${it.cpuPercent.toFixed(0)}% of a core, ${int(it.cpuMicrosPerRequest)} µs per request`,
    );
    lines.push(
      `    behind the proxy (requests sent to each instance, reads and background together): ${each.join('; ')}; ` +
        `proxy process CPU ${side.proxy.cpuPercent.toFixed(0)}% of a core, ${int(side.proxy.cpuMicrosPerRequest)} µs per request`,
    );
  }
  for (const p of side.warmupProblems) lines.push(`    warm-up: ${p}`);
  if (side.labels.length > 1) {
    lines.push(
      `    latency by request: ${side.labels.map((l) => `${l.label} p50 ${ms(l.p50)} / p99 ${ms(l.p99)} ms (${int(l.count)})`).join('; ')}`,
    );
  }
  return lines;
}

/** Per side: every status seen, errors, per-slice req/s, server CPU, and samples of unexpected answers. */
export function renderChecks(results: readonly ScenarioResult[]): string {
  const lines: string[] = [];
  for (const r of results) {
    lines.push(`${r.title} [${r.name}]`);
    if (r.failure !== undefined) {
      lines.push(`- FAILED before it could be measured: ${r.failure}`);
      continue;
    }
    for (const note of r.notes) lines.push(`- ${note}`);
    lines.push(...describeSide('scenario', r.subject), ...describeSide('baseline', r.baseline));
    if (r.subject.instances && r.baseline.instances && r.baseline.cpuMicrosPerResponse > 0) {
      // both sides run the same server: the question is whether a response costs more with more instances
      lines.push(
        `- server CPU per response (all instances of a side together), scenario / baseline: ${pct(r.subject.cpuMicrosPerResponse / r.baseline.cpuMicrosPerResponse)}`,
      );
    } else if (r.subject.cpuMicrosPerResponse > 0) {
      const cpuRatio = r.baseline.cpuMicrosPerResponse / r.subject.cpuMicrosPerResponse;
      lines.push(
        `- server CPU per response, baseline / scenario: ${pct(cpuRatio)} (the req/s ratio if each server's own CPU time were the only limit)`,
      );
    }
    if (r.verifyProblems) {
      if (r.verifyProblems.length === 0) lines.push('- data check: ok (every accepted write left its rows in the database)');
      for (const p of r.verifyProblems) lines.push(`- data check: INVALID: ${p}`);
    }
  }
  return lines.join('\n');
}
