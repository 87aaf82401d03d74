import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppContext } from '../../platform/context.js';
import { errors } from '../../platform/schemas.js';
import { createCandidatesRepository } from './repository.js';
import { CandidateStatusResponse, HashParams } from './schemas.js';
import { createCandidatesService } from './service.js';

/** Candidate packets submitted by bots. */
export const candidatesModule: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (app, { ctx }) => {
  const service = createCandidatesService({ repository: createCandidatesRepository(ctx.database.db) });

  app.get(
    '/v1/candidates/:hash/status',
    {
      config: { auth: { kind: 'api-key' } },
      schema: { tags: ['candidates'], summary: 'Status of a submitted candidate packet', params: HashParams, response: { 200: CandidateStatusResponse, ...errors(400, 401, 404, 429) } },
    },
    async (request) => service.status(request.params.hash),
  );
};
