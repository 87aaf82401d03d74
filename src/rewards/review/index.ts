import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { humanActor } from '../../platform/auth/require-actor.js';
import { answer, errors } from '../../platform/schemas.js';
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
/** Who may call the fraud review routes. */
const REWARDS_ADMIN =
  'Rewards admins only (REWARDS_ADMIN_IDS, matched by the bound linkedHumanId first, then the actorId; 403 REWARDS_ADMIN_REQUIRED otherwise).';

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
        description:
          'Rewards admins only (REWARDS_ADMIN_IDS, matched by the bound linkedHumanId first, then the actorId; 403 REWARDS_ADMIN_REQUIRED otherwise). Lists what waits for a rewards decision, oldest first: frozen recipients and stories with the count and amount of payouts they hold, payouts held in REVIEW (after an unfreeze, or as members of a flagged cartel cluster) and open review cases with their queue view (PENDING, OVERDUE, FROZEN, APPEALED, ESCALATED). `limit` 1 to 100 (default 50).',
        querystring: QueueQuery,
        response: {
          200: answer(ReviewQueue, 'The review queue now: frozen targets, held payouts and open cases, oldest first.'),
          ...errors(400, 401, 403, 409, 429, 503),
        },
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
        description:
          'Rewards admins only (REWARDS_ADMIN_IDS, matched by the bound linkedHumanId first, then the actorId; 403 REWARDS_ADMIN_REQUIRED otherwise). Opens a fraud review case on a recipient, story, distribution batch or payout (the target must exist, except a batch); it is due REWARDS_REVIEW_DUE_HOURS (72 by default) later and may be assigned at once. Every move of a case is recorded in its history and on the audit chain. The answer is the case, OPEN.',
        body: OpenCaseBody,
        response: {
          202: answer(ReviewCase, 'Accepted: the case as opened (OPEN, or IN_REVIEW when assigned), with its id and due time.'),
          ...errors(400, 401, 403, 409, 429, 503),
        },
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
        description:
          'Rewards admins only (REWARDS_ADMIN_IDS, matched by the bound linkedHumanId first, then the actorId; 403 REWARDS_ADMIN_REQUIRED otherwise). Assigns an OPEN, IN_REVIEW or APPEALED case to a reviewer (IN_REVIEW), reassigns an ESCALATED one, or escalates it with `escalate: true` (ESCALATED); any other move is 409 REVIEW_CASE_TRANSITION_INVALID. The answer is the case with the move in its history.',
        params: CaseParams,
        body: AssignBody,
        response: {
          202: answer(ReviewCase, 'Accepted: the case after the move (IN_REVIEW or ESCALATED) with its assignee and history.'),
          ...caseErrors,
        },
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
        description:
          'Rewards admins only (REWARDS_ADMIN_IDS, matched by the bound linkedHumanId first, then the actorId; 403 REWARDS_ADMIN_REQUIRED otherwise). Marks a RESOLVED or DISMISSED case APPEALED, with a note; any other state is 409 REVIEW_CASE_TRANSITION_INVALID. An appealed case is assigned and decided again. The answer is the case with the move in its history.',
        params: CaseParams,
        body: AppealBody,
        response: { 202: answer(ReviewCase, 'Accepted: the case, now APPEALED, with the note in its history.'), ...caseErrors },
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
        description:
          "Rewards admins only (REWARDS_ADMIN_IDS, matched by the bound linkedHumanId first, then the actorId; 403 REWARDS_ADMIN_REQUIRED otherwise). Decides a case: RESOLVED (from IN_REVIEW, ESCALATED or APPEALED) or DISMISSED (also from OPEN), with the resolution; anything else is 409 REVIEW_CASE_TRANSITION_INVALID. With `releasePayouts: true` the target's payouts held in REVIEW become PAYABLE, or PENDING_RECIPIENT without a wallet; frozen ones stay frozen. The answer is the closed case.",
        params: CaseParams,
        body: ResolveBody,
        response: {
          202: answer(ReviewCase, 'Accepted: the case as decided (RESOLVED or DISMISSED) with its resolution and closing time.'),
          ...caseErrors,
        },
      },
    },
    async (request, reply) => reply.code(202).send(await review.resolve(humanActor(request), request.params.caseId, request.body)),
  );

  const freezeSchema = <P extends typeof RecipientParams | typeof StoryParams>(
    operationId: string,
    summary: string,
    description: string,
    done: string,
    params: P,
  ) => ({
    operationId,
    tags,
    summary,
    description: `${REWARDS_ADMIN} ${description}`,
    params,
    body: FreezeBody,
    response: { 202: answer(FreezeResult, done), ...caseErrors },
  });

  app.post(
    '/v1/admin/rewards/recipients/:recipientId/freeze',
    {
      config: admin,
      schema: freezeSchema(
        'freezeRecipient',
        'Freeze a recipient: its pending payouts become FROZEN',
        "Moves the recipient's PAYABLE, PENDING_RECIPIENT and REVIEW payouts to FROZEN; later settlement runs create its payouts FROZEN and it cannot bind a new wallet (409 RECIPIENT_FROZEN). Freezing twice is 409 ALREADY_FROZEN; an unknown recipient is 404. Audited; the answer counts the payouts frozen.",
        'Accepted: the recipient is frozen; the reason, the time and how many payouts became FROZEN.',
        RecipientParams,
      ),
    },
    async (request, reply) =>
      reply.code(202).send(await review.freezeRecipient(humanActor(request), request.params.recipientId, request.body.reason)),
  );
  app.post(
    '/v1/admin/rewards/recipients/:recipientId/unfreeze',
    {
      config: admin,
      schema: freezeSchema(
        'unfreezeRecipient',
        'Unfreeze a recipient: its frozen payouts go to REVIEW',
        'An unfreeze never makes a payout payable: FROZEN payouts go to REVIEW (unless their story is still frozen), to be released by a review case resolved or dismissed with releasePayouts. Unfreezing a recipient that is not frozen is 409 NOT_FROZEN. Audited; the answer counts the payouts moved to REVIEW.',
        'Accepted: the recipient is no longer frozen; how many of its payouts went to REVIEW.',
        RecipientParams,
      ),
    },
    async (request, reply) =>
      reply.code(202).send(await review.unfreezeRecipient(humanActor(request), request.params.recipientId, request.body.reason)),
  );
  app.post(
    '/v1/admin/rewards/stories/:storyId/freeze',
    {
      config: admin,
      schema: freezeSchema(
        'freezeStoryRewards',
        "Freeze a story's rewards: its pending payouts become FROZEN",
        "Moves the story's PAYABLE, PENDING_RECIPIENT and REVIEW payouts to FROZEN, and later settlement runs create its payouts FROZEN; the story itself stays published. Freezing twice is 409 ALREADY_FROZEN; an unknown story is 404. Audited; the answer counts the payouts frozen.",
        "Accepted: the story's rewards are frozen; the reason, the time and how many payouts became FROZEN.",
        StoryParams,
      ),
    },
    async (request, reply) =>
      reply.code(202).send(await review.freezeStory(humanActor(request), request.params.storyId, request.body.reason)),
  );
  app.post(
    '/v1/admin/rewards/stories/:storyId/unfreeze',
    {
      config: admin,
      schema: freezeSchema(
        'unfreezeStoryRewards',
        "Unfreeze a story's rewards: its frozen payouts go to REVIEW",
        'An unfreeze never makes a payout payable: FROZEN payouts go to REVIEW (unless their recipient is still frozen), to be released by a review case resolved or dismissed with releasePayouts. Unfreezing a story that is not frozen is 409 NOT_FROZEN. Audited; the answer counts the payouts moved to REVIEW.',
        "Accepted: the story's rewards are no longer frozen; how many of its payouts went to REVIEW.",
        StoryParams,
      ),
    },
    async (request, reply) =>
      reply.code(202).send(await review.unfreezeStory(humanActor(request), request.params.storyId, request.body.reason)),
  );
};
