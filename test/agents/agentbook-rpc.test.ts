import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { toHex } from 'viem';
import { generateAgentKey } from '../../sdk/index.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { startAgentBookChain } from '../helpers/local-evm.js';
import { joinedBot, linkedHumanIdOf, newWallet, packet, signedWithProof } from './support.js';

const VERIFY = '/v1/agents/verify';

describe('AgentBook in rpc mode, on a local EVM with the AgentBook contract', () => {
  let chain: Awaited<ReturnType<typeof startAgentBookChain>>;
  let t: TestApp;

  before(async () => {
    chain = await startAgentBookChain();
    t = await createTestApp({ AGENTBOOK_MODE: 'rpc', AGENTBOOK_RPC_URL: chain.rpcUrl, AGENTBOOK_CONTRACT: chain.contract });
  });
  after(async () => {
    await t.close();
    await chain.close();
  });

  const verify = async (key: ReturnType<typeof generateAgentKey>, wallet: ReturnType<typeof newWallet>) =>
    signedWithProof(t.app, {
      key,
      path: VERIFY,
      body: { botId: key.botId },
      origin: t.config.worldAgentkitResourceOrigins[0]!,
      wallet: wallet.account,
    });

  test('a wallet registered on chain verifies; linkedHumanId derives from lookupHuman (0x hex of the uint256)', async () => {
    const wallet = newWallet();
    const humanId = 0xabcdef0123456789n;
    await chain.register(wallet.account.address, humanId);
    const key = generateAgentKey();
    await joinedBot(t.app, key);
    const res = await verify(key, wallet);
    assert.equal(res.status, 202, JSON.stringify(res.body));
    assert.equal(res.body.linkedHumanId, linkedHumanIdOf(toHex(humanId)));
    assert.equal(res.body.walletAddress, wallet.account.address);
  });

  test('a wallet the contract answers 0 for is UNREGISTERED', async () => {
    const key = generateAgentKey();
    await joinedBot(t.app, key);
    const res = await verify(key, newWallet());
    assert.equal(res.status, 403);
    assert.equal(res.body.details?.[0]?.code, 'UNREGISTERED');
  });

  test('verified writes read AgentBook each time: a wallet removed on chain stops writing verified', async () => {
    const wallet = newWallet();
    await chain.register(wallet.account.address, 42n);
    const key = generateAgentKey();
    await joinedBot(t.app, key);
    assert.equal((await verify(key, wallet)).status, 202);
    const origin = t.config.worldAgentkitResourceOrigins[0]!;
    const write = (tag: string) =>
      signedWithProof(t.app, {
        key,
        path: '/v1/candidates',
        body: { botId: key.botId, verified: true, ...packet(tag) },
        origin,
        wallet: wallet.account,
      });
    assert.equal((await write('rpc-1')).status, 202);
    await chain.register(wallet.account.address, 0n);
    const refused = await write('rpc-2');
    assert.equal(refused.status, 403);
    assert.equal(refused.body.details?.[0]?.code, 'UNREGISTERED');
  });

  test('an unreachable node is 503 AGENTBOOK_UNAVAILABLE, not "unregistered"', async () => {
    const down = await createTestApp({
      AGENTBOOK_MODE: 'rpc',
      AGENTBOOK_RPC_URL: 'http://127.0.0.1:9',
      AGENTBOOK_CONTRACT: chain.contract,
    });
    try {
      const key = generateAgentKey();
      await joinedBot(down.app, key);
      const res = await signedWithProof(down.app, {
        key,
        path: VERIFY,
        body: { botId: key.botId },
        origin: down.config.worldAgentkitResourceOrigins[0]!,
        wallet: newWallet().account,
      });
      assert.equal(res.status, 503);
      assert.equal(res.body.code, 'AGENTBOOK_UNAVAILABLE');
    } finally {
      await down.close();
    }
  });
});
