import { readdirSync, readFileSync } from 'node:fs';

/** Milliseconds per clock tick of the times in /proc/<pid>/stat (USER_HZ: 100 ticks a second on Linux). */
const TICK_MS = 10;

/** The command name and the fields after it of /proc/<pid>/stat (the name is in parentheses and may hold spaces). */
function procStat(pid: number | string): { name: string; fields: string[] } | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const close = stat.lastIndexOf(')');
    return { name: stat.slice(stat.indexOf('(') + 1, close), fields: stat.slice(close + 2).split(' ') };
  } catch {
    return undefined; // not on this machine, or ended meanwhile
  }
}

/** utime + stime in ms of a stat line's fields after the name (the 14th and 15th fields of the line). */
const cpuMsOf = (fields: readonly string[]) => (Number(fields[11]) + Number(fields[12])) * TICK_MS;

/** utime + stime of a process of this machine in ms; undefined when unreadable. */
export function procCpuMs(pid: number | string): number | undefined {
  const stat = procStat(pid);
  return stat && cpuMsOf(stat.fields);
}

/**
 * The CPU time in ms of every PostgreSQL process of this machine (its backends, WAL writer, checkpointer: the
 * processes named postgres), or null when there are none to read (a server elsewhere).
 */
export function postgresCpuMs(): number | null {
  let pids: string[];
  try {
    pids = readdirSync('/proc').filter((d) => /^\d+$/.test(d));
  } catch {
    return null;
  }
  let total: number | null = null;
  for (const pid of pids) {
    const stat = procStat(pid);
    if (stat?.name !== 'postgres') continue;
    total = (total ?? 0) + cpuMsOf(stat.fields);
  }
  return total;
}
