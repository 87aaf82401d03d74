import { createHash } from 'node:crypto';
import { createPublicClient, http, isAddress, toHex, type PublicClient } from 'viem';
import type { Config } from '../../config.js';
import { appError } from '../errors.js';

/** The AgentBook function the service calls (the same ABI as @worldcoin/agentkit's AgentBook verifier). */
export const AGENTBOOK_ABI = [
  {
    inputs: [{ internalType: 'address', name: '', type: 'address' }],
    name: 'lookupHuman',
    outputs: [{ internalType: 'uint256', name: '', type: 'uint256' }],
    stateMutability: 'view',
    type: 'function',
  },
] as const;

/** Maps an agent wallet to the anonymous human who registered it, or null when nobody did. */
export interface AgentBook {
  lookupHuman(address: `0x${string}`): Promise<string | null>;
}

/** `h_` + the first 32 hex characters of SHA-256 of the AgentBook human id (docs/api-conventions.md, "Agent signed writes"). */
export function linkedHumanIdFor(humanId: string): string {
  return `h_${createHash('sha256').update(humanId, 'utf8').digest('hex').slice(0, 32)}`;
}

/**
 * AGENTBOOK_MODE=static: AGENTBOOK_STATIC `{ "<address>": "<humanId>" }` (addresses compared case-insensitively).
 * AGENTBOOK_MODE=rpc: `lookupHuman(address)` on AGENTBOOK_CONTRACT through AGENTBOOK_RPC_URL; 0 means unregistered
 * and a registered human id is its 0x hex (as AgentKit returns it). An unreachable node is 503
 * AGENTBOOK_UNAVAILABLE, never "unregistered": a network fault must not read as a missing registration.
 */
export function createAgentBook(config: Config['agentbook'], client?: PublicClient): AgentBook {
  if (config.mode === 'static') {
    return { lookupHuman: async (address) => config.staticMap[address.toLowerCase()] ?? null };
  }
  const contract = config.contract;
  if (!contract || !isAddress(contract)) throw new Error('AGENTBOOK_CONTRACT must be an address in rpc mode');
  const rpc = client ?? createPublicClient({ transport: http(config.rpcUrl, { timeout: 5_000, retryCount: 0 }) });
  return {
    async lookupHuman(address) {
      let humanId: bigint;
      try {
        humanId = await rpc.readContract({ address: contract, abi: AGENTBOOK_ABI, functionName: 'lookupHuman', args: [address] });
      } catch {
        throw appError('AGENTBOOK_UNAVAILABLE');
      }
      return humanId === 0n ? null : toHex(humanId);
    },
  };
}
