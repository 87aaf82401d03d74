import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { humanActor } from '../../platform/auth/require-actor.js';
import { answer, errors } from '../../platform/schemas.js';
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
        description:
          "Public: no credentials, counted against the per-IP read limit. The policy decides how a settlement divides its pool: the share kept in escrow and the splits between the four roles (WRITER, FACT_CHECK, RISK, SOURCE_DIVERSITY), also as exact parts per million, with the token's decimals. The answer is the current version.",
        response: {
          200: answer(
            RewardsPolicy,
            'The rewards policy in force: version, status, escrow rate and role splits (also in parts per million) and the token decimals.',
          ),
          ...errors(429),
        },
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
        description:
          'Rewards admins only (REWARDS_ADMIN_IDS, matched by the bound linkedHumanId first, then the actorId; 403 REWARDS_ADMIN_REQUIRED otherwise). Writes the next version of the policy with any of `status` (ACTIVE, PAUSED, DISABLED), `escrowRate` and `roleSplits` (all four, summing to exactly 1); rates are read from their digits as sent, at most 6 decimals (400 otherwise). The change is audited with the before and after; a PAUSED or DISABLED policy makes settlement runs answer 409 REWARDS_PAUSED. The answer is the new version.',
        body: PolicyUpdateBody,
        response: {
          202: answer(RewardsPolicy, 'Accepted: the new version of the policy as stored.'),
          ...errors(400, 401, 403, 409, 429, 503),
        },
      },
    },
    async (request, reply) => reply.code(202).send(await policy.update(humanActor(request), request.body)),
  );
};
