import { sql } from 'kysely';
import { generateAgentKey, signAgentRequest } from '../../sdk/index.js';
import type { BenchContext } from '../lib/context.js';
import type { PreparedRequest } from '../lib/load.js';
import type { Scenario } from './types.js';

const PATH = '/v1/agents/join';

/**
 * `count` join requests (numbered from `first`), each by a new bot: a fresh Ed25519 key signs a body carrying
 * its own public key (SDK generateAgentKey + signAgentRequest). The driver signs them just before the slice
 * that sends them, well within SIGNATURE_MAX_SKEW_MS (5 min).
 */
function joinRequests(ctx: BenchContext, side: string, count: number, first: number): PreparedRequest[] {
  const out: PreparedRequest[] = new Array(count);
  for (let i = 0; i < count; i++) {
    const key = generateAgentKey();
    const body = { publicKey: key.publicKey, name: `bench-${ctx.runId}-${side}-${first + i}` };
    out[i] = { headers: signAgentRequest({ key, aud: ctx.aud, method: 'POST', path: PATH, body }), body: JSON.stringify(body) };
  }
  return out;
}

/**
 * A signed agent write: POST /v1/agents/join by a new bot per request (one Ed25519 verify, one Redis
 * SET NX PX for the nonce, one PostgreSQL transaction inserting the bot and its key) vs a bare route doing
 * only the verify and the SET NX on the same kind of requests.
 */
export const agentJoin: Scenario = {
  name: 'agent-join',
  title: 'POST /v1/agents/join (signed, new bot)',
  targetRatio: 0.6,
  baseline: (ctx) => ({
    server: 'ed25519-redis',
    load: { method: 'POST', path: PATH, expectStatus: 200, feed: (n, first) => joinRequests(ctx, 'base', n, first) },
  }),
  subject: (ctx) => ({
    server: 'app',
    load: { method: 'POST', path: PATH, expectStatus: 202, feed: (n, first) => joinRequests(ctx, 'app', n, first) },
  }),
  // 202 means "created": check that each one left a bot and its version-1 key (and nothing much more).
  async verify(ctx, { accepted, maxUnanswered }) {
    const { db } = await ctx.database();
    const { rows } = await sql<{ bots: number; keys: number }>`
      select count(*)::int as bots, count(k.bot_id)::int as keys
      from bots b left join bot_keys k on k.bot_id = b.bot_id and k.version = 1
      where b.name like ${`bench-${ctx.runId}-app-%`}`.execute(db);
    const { bots = 0, keys = 0 } = rows[0] ?? {};
    const problems: string[] = [];
    if (bots < accepted.subject || bots > accepted.subject + maxUnanswered) {
      problems.push(`${accepted.subject} joins answered 202 but ${bots} bots were inserted`);
    }
    if (keys !== bots) problems.push(`${bots} bots inserted but ${keys} have their key`);
    return problems;
  },
};
