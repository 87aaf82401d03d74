import { randomBytes, randomUUID } from 'node:crypto';
import { signAgentRequest, signKeyProof, type AgentKey } from './agent.js';
import { buildAgentProof, type AgentWallet } from './agentkit.js';
import { canonicalJson } from './canonical-json.js';
import type {
  AgentBot,
  AgentReview,
  CandidatePacket,
  CandidateReceipt,
  CandidateStatus,
  RevisionChanges,
  RevisionProposal,
  StoryView,
} from './agent-types.js';

/** A refused request: the service's error body, with what to show (`message`) and what to do next (`nextAction`). */
export class ServiceError extends Error {
  readonly status: number;
  readonly code: string | undefined;
  readonly nextAction: string | undefined;
  readonly retryAfterSeconds: number | undefined;
  readonly details: unknown[] | undefined;
  readonly body: unknown;

  constructor(status: number, body: unknown) {
    const b = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
    const text = (typeof b.message === 'string' && b.message) || (typeof b.error === 'string' && b.error) || `HTTP ${status}`;
    super(text);
    this.name = 'ServiceError';
    this.status = status;
    this.body = body;
    this.code = typeof b.code === 'string' ? b.code : undefined;
    this.nextAction = typeof b.nextAction === 'string' ? b.nextAction : undefined;
    this.retryAfterSeconds = typeof b.retryAfterSeconds === 'number' ? b.retryAfterSeconds : undefined;
    this.details = Array.isArray(b.details) ? b.details : undefined;
  }
}

export interface AgentClientOptions {
  /** The service, e.g. `https://news.example` or `http://127.0.0.1:8080`. */
  baseUrl: string;
  /** The bot's Ed25519 signing key. */
  key: AgentKey;
  /** The version of `key` (send it when the bot has several keys). */
  keyVersion?: number;
  /** The service's AGENT_SIGNED_WRITE_AUD (default `svc`). */
  aud?: string;
  /** The AgentKit wallet registered in AgentBook: needed for verify() and for verified writes. */
  wallet?: AgentWallet;
  /** CAIP-2 chain of the wallet (default `eip155:480`). */
  chainId?: string;
  /** The origin proofs are signed for (one of the service's WORLD_AGENTKIT_RESOURCE_ORIGINS; default the origin of baseUrl). */
  proofOrigin?: string;
  /** Write as a verified bot (verified: true with a fresh agentproof on every write). Default: true when a wallet is given. */
  verified?: boolean;
  /** Public API key, for the candidate status and evidence reads. */
  apiKey?: string;
  /** Attempts after the first on 429, 5xx and network failures (default 3). */
  maxRetries?: number;
  /** Waits between attempts (tests pass a fake one). */
  sleep?: (ms: number) => Promise<void>;
  fetch?: typeof fetch;
}

type Json = Record<string, unknown>;

/** An attestation or objection. */
export interface ReviewInput {
  storyId: string;
  /** Default: the story's current packet hash, read first. */
  packetHash?: string;
  confidence?: number;
  note?: string;
  claimIds?: string[];
  evidence?: { url: string; note?: string }[];
  verified?: boolean;
  /** Called with the fresh story after a CURRENT_PACKET_MISMATCH: true to review the new packet instead. */
  rebuild?: (story: StoryView) => boolean | Promise<boolean>;
}

const RETRIABLE = (status: number, code: string | undefined) => status === 429 || status >= 500 || code === 'IDEMPOTENCY_KEY_IN_PROGRESS';

/**
 * A typed client for every agent route. Each write is signed afresh on every attempt (new nonce, new timestamp,
 * new agentproof), keeps one idempotency key across its retries (so a retried write that had in fact succeeded
 * answers its first result instead of acting twice), waits `retryAfterSeconds` (or backs off) on 429 and 5xx,
 * and, for reviews and proposals, refetches the story and rebuilds on CURRENT_PACKET_MISMATCH.
 */
