import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { humanActor } from '../auth/require-actor.js';
import { answer, errors } from '../schemas.js';
import { AuditEventsPage, AuditEventsQuery } from './schemas.js';
import type { AuditService } from './service.js';

/** The audit chain's rows for content admins (the console's audit log reads the same service in process). */
export const auditModule: FastifyPluginAsyncTypebox<{ audit: AuditService }> = async (app, { audit }) => {
  app.get(
    '/v1/admin/audit',
    {
      config: { auth: { kind: 'human-read', admin: 'content' } },
      schema: {
        operationId: 'listAuditEvents',
        tags: ['audit'],
        summary: 'The audit chain, newest first (filters: actor, action, from, to; keyset cursor)',
        description:
          'A human signed read. Content admins only (CONTENT_ADMIN_IDS, matched by the bound linkedHumanId first, then the actorId; 403 CONTENT_ADMIN_REQUIRED otherwise). Lists the rows of the audit chain newest first (by seq), each with its details, its hash and the previous row’s hash. `actor` keeps the rows of one actorId or linkedHumanId, `action` those of one action, `from` and `to` a date range (a day, UTC, or an ISO 8601 instant; a `to` day includes the whole day); a date that is not one, or a `to` before `from`, is 400 VALIDATION_FAILED. `limit` 1 to 100 (default 20) with a keyset cursor. `npm run audit:verify` (or the console) walks the chain and checks every link.',
        querystring: AuditEventsQuery,
        response: {
          200: answer(
            AuditEventsPage,
            'One page of audit rows, newest first, each with its hash and previous hash, and nextCursor when there are older rows.',
          ),
          ...errors(400, 401, 403, 409, 429, 503),
        },
      },
    },
    async (request) => audit.list(humanActor(request), request.query),
  );
};
