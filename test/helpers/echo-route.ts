import type { FastifyPluginAsync } from 'fastify';

/** A route that takes an agent signed write, so the auth option is exercised beyond /v1/agents/join. */
export const echoRoute: FastifyPluginAsync = async (app) => {
  app.post('/v1/test/echo', { config: { auth: { kind: 'agent', permission: 'candidates:submit' } } }, async (request, reply) =>
    reply.code(202).send({ actor: request.actor, at: Date.now(), body: request.body }),
  );
};
