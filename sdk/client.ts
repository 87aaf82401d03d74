import { signAgentRequest, type AgentKey } from './agent.js';
import type { BotOwnerChallenge, BotOwnerClaimed, BotOwnerSignatures } from './bot-owner.js';
import { canonicalJson } from './canonical-json.js';
import { signHumanRequest, toQueryString, type HumanActor } from './human.js';
import type { HumanProofFields, HumanProofProvider, VerifiedHumanAction, WorldIdLoginChallenge, WorldIdLoginSession } from './identity.js';

const commentPath = (storyId: string, commentId: string) =>
  `/v1/stories/${encodeURIComponent(storyId)}/comments/${encodeURIComponent(commentId)}`;

export interface ServiceResponse<T = unknown> {
  status: number;
  headers: Headers;
  body: T;
}

export interface ServiceClientOptions {
  baseUrl: string;
  /** Audience of agent messages (the service's AGENT_SIGNED_WRITE_AUD). */
  aud?: string;
  apiKey?: string;
  fetch?: typeof fetch;
}

/**
 * The raw client: signs exactly the path, query and body it is given (a bot's Ed25519 signature or a person's
 * HMAC) and sends them, by path, with the answer untyped. It is kept for what the typed clients cannot do: the
 * project's tests craft deliberately wrong requests with it (bad paths, bodies the document refuses, replays),
 * the site's in-process client sends through it, and the World ID and bot-owner steps are named here. A bot or
 * a front end calling the service uses the generated client (`createApiClient` with `agentSigning` or
 * `humanSigning`), or `createAgentClient`, the bot's convenience layer built on it.
 */
export function createServiceClient(options: ServiceClientOptions) {
  const doFetch = options.fetch ?? fetch;
  const base = options.baseUrl.replace(/\/$/, '');

  async function send<T>(
    method: string,
    pathAndQuery: string,
    headers: Record<string, string>,
    body?: unknown,
  ): Promise<ServiceResponse<T>> {
    const init: RequestInit = { method, headers: { ...headers } };
    if (body !== undefined) {
      (init.headers as Record<string, string>)['content-type'] = 'application/json';
      // the canonical JSON that was signed: valid JSON, and a bigint member is sent as the digits it was signed with
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
    return { status: res.status, headers: res.headers, body: parsed as T };
  }

  /**
   * A person's signed write. `idempotencyKey`: the same key and body sent again (signed again, with a fresh nonce)
   * answers the first answer instead of writing twice.
   */
  function humanWrite<T = unknown>(
    secret: string,
    path: string,
    body: HumanActor & Record<string, unknown>,
    method = 'POST',
    extra: { idempotencyKey?: string } = {},
  ) {
    const headers: Record<string, string> = { ...signHumanRequest({ secret, method, path, body }) };
    if (extra.idempotencyKey !== undefined) headers['idempotency-key'] = extra.idempotencyKey;
    return send<T>(method, path, headers, body);
  }

  return {
    get<T = unknown>(path: string, query: Record<string, string | undefined> = {}) {
      return send<T>('GET', `${path}${toQueryString(query)}`, {});
    },
    getWithApiKey<T = unknown>(path: string, apiKey = options.apiKey ?? '') {
      return send<T>('GET', path, { 'x-api-key': apiKey });
    },
    agentWrite<T = unknown>(
      key: AgentKey,
      path: string,
      body: unknown,
      extra: { keyVersion?: number; agentProof?: string; idempotencyKey?: string; method?: string } = {},
    ) {
      const method = extra.method ?? 'POST';
      const headers = signAgentRequest({ key, aud: options.aud ?? 'svc', method, path, body, ...extra });
      return send<T>(method, path, headers, body);
    },
    humanWrite,
    humanRead<T = unknown>(secret: string, path: string, query: Record<string, string | undefined>) {
      const headers = signHumanRequest({ secret, method: 'GET', path, query });
      return send<T>('GET', `${path}${toQueryString(query)}`, { ...headers });
    },
    /** World ID login, step 1: a challenge for this actor; give IDKit its `action` and `signal`. */
    startWorldIdLogin(secret: string, actor: HumanActor) {
      return humanWrite<WorldIdLoginChallenge>(secret, '/v1/session/worldid/challenge', { ...actor });
    },
    /** World ID login, step 2: IDKit's proof for the challenge; answers the linkedHumanId to sign from now on. */
    completeWorldIdLogin(secret: string, actor: HumanActor, challengeId: string, proof: HumanProofFields) {
      return humanWrite<WorldIdLoginSession>(secret, '/v1/session/worldid/verify', { ...actor, challengeId, ...proof });
    },
    /**
     * Owning a bot, step 1 (the logged-in L3 person): a challenge for the bot's wallet. The bot's developer signs it
     * (signBotOwnerClaim, or `newsroom-agent owner-consent`).
     */
    botOwnerChallenge(secret: string, actor: HumanActor, input: { botId: string; walletAddress: string }) {
      return humanWrite<BotOwnerChallenge>(secret, '/v1/rewards/bot-owners/challenge', { ...actor, ...input });
    },
    /** Owning a bot, step 2: the challenge's signatures; the bot's payouts are the person's from then on. */
    claimBotOwner(secret: string, actor: HumanActor, signatures: BotOwnerSignatures) {
      return humanWrite<BotOwnerClaimed>(secret, '/v1/rewards/bot-owners/claim', { ...actor, ...signatures });
    },
    /** The owner gives up a bot (the payouts already theirs stay theirs). */
    unlinkBotOwner(secret: string, actor: HumanActor, botId: string) {
      return humanWrite<Record<string, unknown>>(secret, '/v1/rewards/bot-owners/unlink', { ...actor, botId });
    },
    /** The author edits their comment's text (within 15 minutes of posting it; 409 COMMENT_EDIT_WINDOW_CLOSED after). */
    editComment(secret: string, actor: HumanActor, storyId: string, commentId: string, body: string) {
      return humanWrite<Record<string, unknown>>(secret, commentPath(storyId, commentId), { ...actor, body }, 'PATCH');
    },
    /** The author deletes their comment: its text is gone from every read, its place in the thread stays. */
    deleteComment(secret: string, actor: HumanActor, storyId: string, commentId: string) {
      return humanWrite<Record<string, unknown>>(secret, commentPath(storyId, commentId), { ...actor }, 'DELETE');
    },
    /** Changes the direction of the reader's reward vote while the story's reward window is open. */
    changeRewardVote(secret: string, actor: HumanActor, storyId: string, vote: 'UP' | 'DOWN') {
      return humanWrite<Record<string, unknown>>(
        secret,
        `/v1/stories/${encodeURIComponent(storyId)}/reward-votes/mine`,
        { ...actor, vote },
        'PUT',
      );
    },
    /**
     * Records a verified human action (`graduate:<storyId>`, `reward:<storyId>`, `flag_high_severity:<claimId>`):
     * with World ID through /v1/worldid/verify, with another provider through /v1/human-proof/verify.
     */
    verifyHumanAction(
      secret: string,
      actor: HumanActor,
      input: { action: string; provider?: HumanProofProvider; signal?: string } & HumanProofFields,
    ) {
      const { provider = 'world_id', ...rest } = input;
      return provider === 'world_id'
        ? humanWrite<VerifiedHumanAction>(secret, '/v1/worldid/verify', { ...actor, ...rest })
        : humanWrite<VerifiedHumanAction>(secret, '/v1/human-proof/verify', { ...actor, provider, ...rest });
    },
  };
}

export type ServiceClient = ReturnType<typeof createServiceClient>;
