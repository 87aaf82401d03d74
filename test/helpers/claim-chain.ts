import { createPublicClient, createWalletClient, encodeFunctionData, parseEther, type Abi, type Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts';
import artifact from '../../contracts/ClaimDistributor.json' with { type: 'json' };
import { startGanache } from './local-evm.js';

const abi = artifact.abi as Abi;

/**
 * A real EVM node for the claim rail tests: ganache in-process on a loopback port (the node the project
 * already uses for AgentBook, test/helpers/local-evm.ts), with ClaimDistributor deployed from its committed
 * artifact. Every transaction is mined in its own block, so `mine(n)` adds confirmations.
 */
export async function startClaimChain() {
  const ownerKey = generatePrivateKey();
  const owner = privateKeyToAccount(ownerKey);
  const { server, rpcUrl, chain, transport } = await startGanache(ownerKey, '0x3635C9ADC5DEA00000', { vmErrorsOnRPCResponse: false });
  const publicClient = createPublicClient({ chain, transport });
  const walletOf = (account: PrivateKeyAccount) => createWalletClient({ chain, account, transport });
  const ownerWallet = walletOf(owner);

  async function deploy(): Promise<Hex> {
    const hash = await ownerWallet.deployContract({ abi, bytecode: artifact.bytecode as Hex });
    return (await publicClient.waitForTransactionReceipt({ hash })).contractAddress!;
  }

  /** Sends a call with a fixed gas limit (no estimate), so a call that reverts is still mined, as status 0. */
  async function send(from: PrivateKeyAccount, to: Hex, functionName: string, args: unknown[], value = 0n): Promise<Hex> {
    const hash = await walletOf(from).sendTransaction({ to, data: encodeFunctionData({ abi, functionName, args }), gas: 500_000n, value });
    await publicClient.waitForTransactionReceipt({ hash });
    return hash;
  }

  return {
    rpcUrl,
    owner,
    deploy,
    /** A funded account for a claimant (gas money). */
    async account(key: Hex = generatePrivateKey()) {
      const account = privateKeyToAccount(key);
      const hash = await ownerWallet.sendTransaction({ to: account.address, value: parseEther('1') });
      await publicClient.waitForTransactionReceipt({ hash });
      return account;
    },
    registerBatch: (distributor: Hex, batchId: Hex, root: Hex, deadline: bigint, funds: bigint) =>
      send(owner, distributor, 'registerBatch', [batchId, root, deadline], funds),
    claim: (from: PrivateKeyAccount, distributor: Hex, batchId: Hex, account: Hex, amount: bigint, proof: Hex[]) =>
      send(from, distributor, 'claim', [batchId, account, amount, proof]),
    sweep: (distributor: Hex, batchId: Hex, to: Hex) => send(owner, distributor, 'sweep', [batchId, to]),
    /** Moves the chain's clock forward (and mines a block at the new time). */
    async increaseTime(seconds: number) {
      await publicClient.request({ method: 'evm_increaseTime' as never, params: [seconds] as never });
      await publicClient.request({ method: 'evm_mine' as never, params: [] as never });
    },
    freeze: (distributor: Hex, batchId: Hex) => send(owner, distributor, 'freeze', [batchId]),
    /** Any call as any account (e.g. an owner-only function called by someone else). */
    sendAs: send,
    /** The distributor's owner as the contract reports it. */
    ownerOf: (distributor: Hex) => publicClient.readContract({ address: distributor, abi, functionName: 'owner' }) as Promise<Hex>,
    unfreeze: (distributor: Hex, batchId: Hex) => send(owner, distributor, 'unfreeze', [batchId]),
    async status(hash: Hex) {
      return (await publicClient.getTransactionReceipt({ hash })).status;
    },
    async balance(address: Hex) {
      return publicClient.getBalance({ address });
    },
    /** Mines `n` empty blocks: confirmations for what came before. */
    async mine(n: number) {
      for (let i = 0; i < n; i++) await publicClient.request({ method: 'evm_mine' as never, params: [] as never });
    },
    close: () => server.close(),
  };
}
