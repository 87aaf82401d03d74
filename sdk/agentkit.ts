import type { Account, Chain, Transport, WalletClient } from 'viem';

/** Something that signs EIP-191 messages: a viem local account (privateKeyToAccount) or a wallet client with an account. */
export type AgentWallet = Extract<Account, { type: 'local' }> | WalletClient<Transport, Chain | undefined, Account>;

export interface AgentProofInput {
  wallet: AgentWallet;
  /** The service origin the proof is for (one of its WORLD_AGENTKIT_RESOURCE_ORIGINS), e.g. `https://news.example`. */
  origin: string;
  /** The exact route path being called, e.g. `/v1/agents/attestations`. */
  path: string;
  /** Must equal the request's `x-agent-nonce`. */
  nonce: string;
  /** CAIP-2 chain of the wallet as registered in AgentBook (default `eip155:480`, World Chain). */
  chainId?: string;
  /** Epoch ms; default now. */
  issuedAt?: number;
  /** Lifetime of the proof in seconds (default 300). */
  expirationSeconds?: number;
  statement?: string;
}

/** The address of a viem local account or of a wallet client's account. */
export function walletAddress(wallet: AgentWallet): `0x${string}` {
  return 'address' in wallet && typeof wallet.address === 'string' ? wallet.address : (wallet as WalletClient).account!.address;
}

/** Signs `message` with EIP-191 (personal_sign) by a viem local account or a wallet client. */
export async function signWalletMessage(wallet: AgentWallet, message: string): Promise<`0x${string}`> {
  if ('type' in wallet && wallet.type === 'local') return wallet.signMessage({ message });
  const client = wallet as WalletClient<Transport, Chain | undefined, Account>;
  return client.signMessage({ account: client.account, message });
}

/**
 * Builds the World AgentKit `agentproof` header for one request: the SIWE (EIP-4361) message for this origin,
 * route and nonce, formatted by @worldcoin/agentkit exactly as the service rebuilds it, signed with EIP-191 by the
 * agent's wallet, and sent as base64 of the AgentKit JSON payload. One proof is good for one request.
 */
export async function buildAgentProof(input: AgentProofInput): Promise<string> {
  const origin = input.origin.replace(/\/$/, '');
  const issuedAtMs = input.issuedAt ?? Date.now();
  const info = {
    domain: new URL(origin).host,
    uri: `${origin}${input.path}`,
    version: '1',
    chainId: input.chainId ?? 'eip155:480',
    type: 'eip191' as const,
    nonce: input.nonce,
    issuedAt: new Date(issuedAtMs).toISOString(),
    expirationTime: new Date(issuedAtMs + (input.expirationSeconds ?? 300) * 1000).toISOString(),
    ...(input.statement ? { statement: input.statement } : {}),
  };
  const address = walletAddress(input.wallet);
  // loaded here, not at the top: importing @worldcoin/agentkit costs about 1.4 s of CPU, and most users of the
  // SDK never build a proof
  const { formatSIWEMessage } = await import('@worldcoin/agentkit');
  const signature = await signWalletMessage(input.wallet, formatSIWEMessage(info, address));
  return Buffer.from(JSON.stringify({ ...info, address, signature }), 'utf8').toString('base64');
}
