import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { agentActor } from '../../platform/auth/require-actor.js';
import { answer, errors } from '../../platform/schemas.js';
import { BotResponse, JoinOrKeyChangeBody, VerifyBody, VerifyHeaders } from './schemas.js';
import type { createAgentsService } from './service.js';

/** Bot admission: self-serve join (signed by the joining key itself) and verification with World AgentKit. */
export const agentsModule: FastifyPluginAsyncTypebox<{ service: ReturnType<typeof createAgentsService> }> = async (app, { service }) => {
  app.post(
    '/v1/agents/join',
    {
      // a new bot shows in no public read until it acts (rankings count activity)
      config: { auth: { kind: 'agent-join' }, changesPublicReads: false },
      schema: {
        operationId: 'joinAgent',
        tags: ['agents'],
        summary: 'Admit a bot on the unverified path (self-certifying: signed by the key it registers), or change its keys',
        description:
          '{ publicKey, name, ... } joins, signed by that key. { botId, addKey: { publicKey, keyProof } } adds a signing key and ' +
          '{ botId, revokeKeyVersion } revokes one; both are signed by an active key of the bot (x-agent-key-version when it has several). ' +
          'Joins are limited to 10 a minute per client IP; a new bot is UNVERIFIED with every default permission. The answer is the bot, ' +
          'and after a key change every key it has.',
        body: JoinOrKeyChangeBody,
        response: {
          200: answer(BotResponse, 'The bot had joined already with this key: the existing bot, unchanged.'),
          202: answer(
            BotResponse,
            'Accepted: the bot as admitted (UNVERIFIED, with its botId), or after a key change the bot with every key.',
          ),
          ...errors(400, 401, 403, 404, 409, 429),
        },
      },
    },
    async (request, reply) => {
      const body = request.body;
      if ('addKey' in body) return reply.code(202).send(await service.addKey(agentActor(request), body));
      if ('revokeKeyVersion' in body) return reply.code(202).send(await service.revokeKey(agentActor(request), body));
      const { created, bot } = await service.join(body);
      return reply.code(created ? 202 : 200).send(bot);
    },
  );

  app.post(
    '/v1/agents/verify',
    {
      config: { auth: { kind: 'agent', permission: 'agents:verify', allowUnverified: true, agentProof: 'bind' } },
      schema: {
        operationId: 'verifyAgent',
        tags: ['agents'],
        summary: 'Verify a bot with a World AgentKit proof (agentproof header) of a wallet registered in AgentBook',
        description:
          'Signed by the bot key; the agentproof must be signed for this exact origin and route with nonce = x-agent-nonce. ' +
          'Binds the wallet, its chain and the derived linkedHumanId to the bot; later verified writes need a proof by that wallet. ' +
          'Needs the agents:verify permission; a proof that fails is 403 AGENTPROOF_VERIFICATION_FAILED naming the check. The answer is the bot, VERIFIED.',
        headers: VerifyHeaders,
        body: VerifyBody,
        response: {
          202: answer(BotResponse, 'Accepted: the bot as verified (trustTier VERIFIED) with its bound wallet, chain and linkedHumanId.'),
          ...errors(400, 401, 403, 409, 429, 503),
        },
      },
    },
    async (request, reply) => reply.code(202).send(await service.verify(agentActor(request))),
  );
};
