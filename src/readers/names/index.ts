import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { humanActor } from '../../platform/auth/require-actor.js';
import { answer, errors } from '../../platform/schemas.js';
import { SignedReadQuery } from '../users/schemas.js';
import { MyName, NameHistory, NameHistoryParams, NameSet, SetNameBody } from './schemas.js';
import type { NamesService } from './service.js';

/** Display names: the reader's own, and a person's past names for moderators. */
export const namesModule: FastifyPluginAsyncTypebox<{ names: NamesService }> = async (app, { names }) => {
  const tags = ['users'];

  app.get(
    '/v1/users/me/name',
    {
      config: { auth: { kind: 'human-read' } },
      onSend: async (_request, reply, payload) => {
        reply.header('cache-control', 'private, no-store');
        return payload;
      },
      schema: {
        operationId: 'getDisplayName',
        tags,
        summary: "The signed reader's display name",
        description:
          "A human signed read of the signed reader's own display name (null until they choose one); reads count against the per-IP read limit and are answered cache-control: private, no-store.",
        querystring: SignedReadQuery,
        response: { 200: answer(MyName, "The reader's display name, or null."), ...errors(400, 401, 403, 409, 429, 503) },
      },
    },
    async (request) => names.myName(humanActor(request)),
  );

  app.post(
    '/v1/users/me/name',
    {
      // the name shows in public reads (comment authors, profiles): the write moves the public read cache on
      config: { auth: { kind: 'human-write' } },
      schema: {
        operationId: 'setDisplayName',
        tags,
        summary: 'Choose or change my display name',
        description:
          "A human signed write on the signed reader's own name (the actor of the body), 120 writes a minute per actorId. Sets the name the pages show for the reader instead of an id: 3 to 30 letters of any script, digits, spaces and . _ -, no space at either end or twice in a row, not a reserved word or a look-alike of one, and screened like the newsroom's text (400 VALIDATION_FAILED naming the rule). Names are unique without case or width: one another person holds is 409 NAME_TAKEN. A change keeps the name given up in a history moderators read; the same name again answers changed false.",
        body: SetNameBody,
        response: {
          202: answer(NameSet, 'Accepted: the reader’s name after the write and whether it changed.'),
          ...errors(400, 401, 403, 409, 429, 503),
        },
      },
    },
    async (request, reply) => reply.code(202).send(await names.setName(humanActor(request), request.body.name)),
  );

  app.get(
    '/v1/admin/people/:actorId/names',
    {
      config: { auth: { kind: 'human-read', admin: 'content' } },
      schema: {
        operationId: 'getDisplayNameHistory',
        tags: ['moderation'],
        summary: "A person's display name and the names they gave up (content admins)",
        description:
          'A human signed read. Content admins only (CONTENT_ADMIN_IDS, matched by the bound linkedHumanId first, then the actorId; 403 CONTENT_ADMIN_REQUIRED otherwise). Answers the display name of the actor now (null: none) and every name they gave up, most recently given up first, with when each was chosen and replaced; an actor without any answers name null and an empty list.',
        params: NameHistoryParams,
        querystring: SignedReadQuery,
        response: {
          200: answer(NameHistory, "The person's name now and the names they gave up."),
          ...errors(400, 401, 403, 409, 429, 503),
        },
      },
    },
    async (request) => names.history(request.params.actorId),
  );
};
