import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { readOn, type ReadServices } from '../../platform/read-routing.js';
import { answer, errors } from '../../platform/schemas.js';
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
        description:
          'Public: no credentials, counted against the per-IP read limit (600 a minute by default) and served from the public read cache while nothing was written. Neutral data for assistants that act for a person: the modules, every reader action with its method, route, authentication, required credentials and options (in a fixed order that carries no meaning), the credentials, the governance thresholds and the evidence links, texts in `lang`. No field recommends a choice.',
        querystring: OrientationQuery,
        response: {
          200: answer(
            OrientationResponse,
            'The orientation: modules, action types, credentials, gating facts with the thresholds in force, and evidence links.',
          ),
          ...errors(400, 429),
        },
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
        description:
          'Public: no credentials, counted against the per-IP read limit (600 a minute by default) and served from the public read cache while nothing was written. The orientation for one story: its status and labels, whether each reader action is open now and why (published story, reward window, current packet), the verified human actions its gates name (graduate:<storyId>, flag_high_severity:<claimId> per claim) and its evidence links. A hidden story is 404.',
        params: StoryOrientationParams,
        querystring: OrientationQuery,
        response: {
          200: answer(
            StoryOrientationResponse,
            "The story's orientation: status, action gates with their explanations, required credentials and actions, thresholds and evidence links.",
          ),
          ...errors(400, 404, 429),
        },
      },
    },
    async (request) => readOn(request, service, (orientation) => orientation.story(request.params.id, request.query.lang ?? 'en')),
  );
};
