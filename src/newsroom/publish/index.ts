import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { answer, errors } from '../../platform/schemas.js';
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
        description:
          "Operators only: the operations token (x-operations-token or a bearer token; 401 OPERATIONS_ACCESS_REQUIRED otherwise); the body takes no fields. Runs the service's rule-based, deterministic safety scan on the candidate's current packet and applies its decision: ALLOW publishes it as PROVISIONAL (reward window opened, UPDATE on the ledger); QUARANTINE or BLOCK keeps it hidden and opens a quarantine item for content admins; a banned source quarantines it. Running it again records another trace without changing a story that already left the candidate stage. The answer is the trace.",
        params: PublishParams,
        body: PublishBody,
        response: {
          200: answer(
            SafetyTraceSchema,
            'The safety trace of this scan: the decision, the categories it found and every rule with matched and the field names.',
          ),
          ...errors(400, 401, 404),
        },
      },
    },
    async (request) => service.compute(request.params.hash, await request.governance()),
  );
};
