import type {
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  onRequestAbortAsyncHookHandler,
  onRequestAsyncHookHandler,
  onSendAsyncHookHandler,
  preValidationAsyncHookHandler,
} from 'fastify';
import fp from 'fastify-plugin';
import type { AppContext } from '../context.js';
import type { PlatformTables } from '../tables.js';
import { AppError, appError, validationFailed, type ErrorDetail } from '../errors.js';
import { createIdempotencyStore } from '../idempotency-repository.js';
import { requestHash, validateIdempotencyKey } from '../idempotency.js';
import type { Metrics } from '../metrics.js';
import { type BudgetPolicy, chargeBudget, enforceRateLimit, MINUTE_MS } from '../rate-limit.js';
import { hookList, routeMethods } from '../route-hooks.js';
import { BOT_ID, IDENTIFIER, LINKED_HUMAN_ID } from '../schemas.js';
import {
  agentMessageFor,
  agentHeadersInvalid,
  type AgentSignedHeaders,
  agentSignatureInvalid,
  parseAgentHeaders,
  publicKeyObject,
  verifyAgentSignature,
} from './agent-signature.js';
import { requireContentAdmin, requireRewardsAdmin } from './admin-policy.js';
import { agentProofFailed, verifyAgentProof } from './agent-proof.js';
import { createAgentBook, linkedHumanIdFor } from './agentbook.js';
import { checkApiKey } from './api-key.js';
import { boundHumanTier, humanWriteBudget, type FindBoundTier } from './human-actor.js';
import { createBotDirectory, type KnownBot, type SelfServeBot } from './bot-directory.js';
import { carriesHumanSignature, isPlainObject, splitUrl, verifyHumanSignature } from './human-hmac.js';
import { checkOperationsAccess } from './operations-token.js';
import type { AgentActor, AgentProven, AuthSpec, HumanActor } from './types.js';

/** Reads the actor fields a human signed body (booleans) or query (text booleans) carries. */
function readHumanActorFields(
  signed: Record<string, unknown>,
  fromQuery: boolean,
): { actorId: string; verified: boolean; linkedHumanId: string | undefined } {
  const where = fromQuery ? '/querystring' : '';
  const details: ErrorDetail[] = [];
  const { actorId, verified, linkedHumanId } = signed;
  if (typeof actorId !== 'string' || !IDENTIFIER.test(actorId))
    details.push({ path: `${where}/actorId`, message: 'actorId is required: 1 to 200 of A-Z a-z 0-9 _ . : @ -' });
  else if (LINKED_HUMAN_ID.test(actorId)) {
    // A person's rights follow their linked human id, which only the identity records attach (as a bound
    // linkedHumanId); an actorId in that namespace could otherwise stand in for someone on an allowlist.
    details.push({
      path: `${where}/actorId`,
      message: 'actorId may not take the linked-human id form h_ + 32 hex: send the person as linkedHumanId, bound by a World ID login',
    });
  }
  let isVerified = false;
  if (fromQuery) {
    if (verified !== 'true' && verified !== 'false' && verified !== '1' && verified !== '0')
      details.push({ path: `${where}/verified`, message: 'verified must be true, false, 1 or 0' });
    isVerified = verified === 'true' || verified === '1';
  } else if (typeof verified !== 'boolean') details.push({ path: '/verified', message: 'verified must be a boolean' });
  else isVerified = verified;
  if (linkedHumanId !== undefined && (typeof linkedHumanId !== 'string' || !IDENTIFIER.test(linkedHumanId))) {
    details.push({ path: `${where}/linkedHumanId`, message: 'linkedHumanId must be an identifier string' });
  }
  if (details.length) throw validationFailed(details);
  return { actorId: actorId as string, verified: isVerified, linkedHumanId: linkedHumanId as string | undefined };
}

