import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { buildAgentProof, generateAgentKey, signAgentRequest } from '../../sdk/index.js';
import { createTestApp, createTestDatabase } from '../helpers/app.js';
import { needsPostgres, needsRedis } from '../helpers/needs.js';
import { testRedisPrefix } from '../helpers/redis.js';
import { joinBot, joinedBot, newWallet, post, proofNonce, signedWithProof } from './support.js';

const VERIFY = '/v1/agents/verify';

describe('verified agents across instances', () => {
  test(
    'a proof spent on one instance cannot verify another bot on another instance',
    { skip: needsRedis('two instances share one nonce store') },
    async () => {
      const wallet = newWallet();
      const db = await createTestDatabase();
      const env = { AGENTBOOK_STATIC: JSON.stringify({ [wallet.account.address]: wallet.humanId }), REDIS_KEY_PREFIX: testRedisPrefix() };
      const a = await createTestApp(env, db);
      const b = await createTestApp(env, db);
      try {
        const origin = a.config.worldAgentkitResourceOrigins[0]!;
        const [first, second] = [generateAgentKey(), generateAgentKey()];
        await joinedBot(a.app, first);
        await joinedBot(b.app, second);
        const nonce = proofNonce();
        const agentProof = await buildAgentProof({ wallet: wallet.account, origin, path: VERIFY, nonce });
        const send = (app: typeof a.app, key: typeof first) =>
          post(
            app,
            VERIFY,
            { botId: key.botId },
            signAgentRequest({ key, method: 'POST', path: VERIFY, body: { botId: key.botId }, nonce, agentProof }),
          );
        assert.equal((await send(a.app, first)).status, 202);
        const replay = await send(b.app, second);
        assert.equal(replay.status, 403);
        assert.equal(replay.body.details?.[0]?.code, 'NONCE_REUSED');
      } finally {
        await a.close();
        await b.close();
        await db.drop();
      }
    },
  );

  test(
    'two bots verifying with one wallet at the same moment: exactly one is bound',
    { skip: needsPostgres('two concurrent transactions') },
    async () => {
      const wallet = newWallet();
      const db = await createTestDatabase();
      const env = { AGENTBOOK_STATIC: JSON.stringify({ [wallet.account.address]: wallet.humanId }) };
      const a = await createTestApp(env, db);
      const b = await createTestApp(env, db);
      try {
        const origin = a.config.worldAgentkitResourceOrigins[0]!;
        const keys = [generateAgentKey(), generateAgentKey()];
        for (const key of keys) await joinBot(a.app, key);
        const results = await Promise.all(
          [a, b].map((app, i) =>
            signedWithProof(app.app, { key: keys[i]!, path: VERIFY, body: { botId: keys[i]!.botId }, origin, wallet: wallet.account }),
          ),
        );
        assert.deepEqual(results.map((r) => r.status).sort(), [202, 409], JSON.stringify(results.map((r) => r.body)));
        assert.equal(results.find((r) => r.status === 409)!.body.code, 'AGENT_WALLET_IN_USE');
      } finally {
        await a.close();
        await b.close();
        await db.drop();
      }
    },
  );
});
