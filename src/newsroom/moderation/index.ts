import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { humanActor } from '../../platform/auth/require-actor.js';
import { errors } from '../../platform/schemas.js';
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
        querystring: QuarantineQuery,
        response: { 200: QuarantinePage, ...errors(400, 401, 403, 409, 429, 503) },
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
        params: ResolveParams,
        body: ResolveBody,
        response: { 202: QuarantineItem, ...errors(400, 401, 403, 404, 409, 429, 503) },
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
        querystring: LegalHoldsQuery,
        response: { 200: LegalHoldsPage, ...errors(400, 401, 403, 409, 429, 503) },
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
        body: LegalHoldBody,
        response: { 202: LegalHold, ...errors(400, 401, 403, 404, 409, 429, 503) },
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
        params: SourceParams,
        body: SourceStatusBody,
        response: { 202: SourceStatusResponse, ...errors(400, 401, 403, 409, 429, 503) },
      },
    },
    async (request, reply) => reply.code(202).send(await sources.set(humanActor(request), request.params.id, request.body)),
  );
};