/** What authentication reads from the domain, handed in by the app (identity and agents repositories, governance). */
export interface AuthLookups {
  /** The tier recorded for a linked human that the identity records bind to `actorId`, or null when unbound. */
  findBoundTier: FindBoundTier;
  /** A bot admitted through self-serve join, with its keys, or null. */
  findSelfServeBot(botId: string): Promise<SelfServeBot | null>;
  /** The write limit of a bot for this request (the governance parameters rateLimits.*). */
  agentWritesPerMinute(request: FastifyRequest, verified: boolean): Promise<number>;
}

/**
 * Authentication hooks driven by the route option `config.auth` (see ./types.ts). They run in
 * preValidation, after the body is parsed and before it is validated, so that a forged or replayed request
 * is refused before anything else looks at it.
 */
export const authPlugin = fp<{ ctx: AppContext<PlatformTables>; metrics: Metrics; lookups: AuthLookups }>(
  async (app: FastifyInstance, { ctx, metrics, lookups }) => {
    const { config, nonceStore, rateLimitStore, replayGuard, clock } = ctx;
    const directory = createBotDirectory(lookups.findSelfServeBot, config.agentBotRegistry);
    const idempotency = createIdempotencyStore(ctx.database.db, () => clock.now());
    const nonceTtlMs = config.signatureMaxSkewMs * 2 + 60_000;
    const agentBook = createAgentBook(config.agentbook);

    app.decorateRequest('actor', null);
    app.decorateRequest('idempotency', null);

    const failed = (scheme: string) => (err: unknown) => {
      if (err instanceof AppError && err.status < 500) metrics.signatureFailures.inc({ scheme, code: err.code });
      throw err;
    };

    /**
     * Claims the nonce, then counts the write against the actor's limit (one Redis call where it can: the replay
     * guard). A refused replay never reaches the count: a captured request sent again cannot use up its owner's
     * limit (the nonce is keyed by signer, so only the signer's own fresh nonces count).
     */
    async function claimThenCount(
      reply: FastifyReply,
      nonceKey: string,
      budget: { key: string; policy: BudgetPolicy; perMinute: () => Promise<number> } | undefined,
    ): Promise<void> {
      if (!budget) {
        if (!(await nonceStore.claim(nonceKey, nonceTtlMs))) throw appError('REPLAY_DETECTED');
        return;
      }
      const [hit, limit] = await Promise.all([replayGuard.claimThenHit(nonceKey, nonceTtlMs, budget.key, MINUTE_MS), budget.perMinute()]);
      if (!hit) throw appError('REPLAY_DETECTED');
      chargeBudget(reply, budget.policy, limit, hit);
    }

    async function authenticateHuman(request: FastifyRequest, reply: FastifyReply): Promise<HumanActor> {
      const isRead = request.method === 'GET';
      const { nonce, signed } = verifyHumanSignature(request, config.humanSigningSecrets, clock.now(), config.signatureMaxSkewMs);
      const fields = readHumanActorFields(signed, isRead);
      const budget = isRead ? undefined : humanWriteBudget(config, fields.actorId);
      const [tier] = await Promise.all([
        boundHumanTier(lookups.findBoundTier, fields.actorId, fields.linkedHumanId, fields.verified),
        claimThenCount(reply, `human:${nonce}`, budget && { ...budget, perMinute: async () => budget.perMinute }),
      ]);
      return { kind: 'human', ...fields, tier };
    }

    function chooseKey(bot: KnownBot, keyVersion: number | undefined): { version: number; publicKey: string } {
      if (keyVersion !== undefined) {
        const key = bot.keys.find((k) => k.version === keyVersion);
        if (!key)
          throw agentHeadersInvalid([
            { header: 'x-agent-key-version', code: 'OUT_OF_RANGE', message: `the bot has no key version ${keyVersion}` },
          ]);
        return key;
      }
      if (bot.keys.length !== 1) {
        throw agentHeadersInvalid([
          { header: 'x-agent-key-version', code: 'MISSING', message: 'the bot has several keys: name the one used' },
        ]);
      }
      return bot.keys[0]!;
    }

    const notVerified = () =>
      agentProofFailed('NOT_VERIFIED', 'this bot is not verified; call POST /v1/agents/verify with an agentproof first');

    /** Checks the request's agentproof (./agent-proof.ts), then asks AgentBook who registered the wallet. */
    async function proveWallet(request: FastifyRequest, headers: AgentSignedHeaders): Promise<AgentProven> {
      const wallet = await verifyAgentProof({
        header: headers.agentProof,
        nonce: headers.nonce,
        path: splitUrl(request.url)[0],
        origins: config.worldAgentkitResourceOrigins,
        now: clock.now(),
        maxAgeMs: config.signatureMaxSkewMs,
      });
      const humanId = await agentBook.lookupHuman(wallet.address);
      if (humanId === null) {
        throw agentProofFailed('UNREGISTERED', `the wallet ${wallet.address} is not registered in AgentBook; register it, then retry`);
      }
      return { ...wallet, linkedHumanId: linkedHumanIdFor(humanId) };
    }

    /** A verified write: a valid proof by the very wallet, chain and human the bot bound at verification. */
    async function proveBoundWallet(request: FastifyRequest, headers: AgentSignedHeaders, bot: KnownBot): Promise<AgentProven> {
      if (!bot.verified || !bot.walletAddress || !bot.walletChainId) throw notVerified();
      const proven = await proveWallet(request, headers);
      if (proven.address.toLowerCase() !== bot.walletAddress.toLowerCase() || proven.chainId !== bot.walletChainId) {
        throw agentProofFailed('WALLET_MISMATCH', 'the proof is signed by another wallet or chain than the one this bot verified with');
      }
      if (proven.linkedHumanId !== bot.linkedHumanId) {
        throw agentProofFailed('WALLET_MISMATCH', 'AgentBook now maps this wallet to another human; verify the bot again');
      }
      return proven;
    }

    async function authenticateAgent(
      request: FastifyRequest,
      reply: FastifyReply,
      spec: Extract<AuthSpec, { kind: 'agent' }>,
    ): Promise<AgentActor> {
      const headers = parseAgentHeaders(request, clock.now(), config.signatureMaxSkewMs);
      const body = isPlainObject(request.body) ? request.body : {};
      if (typeof body.botId !== 'string' || !BOT_ID.test(body.botId)) {
        throw validationFailed([{ path: '/botId', message: 'botId is required: bot_ followed by 32 hex characters' }]);
      }
      const bot = await directory.find(body.botId);
      if (!bot) {
        throw appError('AGENT_BOT_UNREGISTERED', { message: `${body.botId} has not joined` });
      }
      const key = chooseKey(bot, headers.keyVersion);
      const publicKey = publicKeyObject(key.publicKey);
      if (
        !publicKey ||
        !verifyAgentSignature(publicKey, agentMessageFor(request, config.agentSignedWriteAud, headers), headers.signature)
      ) {
        throw agentSignatureInvalid();
      }
      if (bot.source === 'SELF_SERVE' && !config.agentSelfServeJoin) {
        throw appError('AGENT_SELF_SERVE_JOIN_DISABLED', { message: 'Only registry bots may write (AGENT_SELF_SERVE_JOIN=0)' });
      }
      // The proof is checked only now, after the bot signature: on /v1/agents/verify to bind a
      // wallet, and on every `verified: true` write of a self-serve bot against the wallet it bound.
      let proven: AgentProven | undefined;
      if (spec.agentProof === 'bind') proven = await proveWallet(request, headers);
      else if (body.verified === true && bot.source === 'SELF_SERVE') proven = await proveBoundWallet(request, headers, bot);
      else if (body.verified === true && !bot.verified) throw notVerified();
      const verified = body.verified === true && bot.verified;
      if (config.agentRequireVerified && !verified && !spec.allowUnverified) {
        throw appError('AGENT_VERIFIED_REQUIRED');
      }
      if (spec.permission && !bot.permissions.includes(spec.permission)) {
        throw appError('AGENT_PERMISSION_DENIED', { message: `This bot lacks the permission ${spec.permission}` });
      }
      // The write limits are governance parameters (rateLimits.*), read once per request with the claim.
      await claimThenCount(reply, `agent:${bot.botId}:${headers.nonce}`, {
        key: `agent:${bot.botId}`,
        policy: 'agent-writes',
        perMinute: () => lookups.agentWritesPerMinute(request, verified),
      });
      // A proof is spent once per wallet, whichever bot sends it: a proof seen on the wire cannot verify another bot.
      if (proven && !(await nonceStore.claim(`agentproof:${proven.address.toLowerCase()}:${headers.nonce}`, nonceTtlMs))) {
        throw agentProofFailed('NONCE_REUSED', 'this proof was already used; build a new one with a fresh nonce');
      }
      return {
        kind: 'agent',
        botId: bot.botId,
        verified,
        linkedHumanId: verified ? bot.linkedHumanId : undefined,
        keyVersion: key.version,
        permissions: bot.permissions,
        ...(proven ? { proven } : {}),
      };
    }

    /** Self-serve join: the body's own public key signs the request. */
    async function authenticateJoin(request: FastifyRequest, reply: FastifyReply): Promise<void> {
      const headers = parseAgentHeaders(request, clock.now(), config.signatureMaxSkewMs);
      const body = isPlainObject(request.body) ? request.body : {};
      const publicKey = typeof body.publicKey === 'string' ? publicKeyObject(body.publicKey) : null;
      if (!publicKey) throw validationFailed([{ path: '/publicKey', message: 'publicKey must be a raw 32-byte Ed25519 key, base64url' }]);
      if (headers.keyVersion !== undefined && headers.keyVersion !== 1) {
        throw agentHeadersInvalid([{ header: 'x-agent-key-version', code: 'OUT_OF_RANGE', message: 'a joining key is version 1' }]);
      }
      if (!verifyAgentSignature(publicKey, agentMessageFor(request, config.agentSignedWriteAud, headers), headers.signature))
        throw agentSignatureInvalid();
      // Joins are counted per client address (shared through the rate-limit store): new bots cannot be minted
      // faster than this to sidestep the per-bot write limits. The nonce claim and the count are one Redis call
      // (the replay guard); a replay is refused first and still counts as an attempt.
      const { claimed, hit } = await replayGuard.claimAndHit(
        `agent:join:${body.publicKey as string}:${headers.nonce}`,
        nonceTtlMs,
        `join:${request.ip}`,
        MINUTE_MS,
      );
      if (!claimed) throw appError('REPLAY_DETECTED');
      chargeBudget(reply, 'joins', config.agentJoinsPerMinute, hit);
    }

    async function applyIdempotency(request: FastifyRequest, reply: FastifyReply, scope: string): Promise<void> {
      const raw = request.headers['idempotency-key'];
      const key = Array.isArray(raw) ? raw[0] : raw;
      if (key === undefined) return;
      validateIdempotencyKey(key);
      const outcome = await idempotency.begin(
        scope,
        key,
        requestHash(request.method, splitUrl(request.url)[0], request.body, request.inexactNumbers),
      );
      if (outcome.kind === 'replay') {
        // a replayed error body names this request (its x-request-id), not the first one
        const body = outcome.status >= 400 && isPlainObject(outcome.body) ? { ...outcome.body, requestId: request.id } : outcome.body;
        await reply.code(outcome.status).header('idempotent-replayed', 'true').type('application/json; charset=utf-8').send(body);
        return;
      }
      request.idempotency = { scope, key };
    }

    // Reads count per client IP: GET and HEAD alike (a HEAD runs the same handler, or is served from the read cache).
    const countRead: onRequestAsyncHookHandler = async (request, reply) => {
      if (request.method !== 'GET' && request.method !== 'HEAD') return;
      await enforceRateLimit(rateLimitStore, `ip:${request.ip}`, config.rateLimits.publicReadsPerMinute, reply, 'reads');
    };

    const authenticate: preValidationAsyncHookHandler = async (request, reply) => {
      const spec = request.routeOptions.config.auth;
      if (!spec) return;
      switch (spec.kind) {
        case 'public':
          if (spec.reader === 'optional' && carriesHumanSignature(request)) {
            request.actor = await authenticateHuman(request, reply).catch(failed('human'));
            // a personalized answer: no shared cache on the way may keep it
            void reply.header('cache-control', 'private, no-store');
          }
          return;
        case 'api-key':
          checkApiKey(request, config.publicApiKeys, config.failClosed);
          return;
        case 'operations':
          checkOperationsAccess(request, config);
          return;
        case 'human-read':
        case 'human-write': {
          const actor = await authenticateHuman(request, reply).catch(failed('human'));
          request.actor = actor;
          if (spec.admin === 'content') requireContentAdmin(config, actor);
          if (spec.admin === 'rewards') requireRewardsAdmin(config, actor);
          // after the signature, the nonce and the limit: only the signed person's own requests reach their keys
          if (spec.kind === 'human-write') await applyIdempotency(request, reply, `human:${actor.actorId}`);
          return;
        }
        case 'agent-join':
          // A body naming an existing bot manages that bot's keys, signed by one of its keys like any agent write;
          // otherwise it is a join, signed by the key it registers.
          if (isPlainObject(request.body) && request.body.botId !== undefined) {
            const actor = await authenticateAgent(request, reply, { kind: 'agent', allowUnverified: true }).catch(failed('agent'));
            request.actor = actor;
            await applyIdempotency(request, reply, `agent:${actor.botId}`);
          } else {
            await authenticateJoin(request, reply).catch(failed('agent'));
            // the joining key's own space: only its holder signs with it
            await applyIdempotency(request, reply, `agent-join:${String((request.body as { publicKey: string }).publicKey)}`);
          }
          return;
        case 'agent': {
          const actor = await authenticateAgent(request, reply, spec).catch(failed('agent'));
          request.actor = actor;
          await applyIdempotency(request, reply, `agent:${actor.botId}`);
          return;
        }
      }
    };

    const abandonIdempotency: onRequestAbortAsyncHookHandler = async (request) => {
      const record = request.idempotency;
      if (record) await idempotency.abandon(record.scope, record.key).catch(() => undefined);
    };

    const recordIdempotency: onSendAsyncHookHandler = async (request, reply, payload) => {
      const record = request.idempotency;
      if (!record) return payload;
      request.idempotency = null;
      if (reply.statusCode >= 500) {
        await idempotency
          .abandon(record.scope, record.key)
          .catch((err: unknown) => request.log.warn({ err }, 'idempotency abandon failed'));
        return payload;
      }
      let body: unknown;
      try {
        body = typeof payload === 'string' ? JSON.parse(payload) : null;
      } catch {
        body = null;
      }
      await idempotency
        .complete(record.scope, record.key, reply.statusCode, body)
        .catch((err: unknown) => request.log.warn({ err }, 'idempotency record failed'));
      return payload;
    };

    // Each route gets the hooks its auth spec needs, and a route without one none (/healthz, /metrics, the site's
    // assets): registered before the routes, and before the read cache, so that a cached read still counts.
    app.addHook('onRoute', (route) => {
      const spec = route.config?.auth;
      if (!spec) return;
      const countsReads = spec.kind === 'public' || spec.kind === 'api-key' || spec.kind === 'human-read';
      if (countsReads && route.config?.rateLimit !== false && routeMethods(route).some((m) => m === 'GET' || m === 'HEAD'))
        route.onRequest = [...hookList(route.onRequest), countRead];
      if (spec.kind !== 'public' || spec.reader === 'optional') route.preValidation = [...hookList(route.preValidation), authenticate];
      if (spec.kind === 'agent' || spec.kind === 'agent-join' || spec.kind === 'human-write') {
        route.onSend = [...hookList(route.onSend), recordIdempotency];
        route.onRequestAbort = [...hookList(route.onRequestAbort), abandonIdempotency];
      }
    });
  },
  { name: 'auth' },
);
