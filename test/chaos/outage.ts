import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { signHumanRequest } from '../../sdk/index.js';
import type { Db } from '../../src/platform/db/database.js';
import { TEST_SECRET } from '../helpers/app.js';
import type { ServiceProcess } from './harness.js';
import type { DB } from '../../src/tables.js';

/**
 * Outages: PostgreSQL or Redis stopped under a load of signed writes, public reads and readiness probes, then
 * started again; the service is never restarted. Everything answered is recorded with the phase it was sent
 * and answered in, so that what was answered while the server was down is told apart from the edges.
 */

type Phase = 'before' | 'down' | 'after';
interface Answer {
  what: 'write' | 'read' | 'readyz';
  sentIn: Phase;
  answeredIn: Phase;
  status: number;
  code?: string;
  token?: string;
  id?: string;
  at: number;
}

export interface OutageResult {
  server: 'postgres' | 'redis';
  downMs: number;
  /** Status counts of what was sent and answered while the server was down. */
  whileDown: { writes: Record<string, number>; reads: Record<string, number>; readyz: Record<string, number> };
  /** From the server being back (its start command returned) to the first 200 of /readyz. */
  readyAfterMs: number | null;
  /** From the server being back to the first accepted (202) signed write. */
  writesAfterMs: number | null;
  accepted: number;
  problems: string[];
}

export interface OutageTarget {
  server: 'postgres' | 'redis';
  stop(): Promise<void> | void;
  start(): Promise<void> | void;
}

const count = (answers: Answer[]) => {
  const out: Record<string, number> = {};
  for (const a of answers) {
    const key = `${a.status}${a.code ? ` ${a.code}` : ''}`;
    out[key] = (out[key] ?? 0) + 1;
  }
  return out;
};

export async function outage(
  service: ServiceProcess,
  db: Db<DB>,
  target: OutageTarget,
  storyId: string,
  downMs = 6_000,
): Promise<OutageResult> {
  let phase: Phase = 'before';
  let stopping = false;
  const answers: Answer[] = [];
  const base = service.url;

  async function one(what: Answer['what']): Promise<void> {
    const sentIn = phase;
    const sentWhileStopping = stopping;
    let res: Response;
    let token: string | undefined;
    try {
      if (what === 'write') {
        token = `outage-${target.server}-${randomBytes(5).toString('hex')}`;
        const path = `/v1/stories/${storyId}/comments`;
        const body = { actorId: `outage-${token.slice(-2)}`, verified: false, body: token };
        res = await fetch(`${base}${path}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...signHumanRequest({ secret: TEST_SECRET, method: 'POST', path, body }) },
          body: JSON.stringify(body),
          signal: AbortSignal.timeout(30_000),
        });
      } else {
        const path = what === 'readyz' ? '/readyz' : Math.random() < 0.5 ? '/v1/feed' : `/v1/stories/${storyId}`;
        res = await fetch(`${base}${path}`, { signal: AbortSignal.timeout(30_000) });
      }
    } catch {
      answers.push({ what, sentIn, answeredIn: phase, status: 0, at: Date.now() });
      return;
    }
    const text = await res.text();
    let parsed: { code?: string; id?: string } = {};
    try {
      parsed = JSON.parse(text) as typeof parsed;
    } catch {
      // not JSON: recorded by status
    }
    // a request sent while the stop command ran is an edge case, not "while down"
    answers.push({
      what,
      sentIn: sentWhileStopping ? 'before' : sentIn,
      answeredIn: phase,
      status: res.status,
      ...(what !== 'readyz' && parsed.code ? { code: parsed.code } : {}),
      ...(token ? { token } : {}),
      ...(parsed.id ? { id: parsed.id } : {}),
      at: Date.now(),
    });
  }

  let running = true;
  const loop = (what: Answer['what'], pauseMs: number) =>
    (async () => {
      while (running) {
        await one(what);
        await sleep(pauseMs);
      }
    })();
  const loops = [loop('write', 20), loop('write', 20), loop('read', 10), loop('read', 10), loop('readyz', 100)];

  await sleep(2_000);
  stopping = true;
  await target.stop();
  phase = 'down';
  stopping = false;
  const downAt = Date.now();
  await sleep(downMs);
  phase = 'after';
  await target.start();
  const backAt = Date.now();
  const deadline = backAt + 60_000;
  while (Date.now() < deadline) {
    const after = answers.filter((a) => a.at >= backAt);
    if (after.some((a) => a.what === 'readyz' && a.status === 200) && after.some((a) => a.what === 'write' && a.status === 202)) break;
    await sleep(50);
  }
  await sleep(2_000);
  running = false;
  await Promise.all(loops);

  const problems: string[] = [];
  const down = answers.filter((a) => a.sentIn === 'down' && a.answeredIn === 'down');
  const pick = (what: Answer['what']) => down.filter((a) => a.what === what);
  for (const a of answers)
    if (a.status >= 500 && a.status !== 503) problems.push(`${a.what} answered ${a.status} ${a.code ?? ''} (${a.sentIn})`);
  for (const a of answers) if (a.status === 0) problems.push(`${a.what} got no answer (${a.sentIn} -> ${a.answeredIn})`);
  for (const a of pick('readyz')) if (a.status !== 503) problems.push(`/readyz answered ${a.status} while ${target.server} was down`);
  for (const a of pick('write'))
    if (a.status !== 503) problems.push(`a signed write answered ${a.status} ${a.code ?? ''} while ${target.server} was down`);
  for (const a of pick('read'))
    if (a.status !== 200 && a.status !== 503) problems.push(`a public read answered ${a.status} while ${target.server} was down`);
  for (const what of ['write', 'read', 'readyz'] as const) if (pick(what).length === 0) problems.push(`no ${what} was answered while down`);
  if (service.child.exitCode !== null || service.child.signalCode !== null) problems.push('the service process exited');

  const firstAfter = (ok: (a: Answer) => boolean) => {
    const hit = answers.filter((a) => a.at >= backAt && ok(a)).sort((x, y) => x.at - y.at)[0];
    return hit ? hit.at - backAt : null;
  };
  const readyAfterMs = firstAfter((a) => a.what === 'readyz' && a.status === 200);
  const writesAfterMs = firstAfter((a) => a.what === 'write' && a.status === 202);
  if (readyAfterMs === null) problems.push('/readyz never answered 200 again');
  if (writesAfterMs === null) problems.push('no signed write was accepted again');

  // every accepted write is in the database, once
  const accepted = answers.filter((a) => a.what === 'write' && a.status === 202);
  for (const a of accepted) {
    const rows = await db.selectFrom('comments').select('id').where('body', '=', a.token!).execute();
    if (rows.length !== 1 || rows[0]!.id !== a.id) problems.push(`accepted comment ${a.token} is in the database ${rows.length} times`);
  }
  return {
    server: target.server,
    downMs: backAt - downAt,
    whileDown: { writes: count(pick('write')), reads: count(pick('read')), readyz: count(pick('readyz')) },
    readyAfterMs,
    writesAfterMs,
    accepted: accepted.length,
    problems,
  };
}
