import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { humanActor } from '../../platform/auth/require-actor.js';
import { errors } from '../../platform/schemas.js';
import type { createRewardsReadsService } from './reads-service.js';
import type { createRecipientsService } from './recipients-service.js';
import {
  Budget,
  Dashboard,
  Eligibility,
  Recipient,
  RecipientBody,
  UserQuery,
  WalletChallenge,
  WalletChallengeBody,
  WalletVerified,
  WalletVerifyBody,
} from './schemas.js';

/** Recipients, wallets and the private rewards reads. */
export const rewardsModule: FastifyPluginAsyncTypebox<{
  recipients: ReturnType<typeof createRecipientsService>;
  reads: ReturnType<typeof createRewardsReadsService>;
}> = async (app, { recipients, reads }) => {
  const tags = ['rewards'];
  const write = { auth: { kind: 'human-write' } } as const;
  const read = { auth: { kind: 'human-read' } } as const;
  const readErrors = errors(400, 401, 403, 409, 429, 503);

  app.get(
    '/v1/rewards/eligibility',
    {
      config: read,
      schema: {
        operationId: 'getRewardEligibility',
        tags,
        summary: "The caller's reward eligibility",
        querystring: UserQuery,
        response: { 200: Eligibility, ...readErrors },
      },
    },
    async (request) => reads.eligibility(humanActor(request), request.query.userId),
  );

  app.get(
    '/v1/rewards/budget',
    {
      config: read,
      schema: {
        operationId: 'getRewardBudget',
        tags,
        summary: "The caller's daily paid-action budget",
        querystring: UserQuery,
        response: { 200: Budget, ...readErrors },
      },
    },
    async (request) => reads.budget(humanActor(request), request.query.userId),
  );

  app.get(
    '/v1/rewards/dashboard',
    {
      config: read,
      schema: {
        operationId: 'getRewardsDashboard',
        tags,
        summary: "The caller's payouts, recipient, bots and budget",
        querystring: UserQuery,
        response: { 200: Dashboard, ...readErrors },
      },
    },
    async (request) => reads.dashboard(humanActor(request), request.query.userId),
  );

  app.post(
    '/v1/rewards/recipient',
    {
      config: write,
      schema: {
        operationId: 'acceptPayoutTerms',
        tags,
        summary: 'Accept the payout terms: become (or update) a payout recipient; needs an L3 identity',
        body: RecipientBody,
        response: { 202: Recipient, ...errors(400, 401, 403, 409, 429, 503) },
      },
    },
    async (request, reply) => reply.code(202).send(await recipients.acceptTerms(humanActor(request), request.body)),
  );

  app.post(
    '/v1/rewards/wallets/challenge',
    {
      config: write,
      schema: {
        operationId: 'createWalletChallenge',
        tags,
        summary: "A one-time SIWE (EIP-4361) message binding a wallet to the caller's recipient (5 minutes)",
        body: WalletChallengeBody,
        response: { 200: WalletChallenge, ...errors(400, 401, 403, 409, 429, 503) },
      },
    },
    async (request) => recipients.challenge(humanActor(request), request.body),
  );

  app.post(
    '/v1/rewards/wallets/verify',
    {
      config: write,
      schema: {
        operationId: 'verifyWallet',
        tags,
        summary: 'Verify the EIP-191 signature of a wallet challenge and bind the wallet',
        body: WalletVerifyBody,
        response: { 202: WalletVerified, ...errors(400, 401, 403, 409, 429, 503) },
      },
    },
    async (request, reply) => reply.code(202).send(await recipients.verify(humanActor(request), request.body)),
  );
};