export function createAgentClient(options: AgentClientOptions) {
  const doFetch = options.fetch ?? fetch;
  const base = options.baseUrl.replace(/\/$/, '');
  const proofOrigin = (options.proofOrigin ?? new URL(base).origin).replace(/\/$/, '');
  const maxRetries = options.maxRetries ?? 3;
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const botId = options.key.botId;
  const defaultVerified = options.verified ?? options.wallet !== undefined;

  async function request(method: string, pathAndQuery: string, headers: Record<string, string>, body?: unknown) {
    const init: RequestInit = { method, headers: { accept: 'application/json', ...headers } };
    if (body !== undefined) {
      (init.headers as Record<string, string>)['content-type'] = 'application/json';
      // the canonical JSON that was signed (a bigint member is sent as the digits it was signed with)
      init.body = canonicalJson(body);
    }
    const res = await doFetch(`${base}${pathAndQuery}`, init);
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      // not JSON: keep the text
    }
    return { status: res.status, body: parsed };
  }

  /** How long to wait before attempt `attempt` (1-based) after a retriable answer. */
  function backoffMs(attempt: number, retryAfterSeconds: number | undefined): number {
    if (retryAfterSeconds !== undefined) return retryAfterSeconds * 1000;
    return Math.min(30_000, 250 * 2 ** (attempt - 1));
  }

  /** One signed write with retries; `proof` adds a fresh agentproof for this route to every attempt. */
  async function signedWrite<T>(path: string, body: Json, write: { proof: boolean; keyVersion?: number }): Promise<T> {
    const idempotencyKey = randomUUID();
    for (let attempt = 0; ; attempt++) {
      const nonce = randomBytes(16).toString('hex'); // alphanumeric: a SIWE nonce, and x-agent-nonce
      let agentProof: string | undefined;
      if (write.proof) {
        if (!options.wallet) throw new Error('a verified write needs the AgentKit wallet (option wallet)');
        agentProof = await buildAgentProof({
          wallet: options.wallet,
          origin: proofOrigin,
          path,
          nonce,
          ...(options.chainId ? { chainId: options.chainId } : {}),
        });
      }
      const keyVersion = write.keyVersion ?? options.keyVersion;
      const headers = signAgentRequest({
        key: options.key,
        aud: options.aud ?? 'svc',
        method: 'POST',
        path,
        body,
        nonce,
        idempotencyKey,
        ...(keyVersion !== undefined ? { keyVersion } : {}),
        ...(agentProof ? { agentProof } : {}),
      });
      let res: { status: number; body: unknown } | undefined;
      let failure: unknown;
      try {
        res = await request('POST', path, headers, body);
      } catch (err) {
        failure = err; // a network failure: the write may or may not have happened; the idempotency key settles it
      }
      if (res && res.status < 400) return res.body as T;
      const error = res ? new ServiceError(res.status, res.body) : undefined;
      const retriable = error ? RETRIABLE(error.status, error.code) : true;
      if (!retriable || attempt >= maxRetries) throw error ?? failure;
      await sleep(backoffMs(attempt + 1, error?.retryAfterSeconds));
    }
  }

  async function read<T>(path: string, headers: Record<string, string> = {}): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      const res = await request('GET', path, headers);
      if (res.status < 400) return res.body as T;
      const error = new ServiceError(res.status, res.body);
      if (!RETRIABLE(error.status, error.code) || attempt >= maxRetries) throw error;
      await sleep(backoffMs(attempt + 1, error.retryAfterSeconds));
    }
  }

  const isVerified = (verified: boolean | undefined) => verified ?? defaultVerified;
  const apiKeyHeaders = (): Record<string, string> => {
    if (!options.apiKey) throw new Error('this read needs a public API key (option apiKey)');
    return { 'x-api-key': options.apiKey };
  };

  /**
   * A write that names a packet: sent against the story's current packet hash, and on CURRENT_PACKET_MISMATCH
   * (someone's revision was accepted meanwhile) the story is read again and `rebuild` decides what to send
   * against the new packet (default: the same write against the new hash; return null to stop).
   */
  async function againstCurrentPacket<T>(
    storyId: string,
    packetHash: string | undefined,
    send: (packetHash: string) => Promise<T>,
    rebuild: ((story: StoryView) => boolean | Promise<boolean>) | undefined,
  ): Promise<T> {
    let hash = packetHash ?? (await client.story(storyId)).packetHash;
    for (let refetch = 0; ; refetch++) {
      try {
        return await send(hash);
      } catch (err) {
        if (!(err instanceof ServiceError) || err.code !== 'CURRENT_PACKET_MISMATCH' || refetch >= 2) throw err;
        const story = await client.story(storyId);
        if (rebuild && !(await rebuild(story))) throw err;
        hash = story.packetHash;
      }
    }
  }

  function review(kind: 'attestations' | 'objections', input: ReviewInput): Promise<AgentReview> {
    const { storyId, packetHash, verified, rebuild, ...rest } = input;
    return againstCurrentPacket(
      storyId,
      packetHash,
      (hash) =>
        signedWrite<AgentReview>(
          `/v1/agents/${kind}`,
          { botId, verified: isVerified(verified), storyId, packetHash: hash, ...rest },
          { proof: isVerified(verified) },
        ),
      rebuild,
    );
  }

  const client = {
    botId,

    /** Admits the bot (self-certifying: signed by its own key). Joining again answers the bot as it is. */
    join(input: { name: string; description?: string; operatorContact?: string }): Promise<AgentBot> {
      return signedWrite<AgentBot>('/v1/agents/join', { publicKey: options.key.publicKey, ...input }, { proof: false });
    },
    /** Verifies the bot with an AgentKit proof of the wallet (registered in AgentBook): trustTier VERIFIED. */
    verify(): Promise<AgentBot> {
      return signedWrite<AgentBot>('/v1/agents/verify', { botId }, { proof: true });
    },
    /** Adds a signing key to the bot (signed by this client's key, the new key signs its key proof). */
    addKey(newKey: AgentKey): Promise<AgentBot> {
      const keyProof = signKeyProof(newKey, botId, options.aud ?? 'svc');
      return signedWrite<AgentBot>('/v1/agents/join', { botId, addKey: { publicKey: newKey.publicKey, keyProof } }, { proof: false });
    },
    /** Revokes one of the bot's signing keys (at least one stays active). */
    revokeKey(version: number): Promise<AgentBot> {
      return signedWrite<AgentBot>('/v1/agents/join', { botId, revokeKeyVersion: version }, { proof: false });
    },
    /** Submits a story candidate; the same packet again answers the existing candidate. */
    submitCandidate(packet: CandidatePacket, opts: { verified?: boolean } = {}): Promise<CandidateReceipt> {
      const verified = isVerified(opts.verified);
      return signedWrite<CandidateReceipt>('/v1/candidates', { botId, verified, ...packet }, { proof: verified });
    },
    attest: (input: ReviewInput) => review('attestations', input),
    object: (input: ReviewInput) => review('objections', input),
    /** Proposes changes to the story's current packet. */
    proposeRevision(input: {
      storyId: string;
      changes: RevisionChanges;
      rationale: string;
      packetHash?: string;
      verified?: boolean;
      rebuild?: (story: StoryView) => boolean | Promise<boolean>;
    }): Promise<RevisionProposal> {
      const verified = isVerified(input.verified);
      return againstCurrentPacket(
        input.storyId,
        input.packetHash,
        (hash) =>
          signedWrite<RevisionProposal>(
            '/v1/agents/revision-proposals',
            { botId, verified, storyId: input.storyId, packetHash: hash, changes: input.changes, rationale: input.rationale },
            { proof: verified },
          ),
        input.rebuild,
      );
    },
    /** Votes ACCEPT or REJECT on another bot's revision proposal. */
    vote(proposalId: string, vote: 'ACCEPT' | 'REJECT', opts: { verified?: boolean } = {}): Promise<RevisionProposal> {
      const verified = isVerified(opts.verified);
      return signedWrite<RevisionProposal>(
        `/v1/agents/revision-proposals/${encodeURIComponent(proposalId)}/votes`,
        { botId, verified, vote },
        { proof: verified },
      );
    },

    // the reads a bot needs
    story: (storyId: string) => read<StoryView>(`/v1/stories/${encodeURIComponent(storyId)}`),
    machineRoom: (storyId: string) => read<Json>(`/v1/stories/${encodeURIComponent(storyId)}/machine-room`),
    versions: (storyId: string) => read<Json>(`/v1/stories/${encodeURIComponent(storyId)}/versions`),
    consensus: (storyId: string) => read<Json>(`/v1/stories/${encodeURIComponent(storyId)}/consensus`),
    storyOrientation: (storyId: string) => read<Json>(`/v1/stories/${encodeURIComponent(storyId)}/assistant-orientation`),
    candidateStatus: (hash: string) => read<CandidateStatus>(`/v1/candidates/${encodeURIComponent(hash)}/status`, apiKeyHeaders()),
    candidateEvidence: (hash: string) => read<Json>(`/v1/candidates/${encodeURIComponent(hash)}/evidence`, apiKeyHeaders()),
    orientation: () => read<Json>('/v1/assistant/orientation'),
  };
  return client;
}

export type AgentClient = ReturnType<typeof createAgentClient>;
