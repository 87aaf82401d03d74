import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { humanActor } from '../../platform/auth/require-actor.js';
import { answer, errors } from '../../platform/schemas.js';
import type { createLegalHoldService } from './legal-hold-service.js';
import type { createQuarantineService } from './quarantine-service.js';
import {
  LegalHold,
  LegalHoldBody,
  LegalHoldsPage,
  LegalHoldsQuery,
  QuarantineItem,
  QuarantinePage,
  QuarantineQuery,
  ResolveBody,
  ResolveParams,
  SourceParams,
  SourceStatusBody,
  SourceStatusResponse,
} from './schemas.js';
import type { createSourceStatusService } from './source-status-service.js';

/** Moderation administration (content admins): the quarantine queue, legal holds and source statuses. */
export const moderationModule: FastifyPluginAsyncTypebox<{
  quarantine: ReturnType<typeof createQuarantineService>;
  holds: ReturnType<typeof createLegalHoldService>;
  sources: ReturnType<typeof createSourceStatusService>;
}> = async (app, { quarantine, holds, sources }) => {
  const tags = ['moderation'];
  const read = { auth: { kind: 'human-read', admin: 'content' } } as const;
  const write = { auth: { kind: 'human-write', admin: 'content' } } as const;

  app.get(
    '/v1/admin/moderation/quarantine',
    {
      config: read,
      schema: {
        operationId: 'listQuarantine',
        tags,
        summary: 'What the safety scan held back, with the trace that put it there (oldest first; keyset cursor)',
        description:
          'A human signed read. Content admins only (CONTENT_ADMIN_IDS, matched by the bound linkedHumanId first, then the actorId; 403 CONTENT_ADMIN_REQUIRED otherwise). Lists the quarantine work queue oldest first: the candidates the safety scan held back (QUARANTINE) or blocked (BLOCK), each with the trace that put it there and the decisions so far; `status` OPEN by default (KEPT, RELEASED, BLOCKED for the history), `limit` 1 to 100 (default 20) with a keyset cursor.',
        querystring: QuarantineQuery,
        response: {
          200: answer(
            QuarantinePage,
            'One page of quarantine items, oldest first, each with its story, trace and decisions, and nextCursor when there are more.',
          ),
          ...errors(400, 401, 403, 409, 429, 503),
        },
      },
    },
    async (request) => quarantine.list(request.query),
  );

  app.post(
    '/v1/admin/moderation/quarantine/:scopeType/:scopeId/resolve',
    {
      config: write,
      schema: {
        operationId: 'resolveQuarantineItem',
        tags,
        summary: 'Decide a quarantined item: RELEASE (publish as PROVISIONAL; refused for hard-block categories), KEEP or BLOCK',
        description:
          'A human signed write sent by the front end for its user (120 writes a minute per actorId). Content admins only (CONTENT_ADMIN_IDS, matched by the bound linkedHumanId first, then the actorId; 403 CONTENT_ADMIN_REQUIRED otherwise), signing as a verified human (403 VERIFIED_ACTOR_REQUIRED). RELEASE publishes the story as PROVISIONAL, refused for a hard-block category in the trace or in a scan of the current packet (409 QUARANTINE_HARD_BLOCK); KEEP leaves it hidden and off the open queue; BLOCK hides it for good. RELEASED and BLOCKED are final (409 QUARANTINE_ALREADY_DECIDED) and a legal hold refuses BLOCK (409 LEGAL_HOLD_ACTIVE); every decision is audited with who and why. The answer is the item with its decisions.',
        params: ResolveParams,
        body: ResolveBody,
        response: {
          202: answer(
            QuarantineItem,
            'Accepted: the item after the decision (its status KEPT, RELEASED or BLOCKED) with every decision so far.',
          ),
          ...errors(400, 401, 403, 404, 409, 429, 503),
        },
      },
    },
    async (request, reply) =>
      reply.code(202).send(await quarantine.resolve(humanActor(request), request.params.scopeId, request.body, await request.governance())),
  );

  app.get(
    '/v1/admin/moderation/legal-holds',
    {
      config: read,
      schema: {
        operationId: 'listLegalHolds',
        tags,
        summary: 'Legal holds, newest first (filters: status, storyId; keyset cursor)',
        description:
          'A human signed read. Content admins only (CONTENT_ADMIN_IDS, matched by the bound linkedHumanId first, then the actorId; 403 CONTENT_ADMIN_REQUIRED otherwise). Lists legal holds newest first, optionally of one status (ACTIVE, RELEASED) or one story; `limit` 1 to 100 (default 20) with a keyset cursor.',
        querystring: LegalHoldsQuery,
        response: {
          200: answer(LegalHoldsPage, 'One page of legal holds, newest first, with nextCursor when there are more.'),
          ...errors(400, 401, 403, 409, 429, 503),
        },
      },
    },
    async (request) => holds.list(request.query),
  );

  app.post(
    '/v1/admin/moderation/legal-holds',
    {
      config: write,
      schema: {
        operationId: 'changeLegalHold',
        tags,
        summary: 'Place a legal hold on a story (action PLACE) or release one (action RELEASE)',
        description:
          'A human signed write sent by the front end for its user (120 writes a minute per actorId). Content admins only (CONTENT_ADMIN_IDS, matched by the bound linkedHumanId first, then the actorId; 403 CONTENT_ADMIN_REQUIRED otherwise), signing as a verified human (403 VERIFIED_ACTOR_REQUIRED). PLACE puts a hold on a story (one active hold per story, 409 LEGAL_HOLD_EXISTS); RELEASE ends the hold named by holdId (409 LEGAL_HOLD_NOT_ACTIVE when already released). While a hold is active the story cannot be corrected, retracted, revised or blocked (409 LEGAL_HOLD_ACTIVE); reads, comments, flags and votes go on. Audited; the answer is the hold.',
        body: LegalHoldBody,
        response: {
          202: answer(LegalHold, 'Accepted: the hold as placed (ACTIVE) or released (RELEASED), with who, when and why.'),
          ...errors(400, 401, 403, 404, 409, 429, 503),
        },
      },
    },
    async (request, reply) => reply.code(202).send(await holds.write(humanActor(request), request.body)),
  );

  app.post(
    '/v1/admin/sources/:id/status',
    {
      config: write,
      schema: {
        operationId: 'setSourceStatus',
        tags,
        summary: 'Set the status of a source (its host): UNRATED, TRUSTED, WATCH or BANNED',
        description:
          'A human signed write sent by the front end for its user (120 writes a minute per actorId). Content admins only (CONTENT_ADMIN_IDS, matched by the bound linkedHumanId first, then the actorId; 403 CONTENT_ADMIN_REQUIRED otherwise), signing as a verified human (403 VERIFIED_ACTOR_REQUIRED). A source is a host (lowercased, without www.): UNRATED, TRUSTED, WATCH (shown to readers and bots) or BANNED (the next safety scan of a candidate citing it quarantines it; published stories are not unpublished). The status shows at once on every story source read. Audited; the answer gives the previous status and how many citations name the host.',
        params: SourceParams,
        body: SourceStatusBody,
        response: {
          202: answer(
            SourceStatusResponse,
            'Accepted: the host with its new and previous status, who set it and how many story citations name it.',
          ),
          ...errors(400, 401, 403, 409, 429, 503),
        },
      },
    },
    async (request, reply) => reply.code(202).send(await sources.set(humanActor(request), request.params.id, request.body)),
  );
};
