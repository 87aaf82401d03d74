import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { generatePrivateKey, privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts';
import { randomBytes } from 'node:crypto';
import { buildAgentProof, signAgentRequest, type AgentKey } from '../../sdk/index.js';

/** SIWE nonces are alphanumeric (EIP-4361), and the proof nonce is x-agent-nonce. */
export const proofNonce = () => randomBytes(12).toString('hex');

export interface Reply {
  status: number;
  body: Record<string, unknown> & { code?: string; message?: string; details?: { header?: string; code?: string; message: string }[] };
}

export async function post(app: FastifyInstance, path: string, body: unknown, headers: Record<string, string>): Promise<Reply> {
  const res = await app.inject({
    method: 'POST',
    url: path,
    headers: { 'content-type': 'application/json', ...headers },
    payload: JSON.stringify(body),
  });
  return { status: res.statusCode, body: res.json() };
}

/** A fresh AgentKit wallet (a viem local account) and the AgentBook human id it is registered under. */
export function newWallet(): { account: PrivateKeyAccount; humanId: string } {
  const account = privateKeyToAccount(generatePrivateKey());
  return { account, humanId: `0x${createHash('sha256').update(account.address).digest('hex')}` };
}

export const linkedHumanIdOf = (humanId: string) => `h_${createHash('sha256').update(humanId).digest('hex').slice(0, 32)}`;

export interface SignedWriteInput {
  key: AgentKey;
  path: string;
  body: unknown;
  origin: string;
  wallet?: PrivateKeyAccount;
  /** Overrides of the proof (a wrong path, nonce, time or chain). */
  proof?: { path?: string; nonce?: string; issuedAt?: number; chainId?: string; origin?: string; expirationSeconds?: number };
  keyVersion?: number;
}

/** Signs an agent write with the bot key and, when a wallet is given, an AgentKit proof for the same nonce and route. */
export async function signedWithProof(app: FastifyInstance, input: SignedWriteInput): Promise<Reply> {
  const nonce = proofNonce();
  const agentProof = input.wallet
    ? await buildAgentProof({
        wallet: input.wallet,
        origin: input.proof?.origin ?? input.origin,
        path: input.proof?.path ?? input.path,
        nonce: input.proof?.nonce ?? nonce,
        ...(input.proof?.issuedAt !== undefined ? { issuedAt: input.proof.issuedAt } : {}),
        ...(input.proof?.chainId !== undefined ? { chainId: input.proof.chainId } : {}),
        ...(input.proof?.expirationSeconds !== undefined ? { expirationSeconds: input.proof.expirationSeconds } : {}),
      })
    : undefined;
  const headers = signAgentRequest({
    key: input.key,
    method: 'POST',
    path: input.path,
    body: input.body,
    nonce,
    ...(agentProof ? { agentProof } : {}),
    ...(input.keyVersion !== undefined ? { keyVersion: input.keyVersion } : {}),
  });
  return post(app, input.path, input.body, headers);
}

export async function joinBot(app: FastifyInstance, key: AgentKey, name = 'Test bot'): Promise<Reply> {
  const body = { publicKey: key.publicKey, name };
  return post(app, '/v1/agents/join', body, signAgentRequest({ key, method: 'POST', path: '/v1/agents/join', body }));
}

/** Joins a bot that must be accepted: a refusal fails the test with the service's answer. */
export async function joinedBot(app: FastifyInstance, key: AgentKey, name = 'Test bot'): Promise<Reply> {
  const res = await joinBot(app, key, name);
  assert.equal(res.status, 202, `join refused: ${JSON.stringify(res.body)}`);
  return res;
}

export function packet(tag: string) {
  return {
    room: 'world',
    lang: 'en',
    title: `Harbour authority approves new ferry schedule ${tag}`,
    summary: 'The port authority voted to add two evening ferry crossings from next month.',
    body: 'The harbour authority approved an expanded ferry timetable on Tuesday after a public consultation. Two evening crossings will be added.',
    claims: [{ text: 'The authority approved two extra evening crossings.' }],
    sources: [{ url: `https://example.org/ferry-${tag}`, title: 'Authority minutes', publisher: 'Harbour Authority' }],
  };
}
