import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppContext } from '../../platform/context.js';
import { errors } from '../../platform/schemas.js';
import { SafetyTraceSchema } from '../candidates/schemas.js';
import { PublishBody, PublishParams } from './schemas.js';
import { createPublishService } from './service.js';

/** The operations job that scans a candidate and publishes it (ALLOW), quarantines it or blocks it. */
export const publishModule: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (app, { ctx }) => {
  const service = createPublishService({ transactor: ctx.transactor, clock: ctx.clock });

  app.post(
    '/v1/publish/:hash/compute',
    {
      config: { auth: { kind: 'operations' } },
      schema: {
        tags: ['publish'],
        summary: "Run the service's safety scan on a candidate and apply its decision (never a caller's decision)",
        params: PublishParams,
        body: PublishBody,
        response: { 200: SafetyTraceSchema, ...errors(400, 401, 404) },
      },
    },
    async (request) => service.compute(request.params.hash, await request.governance()),
  );
};
