import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { humanActor } from '../../platform/auth/require-actor.js';
import { errors } from '../../platform/schemas.js';
import {
  AppealBody,
  AssignBody,
  CaseParams,
  FreezeBody,
  FreezeResult,
  OpenCaseBody,
  QueueQuery,
  RecipientParams,
  ResolveBody,
  ReviewCase,
  ReviewQueue,
  StoryParams,
} from './schemas.js';
import type { createRewardReviewService } from './service.js';

/** Fraud review (rewards admins): the review queue, review cases and recipient and story freezes. */
export const rewardReviewModule: FastifyPluginAsyncTypebox<{ review: ReturnType<typeof createRewardReviewService> }> = async (
  app,
  { review },
) => {
  const tags = ['rewards-admin'];
  const admin = { auth: { kind: 'human-write', admin: 'rewards' } } as const;
  const caseErrors = errors(400, 401, 403, 404, 409, 429, 503);

  app.get(
    '/v1/admin/rewards/review-queue',
    {
      config: { auth: { kind: 'human-read', admin: 'rewards' } },
      schema: {
        operationId: 'getReviewQueue',
        tags,
        summary: 'Frozen and review-held items and open cases, oldest first',
        querystring: QueueQuery,
        response: { 200: ReviewQueue, ...errors(400, 401, 403, 409, 429, 503) },
      },
    },
    async (request) => review.queue(request.query.limit ?? 50),
  );

  app.post(
    '/v1/admin/rewards/review-cases',
    {
      config: admin,
      schema: {
        operationId: 'openReviewCase',
        tags,
        summary: 'Open a fraud review case (OPEN)',
        body: OpenCaseBody,
        response: { 202: ReviewCase, ...errors(400, 401, 403, 409, 429, 503) },
      },
    },
    async (request, reply) => reply.code(202).send(await review.open(humanActor(request), request.body)),
  );

  app.post(
    '/v1/admin/rewards/review-cases/:caseId/assign',
    {
      config: admin,
      schema: {
        operationId: 'assignReviewCase',
        tags,
        summary: 'Assign for review (IN_REVIEW) or escalate (ESCALATED)',
        params: CaseParams,
        body: AssignBody,
        response: { 202: ReviewCase, ...caseErrors },
      },
    },
    async (request, reply) => reply.code(202).send(await review.assign(humanActor(request), request.params.caseId, request.body)),
  );

  app.post(
    '/v1/admin/rewards/review-cases/:caseId/appeal',
    {
      config: admin,
      schema: {
        operationId: 'appealReviewCase',
        tags,
        summary: 'Mark a decided case appealed (APPEALED)',
        params: CaseParams,
        body: AppealBody,
        response: { 202: ReviewCase, ...caseErrors },
      },
    },
    async (request, reply) => reply.code(202).send(await review.appeal(humanActor(request), request.params.caseId, request.body)),
  );

  app.post(
    '/v1/admin/rewards/review-cases/:caseId/resolve',
    {
      config: admin,
      schema: {
        operationId: 'resolveReviewCase',
        tags,
        summary: 'Resolve (RESOLVED) or dismiss (DISMISSED) a case',
        params: CaseParams,
        body: ResolveBody,
        response: { 202: ReviewCase, ...caseErrors },
      },
    },
    async (request, reply) => reply.code(202).send(await review.resolve(humanActor(request), request.params.caseId, request.body)),
  );

  const freezeSchema = <P extends typeof RecipientParams | typeof StoryParams>(operationId: string, summary: string, params: P) => ({
    operationId,
    tags,
    summary,
    params,
    body: FreezeBody,
    response: { 202: FreezeResult, ...caseErrors },
  });

  app.post(
    '/v1/admin/rewards/recipients/:recipientId/freeze',
    { config: admin, schema: freezeSchema('freezeRecipient', 'Freeze a recipient: its pending payouts become FROZEN', RecipientParams) },
    async (request, reply) =>
      reply.code(202).send(await review.freezeRecipient(humanActor(request), request.params.recipientId, request.body.reason)),
  );
  app.post(
    '/v1/admin/rewards/recipients/:recipientId/unfreeze',
    { config: admin, schema: freezeSchema('unfreezeRecipient', 'Unfreeze a recipient: its frozen payouts go to REVIEW', RecipientParams) },
    async (request, reply) =>
      reply.code(202).send(await review.unfreezeRecipient(humanActor(request), request.params.recipientId, request.body.reason)),
  );
  app.post(
    '/v1/admin/rewards/stories/:storyId/freeze',
    {
      config: admin,
      schema: freezeSchema('freezeStoryRewards', "Freeze a story's rewards: its pending payouts become FROZEN", StoryParams),
    },
    async (request, reply) =>
      reply.code(202).send(await review.freezeStory(humanActor(request), request.params.storyId, request.body.reason)),
  );
  app.post(
    '/v1/admin/rewards/stories/:storyId/unfreeze',
    {
      config: admin,
      schema: freezeSchema('unfreezeStoryRewards', "Unfreeze a story's rewards: its frozen payouts go to REVIEW", StoryParams),
    },
    async (request, reply) =>
      reply.code(202).send(await review.unfreezeStory(humanActor(request), request.params.storyId, request.body.reason)),
  );
};
