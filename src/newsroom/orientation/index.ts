import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { readOn, type ReadServices } from '../../platform/read-routing.js';
import { errors } from '../../platform/schemas.js';
import { OrientationQuery, OrientationResponse, StoryOrientationParams, StoryOrientationResponse } from './schemas.js';
import type { createOrientationService } from './service.js';

/** Neutral orientation data for human-controlled assistants, global and per story. */
export const orientationModule: FastifyPluginAsyncTypebox<{ service: ReadServices<ReturnType<typeof createOrientationService>> }> = async (
  app,
  { service },
) => {
  const config = { auth: { kind: 'public' as const }, readCache: true };
  // cached per story, invalidated only by the writes on that story (or by one naming no story)
  const storyConfig = { ...config, readCache: { story: 'id' } };

  app.get(
    '/v1/assistant/orientation',
    {
      config,
      schema: {
        operationId: 'getOrientation',
        tags: ['orientation'],
        summary: 'Modules, action types, gating facts, required credentials and evidence links (neutral: no direction is chosen)',
        querystring: OrientationQuery,
        response: { 200: OrientationResponse, ...errors(400, 429) },
      },
    },
    async (request) => readOn(request, service, (orientation) => orientation.global(request.query.lang ?? 'en')),
  );

  app.get(
    '/v1/stories/:id/assistant-orientation',
    {
      config: storyConfig,
      schema: {
        operationId: 'getStoryOrientation',
        tags: ['orientation'],
        summary: "A story's status, action gates, required credentials and evidence links (neutral)",
        params: StoryOrientationParams,
        querystring: OrientationQuery,
        response: { 200: StoryOrientationResponse, ...errors(400, 404, 429) },
      },
    },
    async (request) => readOn(request, service, (orientation) => orientation.story(request.params.id, request.query.lang ?? 'en')),
  );
};
