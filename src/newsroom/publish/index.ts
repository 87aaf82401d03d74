import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errors } from '../../platform/schemas.js';
import { SafetyTraceSchema } from '../candidates/schemas.js';
import { PublishBody, PublishParams } from './schemas.js';
import type { createPublishService } from './service.js';

/** The operations job that scans a candidate and publishes it (ALLOW), quarantines it or blocks it. */
export const publishModule: FastifyPluginAsyncTypebox<{ service: ReturnType<typeof createPublishService> }> = async (app, { service }) => {
  app.post(
    '/v1/publish/:hash/compute',
    {
      config: { auth: { kind: 'operations' } },
      schema: {
        operationId: 'computePublishDecision',
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
