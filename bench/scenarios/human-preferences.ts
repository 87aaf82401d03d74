import { sql } from 'kysely';
import { signHumanRequest } from '../../sdk/index.js';
import { SCRATCH_TABLE } from '../baselines.js';
import type { BenchContext } from '../lib/context.js';
import type { PreparedRequest } from '../lib/load.js';
import type { Scenario } from './types.js';

const PATH = '/v1/users/me/preferences';

/** `count` preference writes (numbered from `first`), each by a new actor (an insert, not an update), each with its own nonce. Unsigned for the baseline. */
function preferenceRequests(ctx: BenchContext, side: string, count: number, first: number, signed: boolean): PreparedRequest[] {
  const out: PreparedRequest[] = new Array(count);
  for (let i = 0; i < count; i++) {
    const body = { actorId: `bench-${ctx.runId}-${side}-${first + i}`, verified: false, preferences: { lang: 'fr' } };
    const headers = signed ? signHumanRequest({ secret: ctx.humanSecret, method: 'POST', path: PATH, body }) : {};
    out[i] = { headers: { ...headers }, body: JSON.stringify(body) };
  }
  return out;
}

/**
 * A human signed write: POST /v1/users/me/preferences signed with the front end's HMAC secret (nonce claim
 * and rate-limit counter in Redis, one upsert in PostgreSQL) vs a bare route doing one INSERT of the same
 * body into a scratch table.
 */
export const humanPreferences: Scenario = {
  name: 'human-preferences',
  title: 'POST /v1/users/me/preferences (human signed)',
  targetRatio: 0.6,
  baseline: (ctx) => ({
    server: 'pg-insert',
    load: { method: 'POST', path: PATH, expectStatus: 202, feed: (n, first) => preferenceRequests(ctx, 'base', n, first, false) },
  }),
  subject: (ctx) => ({
    server: 'app',
    load: { method: 'POST', path: PATH, expectStatus: 202, feed: (n, first) => preferenceRequests(ctx, 'app', n, first, true) },
  }),
  // 202 answers both an insert and an update: check that each accepted write inserted its own row.
  async verify(ctx, { accepted, maxUnanswered }) {
    const { db } = await ctx.database();
    const count = async (table: string, side: string) => {
      const { rows } = await sql<{
        n: number;
      }>`select count(*)::int as n from ${sql.table(table)} where actor_id like ${`bench-${ctx.runId}-${side}-%`}`.execute(db);
      return rows[0]?.n ?? 0;
    };
    const problems: string[] = [];
    const app = await count('user_preferences', 'app');
    if (app < accepted.subject || app > accepted.subject + maxUnanswered) {
      problems.push(`the service answered 202 ${accepted.subject} times but ${app} preference rows exist`);
    }
    const base = await count(SCRATCH_TABLE, 'base');
    if (base < accepted.baseline || base > accepted.baseline + maxUnanswered) {
      problems.push(`the baseline answered 202 ${accepted.baseline} times but ${base} scratch rows exist`);
    }
    return problems;
  },
};
