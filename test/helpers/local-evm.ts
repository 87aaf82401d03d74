import type { AddressInfo } from 'node:net';
import ganache from 'ganache';
import { createPublicClient, createWalletClient, http, type Abi, type Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import artifact from '../../contracts/AgentBook.json' with { type: 'json' };

/**
 * How long a test's viem client waits for the local node's answer. ganache runs in the test's own process, which
 * also serves the app under test: on a slow machine of the kind, busy with other test files, deploying a contract
 * took longer than viem's default of 10 s.
 */
const RPC_TIMEOUT_MS = 60_000;

/**
 * ganache in-process on a loopback port (chain id 1337, each transaction mined at once), with one funded account
 * of `secretKey`: its JSON-RPC URL, the chain and a viem transport to it for the tests' clients.
 */
export async function startGanache(secretKey: Hex, balance: string, options: { vmErrorsOnRPCResponse?: boolean } = {}) {
  const server = ganache.server({
    logging: { quiet: true },
    chain: { chainId: 1337, ...options },
    wallet: { accounts: [{ secretKey, balance }] },
    miner: { instamine: 'eager' },
  });
  await server.listen(0, '127.0.0.1');
  const rpcUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const chain = {
    id: 1337,
    name: 'local',
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [rpcUrl] } },
  };
  return { server, rpcUrl, chain, transport: http(rpcUrl, { timeout: RPC_TIMEOUT_MS }) };
}

/**
 * A real EVM node for tests: ganache (from the npm registry, run in-process, speaking JSON-RPC over HTTP on a
 * loopback port), with the AgentBook of contracts/AgentBook.sol deployed from its compiled artifact.
 */
export async function startAgentBookChain() {
  const deployerKey = generatePrivateKey();
  const deployer = privateKeyToAccount(deployerKey);
  const { server, rpcUrl, chain, transport } = await startGanache(deployerKey, '0x56BC75E2D63100000');
  const publicClient = createPublicClient({ chain, transport });
  const wallet = createWalletClient({ chain, account: deployer, transport });
  const hash = await wallet.deployContract({ abi: artifact.abi as Abi, bytecode: artifact.bytecode as Hex });
  const receipt = await publicClient.waitForTransactionReceipt({ hash });
  const contract = receipt.contractAddress!;

  return {
    rpcUrl,
    contract,
    /** Enrols an agent wallet under a human id (0 removes it), as World's registration would. */
    async register(agent: `0x${string}`, humanId: bigint) {
      const tx = await wallet.writeContract({
        address: contract,
        abi: artifact.abi as Abi,
        functionName: 'register',
        args: [agent, humanId],
      });
      await publicClient.waitForTransactionReceipt({ hash: tx });
    },
    close: () => server.close(),
  };
}
