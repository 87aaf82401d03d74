import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { humanActor } from '../../platform/auth/require-actor.js';
import { answer, errors } from '../../platform/schemas.js';
import { OwnerChallenge, OwnerChallengeBody, OwnerClaimBody, OwnerClaimed, OwnerUnlinkBody, OwnerUnlinked } from './schemas.js';
import type { BotOwnersService } from './service.js';

/**
 * Bot owners: the L3 person who claims a verified bot (its wallet's signature and the bot's consent) is paid its
 * payouts. Human signed writes, sent by the front end for its logged-in user.
 */
export const botOwnersModule: FastifyPluginAsyncTypebox<{ service: BotOwnersService }> = async (app, { service }) => {
  const tags = ['rewards'];
  const write = { auth: { kind: 'human-write' } } as const;

  app.post(
    '/v1/rewards/bot-owners/challenge',
    {
      config: write,
      schema: {
        operationId: 'createBotOwnerChallenge',
        tags,
        summary:
          "Start claiming a verified bot: a one-time SIWE message for the bot's wallet and the consent message for its key (5 minutes)",
        description:
          'Needs an L3 identity (World ID). walletAddress must be the wallet the bot verified with (403 BOT_OWNER_WALLET_MISMATCH); ' +
          'a bot owned by another person is 409 BOT_ALREADY_OWNED. Sign `message` with that wallet (EIP-191) and have the bot sign ' +
          '`consentMessage` with an active key, then POST /v1/rewards/bot-owners/claim.',
        body: OwnerChallengeBody,
        response: {
          200: answer(
            OwnerChallenge,
            "The challenge: the SIWE message for the bot's wallet, the consent message for the bot's key, and their expiry (5 minutes).",
          ),
          ...errors(400, 401, 403, 404, 409, 429, 503),
        },
      },
    },
    async (request) => service.challenge(humanActor(request), request.body),
  );

  app.post(
    '/v1/rewards/bot-owners/claim',
    {
      config: write,
      schema: {
        operationId: 'claimBot',
        tags,
        summary: "Claim a verified bot with its wallet's signature and its consent: its payouts are the caller's from now on",
        description:
          'The challenge is used once (409 BOT_OWNER_CHALLENGE_USED) and lives 5 minutes (409 BOT_OWNER_CHALLENGE_EXPIRED). The payouts ' +
          "of the bot that waited for a payable owner become the owner's: PAYABLE when the owner has a verified wallet, else still " +
          'waiting; frozen and review-held payouts stay held.',
        body: OwnerClaimBody,
        response: {
          202: answer(
            OwnerClaimed,
            "Accepted: the ownership as recorded, with how many of the bot's waiting payouts became the owner's and how many of them are now PAYABLE.",
          ),
          ...errors(400, 401, 403, 404, 409, 429, 503),
        },
      },
    },
    async (request, reply) => reply.code(202).send(await service.claim(humanActor(request), request.body)),
  );

  app.post(
    '/v1/rewards/bot-owners/unlink',
    {
      config: write,
      schema: {
        operationId: 'unlinkBot',
        tags,
        summary: 'The owner gives up a bot: its later payouts are no longer theirs (those already theirs stay theirs)',
        description:
          "A human signed write by the bot's current owner (anyone else: 403 BOT_NOT_OWNED_BY_CALLER). Ends the ownership and audits it: payouts already credited to the owner stay theirs, and the bot's later payouts go back to its AgentBook-derived linkedHumanId, waiting, until someone claims it again. The answer is the ownership that ended, with its end time.",
        body: OwnerUnlinkBody,
        response: {
          202: answer(OwnerUnlinked, 'Accepted: the ownership that ended (bot, owner, wallet, claimedAt) with unlinkedAt.'),
          ...errors(400, 401, 403, 404, 409, 429, 503),
        },
      },
    },
    async (request, reply) => reply.code(202).send(await service.unlink(humanActor(request), request.body)),
  );
};
