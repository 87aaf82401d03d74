import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { humanActor } from '../../platform/auth/require-actor.js';
import { errors } from '../../platform/schemas.js';
import type { createPolicyService } from './policy-service.js';
import { PolicyUpdateBody, RewardsPolicy } from './schemas.js';

/** The rewards policy: a public read and the rewards admins' update. */
export const rewardsPolicyModule: FastifyPluginAsyncTypebox<{ policy: ReturnType<typeof createPolicyService> }> = async (
  app,
  { policy },
) => {
  const tags = ['rewards'];

  app.get(
    '/v1/rewards/policy',
    {
      config: { auth: { kind: 'public' } },
      schema: {
        operationId: 'getRewardsPolicy',
        tags,
        summary: 'The current rewards policy',
        response: { 200: RewardsPolicy, ...errors(429) },
      },
    },
    async () => policy.current(),
  );

  app.post(
    '/v1/rewards/policy',
    {
      config: { auth: { kind: 'human-write', admin: 'rewards' } },
      schema: {
        operationId: 'updateRewardsPolicy',
        tags,
        summary: 'Change the rewards policy (a new version, audited)',
        body: PolicyUpdateBody,
        response: { 202: RewardsPolicy, ...errors(400, 401, 403, 409, 429, 503) },
      },
    },
    async (request, reply) => reply.code(202).send(await policy.update(humanActor(request), request.body)),
  );
};
