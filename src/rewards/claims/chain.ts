import {
  createPublicClient,
  http,
  parseEventLogs,
  TransactionReceiptNotFoundError,
  type Abi,
  type Hex,
  type Log,
  type PublicClient,
} from 'viem';
import artifact from '../../../contracts/ClaimDistributor.json' with { type: 'json' };
import { appError } from '../../platform/errors.js';

export const DISTRIBUTOR_ABI = artifact.abi as Abi;

/** A mined transaction as the claim rail judges it. */
export interface MinedTransaction {
  succeeded: boolean;
  to: string | null;
  blockNumber: bigint;
  confirmations: number;
  logs: Log[];
}

/** What the service reads from the chain of the claim rail (CHAIN_RPC_URL), through viem. */
export interface ClaimChain {
  /** The transaction's receipt and its confirmations, or null when the chain does not know it. */
  minedTransaction(hash: Hex): Promise<MinedTransaction | null>;
}

export function createClaimChain(rpcUrl: string): ClaimChain {
  const client: PublicClient = createPublicClient({ transport: http(rpcUrl, { retryCount: 1, timeout: 10_000 }) });
  return {
    async minedTransaction(hash) {
      try {
        const receipt = await client.getTransactionReceipt({ hash });
        const head = await client.getBlockNumber({ cacheTime: 0 });
        return {
          // viem answers a reverted transaction with status 'reverted' rather than throwing: a revert is a mismatch
          succeeded: receipt.status === 'success',
          to: receipt.to ? receipt.to.toLowerCase() : null,
          blockNumber: receipt.blockNumber,
          confirmations: Number(head - receipt.blockNumber + 1n),
          logs: receipt.logs,
        };
      } catch (err) {
        if (err instanceof TransactionReceiptNotFoundError) return null;
        throw appError('CHAIN_UNAVAILABLE');
      }
    },
  };
}

/** The distributor's events of `name` among the logs, emitted by `distributor` itself (never a look-alike). */
export function distributorEvents(logs: Log[], distributor: string, name: 'Claimed' | 'BatchFrozen' | 'BatchUnfrozen') {
  return parseEventLogs({ abi: DISTRIBUTOR_ABI, logs, eventName: name, strict: true })
    .filter((l) => l.address.toLowerCase() === distributor)
    .map((l) => l.args as { batchId: Hex; account?: Hex; amount?: bigint });
}
