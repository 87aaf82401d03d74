import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { readOn, type ReadServices } from '../../platform/read-routing.js';
import { answer, errors } from '../../platform/schemas.js';
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
        description:
          'Public: no credentials, counted against the per-IP read limit (600 a minute by default) and served from the public read cache while nothing was written. Builds the home page at one instant: the hero (top 5 trending stories) and the first 5 items of the developing, under-review, ledger and reward-window modules, with titles, descriptions and labels in `lang`.',
        querystring: HomeQuery,
        response: {
          200: answer(HomeResponse, 'The home page: hero and four module sections, localized, with the time it was built.'),
          ...failures,
        },
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
        description:
          "Public: no credentials, counted against the per-IP read limit (600 a minute by default) and served from the public read cache while nothing was written. The developing feed's first page: provisional stories whose review is still emerging, contested or under review, newest published first, 20 at most, titles and labels in `lang`.",
        querystring: HomeQuery,
        response: {
          200: answer(StoryModuleResponse, 'The developing module: its localized heading and up to 20 story cards.'),
          ...failures,
        },
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
        description:
          'Public: no credentials, counted against the per-IP read limit (600 a minute by default) and served from the public read cache while nothing was written. Listed stories whose state is CONTESTED or UNDER_REVIEW (retracted ones excluded), newest published first, 20 at most, titles and labels in `lang`.',
        querystring: HomeQuery,
        response: {
          200: answer(StoryModuleResponse, 'The under-review module: its localized heading and up to 20 story cards.'),
          ...failures,
        },
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
        description:
          'Public: no credentials, counted against the per-IP read limit (600 a minute by default) and served from the public read cache while nothing was written. The latest ledger events of every bucket, 20 at most, each with its type, story state and bucket labelled in `lang`.',
        querystring: HomeQuery,
        response: {
          200: answer(LedgerModuleResponse, 'The ledger module: its localized heading and up to 20 labelled ledger events.'),
          ...failures,
        },
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
        description:
          'Public: no credentials, counted against the per-IP read limit (600 a minute by default) and served from the public read cache while nothing was written. Listed stories whose reward window is open now, closing soonest first, each with its closing time and the hours left; with the window length (the rewardWindowHours governance parameter) and how many windows are open.',
        querystring: HomeQuery,
        response: {
          200: answer(
            RewardWindowModuleResponse,
            'The reward-window module: its localized heading, the window length, how many are open, and up to 20 stories closing soonest first.',
          ),
          ...failures,
        },
      },
    },
    async (request) => readOn(request, service, (home) => home.rewardWindow(request.query.lang ?? 'en')),
  );
};
