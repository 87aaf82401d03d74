import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
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

/** `h_` + the first 32 hex characters of SHA-256 of the AgentBook human id. */
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
    const { localFile } = config;
    return {
      lookupHuman: async (address) =>
        config.staticMap[address.toLowerCase()] ??
        (localFile ? ((await readLocalAgentBook(localFile))[address.toLowerCase()] ?? null) : null),
    };
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

/**
 * The local AgentBook of the local demo (config.agentbook.localFile): `{ "<address>": "<humanId>" }` as
 * `npm run agentbook:register` writes it, read at each lookup, so that a wallet registered while the service runs
 * counts at once. No file yet is an empty book; a file that is not such an object is an empty book too (the
 * command rewrites it whole, so a half-written file is never read), never a 500.
 */
export async function readLocalAgentBook(file: string): Promise<Record<string, string>> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(await readFile(file, 'utf8'));
  } catch {
    return {};
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return {};
  const book: Record<string, string> = {};
  for (const [address, humanId] of Object.entries(parsed)) if (typeof humanId === 'string') book[address.toLowerCase()] = humanId;
  return book;
}
