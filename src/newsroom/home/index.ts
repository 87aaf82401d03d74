import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { readOn, type ReadServices } from '../../platform/read-routing.js';
import { errors } from '../../platform/schemas.js';
import { HomeQuery, HomeResponse, LedgerModuleResponse, RewardWindowModuleResponse, StoryModuleResponse } from './schemas.js';
import type { createHomeService } from './service.js';

/** GET /v1/home and the newsroom modules under /v1/modules. */
export const homeModule: FastifyPluginAsyncTypebox<{ service: ReadServices<ReturnType<typeof createHomeService>> }> = async (
  app,
  { service },
) => {
  const config = { auth: { kind: 'public' as const }, readCache: true };
  const failures = errors(400, 429);

  app.get(
    '/v1/home',
    {
      config,
      schema: {
        operationId: 'getHome',
        tags: ['home'],
        summary: 'Home: trending hero, developing, under review, latest ledger events, reward windows',
        querystring: HomeQuery,
        response: { 200: HomeResponse, ...failures },
      },
    },
    async (request) => readOn(request, service, (home) => home.home(request.query.lang ?? 'en')),
  );

  app.get(
    '/v1/modules/developing',
    {
      config,
      schema: {
        operationId: 'getDevelopingModule',
        tags: ['home'],
        summary: 'Developing stories: provisional, review still emerging, contested or under review',
        querystring: HomeQuery,
        response: { 200: StoryModuleResponse, ...failures },
      },
    },
    async (request) => readOn(request, service, (home) => home.developing(request.query.lang ?? 'en')),
  );

  app.get(
    '/v1/modules/under-review',
    {
      config,
      schema: {
        operationId: 'getUnderReviewModule',
        tags: ['home'],
        summary: 'Stories whose state is CONTESTED or UNDER_REVIEW',
        querystring: HomeQuery,
        response: { 200: StoryModuleResponse, ...failures },
      },
    },
    async (request) => readOn(request, service, (home) => home.underReview(request.query.lang ?? 'en')),
  );

  app.get(
    '/v1/modules/ledger',
    {
      config,
      schema: {
        operationId: 'getLedgerModule',
        tags: ['home'],
        summary: 'Latest ledger events with localized labels',
        querystring: HomeQuery,
        response: { 200: LedgerModuleResponse, ...failures },
      },
    },
    async (request) => readOn(request, service, (home) => home.ledger(request.query.lang ?? 'en')),
  );

  app.get(
    '/v1/modules/reward-window',
    {
      config,
      schema: {
        operationId: 'getRewardWindowModule',
        tags: ['home'],
        summary: 'Stories whose reward window is open, closing soonest first',
        querystring: HomeQuery,
        response: { 200: RewardWindowModuleResponse, ...failures },
      },
    },
    async (request) => readOn(request, service, (home) => home.rewardWindow(request.query.lang ?? 'en')),
  );
};
