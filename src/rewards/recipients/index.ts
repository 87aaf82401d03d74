import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { humanActor } from '../../platform/auth/require-actor.js';
import { answer, errors } from '../../platform/schemas.js';
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
        description:
          "A human signed read of the caller's own data: `userId` must be the signed actorId (403 USER_MISMATCH otherwise). Says what the caller may do with rewards: the recorded tier and reward-vote weight, whether they can be paid (`monetaryRewards.eligible`, else the reasons: L3_IDENTITY_REQUIRED, TERMS_NOT_ACCEPTED, TERMS_OUTDATED, WALLET_NOT_VERIFIED, RECIPIENT_FROZEN), the current terms version to accept, and their recipient if any.",
        querystring: UserQuery,
        response: {
          200: answer(
            Eligibility,
            "The caller's eligibility: tier, reward-vote weight, monetary eligibility with reasons, the terms version and the recipient.",
          ),
          ...readErrors,
        },
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
        description:
          "A human signed read of the caller's own data: `userId` must be the signed actorId (403 USER_MISMATCH otherwise). Paid actions (today: reward votes) are limited per person and UTC day by recorded tier (50 at L3, 20 at L2, 5 at L0 by default), shared by every actorId bound to one person; a vote past the budget is 429 PAID_ACTION_BUDGET_EXHAUSTED. The answer is today's limit, what is used and when it resets.",
        querystring: UserQuery,
        response: {
          200: answer(
            Budget,
            "The caller's paid-action budget today: the limit by tier, used, remaining and the next reset (UTC midnight).",
          ),
          ...readErrors,
        },
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
        description:
          "A human signed read of the caller's own data: `userId` must be the signed actorId (403 USER_MISMATCH otherwise). Gathers what the caller needs to follow their rewards: monetary eligibility, recipient and wallet, today's paid-action budget, the bots whose payouts are theirs, the count and amount of their payouts by state (PAYABLE, PENDING_RECIPIENT, FROZEN, REVIEW) and the latest payouts.",
        querystring: UserQuery,
        response: {
          200: answer(
            Dashboard,
            "The caller's dashboard: eligibility, recipient, budget, bots, payout totals by state and the latest payouts.",
          ),
          ...readErrors,
        },
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
        description:
          'A human signed write for the caller themself. Accepting the payout terms makes the caller a payout recipient (or records the new terms version): it needs an L3 identity bound to the actor, a World ID login (409 RECIPIENT_IDENTITY_REQUIRED otherwise), `acceptTerms: true` and the current `termsVersion` (400 otherwise). Next, bind a wallet with POST /v1/rewards/wallets/challenge and /verify. The answer is the recipient.',
        body: RecipientBody,
        response: {
          202: answer(
            Recipient,
            'Accepted: the recipient as stored, with the terms version accepted and its wallet (null until one is verified).',
          ),
          ...errors(400, 401, 403, 409, 429, 503),
        },
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
        description:
          "A human signed write for a payout recipient (409 RECIPIENT_REQUIRED before POST /v1/rewards/recipient; a frozen recipient is 409 RECIPIENT_FROZEN). Answers a one-time EIP-4361 (SIWE) message for the wallet and chain named, scoped to the caller's recipient and valid 5 minutes; sign it byte for byte with personal_sign (EIP-191) and send the signature to POST /v1/rewards/wallets/verify. It answers 200: the challenge is a message to sign, nothing is bound yet.",
        body: WalletChallengeBody,
        response: {
          200: answer(
            WalletChallenge,
            'The challenge: the exact SIWE message to sign with the wallet, its id, the recipient and wallet it binds, and its expiry (5 minutes).',
          ),
          ...errors(400, 401, 403, 409, 429, 503),
        },
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
        description:
          'A human signed write for the recipient that asked for the challenge. The service recovers the address from the EIP-191 signature (another key is 400 WALLET_SIGNATURE_INVALID); a challenge is used once (409 WALLET_CHALLENGE_USED, also for the loser of two concurrent verifications) and lives 5 minutes (409 WALLET_CHALLENGE_EXPIRED). Success binds the wallet and makes every PENDING_RECIPIENT payout of the person, and of the bots they own, PAYABLE. The answer is the recipient with its wallet and how many payouts were released.',
        body: WalletVerifyBody,
        response: {
          202: answer(
            WalletVerified,
            'Accepted: the recipient with its verified wallet, and payoutsReleased, the payouts that became PAYABLE.',
          ),
          ...errors(400, 401, 403, 409, 429, 503),
        },
      },
    },
    async (request, reply) => reply.code(202).send(await recipients.verify(humanActor(request), request.body)),
  );
};
