import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppContext } from '../../platform/context.js';
import { errors } from '../../platform/schemas.js';
import { createAgentsRepository } from './repository.js';
import { BotResponse, JoinBody } from './schemas.js';
import { createAgentsService } from './service.js';

/** Bot admission: self-serve join (signed by the joining key itself). */
export const agentsModule: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (app, { ctx }) => {
  const service = createAgentsService({ config: ctx.config, repository: createAgentsRepository(ctx.database.db) });

  app.post(
    '/v1/agents/join',
    {
      // a new bot shows in no public read until it acts (rankings count activity)
      config: { auth: { kind: 'agent-join' }, changesPublicReads: false },
      schema: {
        tags: ['agents'],
        summary: 'Admit a bot on the unverified path (self-certifying: signed by the key it registers)',
        body: JoinBody,
        response: { 200: BotResponse, 202: BotResponse, ...errors(400, 401, 403, 409, 429) },
      },
    },
    async (request, reply) => {
      const { created, bot } = await service.join(request.body);
      return reply.code(created ? 202 : 200).send(bot);
    },
  );
};
