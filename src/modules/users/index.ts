import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { humanActor } from '../../platform/auth/require-actor.js';
import type { AppContext } from '../../platform/context.js';
import { errors } from '../../platform/schemas.js';
import { createUsersRepository } from './repository.js';
import { PreferencesResponse, PreferencesUpdateBody, SignedReadQuery } from './schemas.js';
import { createUsersService } from './service.js';

/** The signed reader's own data under /v1/users/me. */
export const usersModule: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (app, { ctx }) => {
  const service = createUsersService({ repository: createUsersRepository(ctx.database.db), clock: ctx.clock });

  app.get(
    '/v1/users/me/preferences',
    {
      config: { auth: { kind: 'human-read' } },
      schema: {
        tags: ['users'],
        summary: "The signed reader's preferences",
        querystring: SignedReadQuery,
        response: { 200: PreferencesResponse, ...errors(400, 401, 409, 429, 503) },
      },
    },
    async (request) => service.getPreferences(humanActor(request)),
  );

  app.post(
    '/v1/users/me/preferences',
    {
      config: { auth: { kind: 'human-write' }, publicReads: 'unchanged' },
      schema: {
        tags: ['users'],
        summary: 'Update preferences (merged field by field)',
        body: PreferencesUpdateBody,
        response: { 202: PreferencesResponse, ...errors(400, 401, 409, 429, 503) },
      },
    },
    async (request, reply) => reply.code(202).send(await service.updatePreferences(humanActor(request), request.body.preferences)),
  );
};
