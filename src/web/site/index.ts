import type { SessionStore } from '@fastify/session';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Clock } from '../../platform/clock.js';
import { normalizeError } from '../../platform/error-handler.js';
import { notFound } from '../../platform/errors.js';
import { DEFAULT_LANG, type Lang } from '../../platform/i18n/index.js';
import { LANGS } from '../../platform/schemas.js';
import { StoryParams } from '../../newsroom/common/schemas.js';
import { WORLD_ID_CONTENT_SECURITY_POLICY } from './assets-account.js';
import { ASSETS, SITE_HEADERS } from './assets.js';
import { packetDiff } from './diff.js';
import type { createAccountsService } from '../../readers/accounts/service.js';
import { registerFormLimits, type FormLimits } from './limits.js';
import { acceptedLang, savedLang, withLang } from './languages.js';
import { loginRoutes } from './login-routes.js';
import { readerRoutes, type ReaderServices } from './reader-routes.js';
import { notificationRoutes } from './notification-routes.js';
import type { SiteNotifications } from './notifications.js';
import { storyReaderState } from './reader-state.js';
import { createServiceCalls, type ServiceCalls, type ServiceCallsDeps } from './calls.js';
import { nameRoutes } from './name-routes.js';
import type { NamesService } from '../../readers/names/service.js';
import { BotPage, PersonPage } from './views/profiles.js';
import { sendPage } from './render.js';
import { csrfSubject, readerOf, registerSessions, type SiteReader } from './session.js';
import type { LoginMode } from './visitor.js';
import { BotParams, FeedPageQuery, LangQuery, LedgerPageQuery, PersonParams, SearchPageQuery, VersionsPageQuery } from './schemas.js';
import type { createSiteService } from './service.js';
import { ErrorPage, queryProblems } from './views/error.js';
import { FeedPage } from './views/feed.js';
import { LedgerPage } from './views/ledger.js';
import { MachineRoomPage } from './views/machine-room.js';
import { RewardWindowPage, StoryModulePage } from './views/modules.js';
import { RankingsPage } from './views/rankings.js';
import { SearchPage } from './views/search.js';
import { StoryPage } from './views/story.js';
import { HowItWorksPage } from './views/how-it-works.js';
import { VersionsPage } from './views/versions.js';
import { siteWeb } from './web.js';

/**
 * The language of a page whose query or form may not have passed validation (its error page still speaks it):
 * a page's address names it, a form (which posts to an address without a query) carries it as a field.
 */
function requestedLang(request: FastifyRequest): Lang {
  for (const values of [request.query, request.body]) {
    const lang = (values as Record<string, unknown> | null | undefined)?.lang;
    const known = LANGS.find((l) => l === lang);
    if (known) return known;
  }
  return DEFAULT_LANG;
}

/**
 * The reader site: server-rendered, read-only HTML pages over the public reads, at `/` and beside the JSON
 * API (whose paths all start with /v1, /healthz, /readyz, /docs or /openapi.json). Pages share the public read
 * cache and its invalidation with the JSON reads; they sign nothing and carry no credentials. Encapsulated: its
 * security headers and its HTML error pages apply to its own routes only (the JSON API and /docs keep theirs).
 */
export interface SiteOptions {
  service: ReturnType<typeof createSiteService>;
  accounts: ReturnType<typeof createAccountsService>;
  /** Display names: the name page writes through it (in process), the login and the comment form read it. */
  names: NamesService;
  sessions: { store: SessionStore; secret: string };
  /** Per-address budgets of the login steps and the forms (site and console). */
  limits: FormLimits;
  /** What the pages' calls of the services apply as the API does (./calls.ts). */
  calls: ServiceCallsDeps;
  /** The services a reader's forms and pages act through: the instances the API's routes call. */
  services: ReaderServices;
  login: { mode: LoginMode; appId: string | undefined };
  clock: Clock;
  /**
   * Pages that live inside the site (the console): registered in the site's scope, so they share its login,
   * sessions, CSRF protection, security headers and error pages.
   */
  extend?: (app: FastifyInstance, shared: SiteShared) => Promise<unknown>;
  /** Whether a logged-in person may use the console (the masthead then links to it). */
  staff?: (reader: SiteReader) => boolean;
  /** How many things wait for a console user (the masthead's "Console (3)"): one call, on their own pages only. */
  staffWaiting?: (reader: SiteReader) => Promise<number>;
  /** A reader's notifications (the masthead's count, their page and their private Atom feed). */
  notifications: SiteNotifications;
  /** PUBLIC_BASE_URL: the origin of the Atom feed's address. */
  baseUrl: string;
}

/** What the site lends to the pages registered inside it. */
export interface SiteShared {
  calls: ServiceCalls;
  mode: LoginMode;
  clock: Clock;
  prepare(request: FastifyRequest, reply: FastifyReply): void;
}

export const siteModule: FastifyPluginAsyncTypebox<SiteOptions> = async (app, options) => {
  const { service, clock } = options;
  const calls = createServiceCalls(options.calls);
  await registerSessions(app, options.sessions);
  registerFormLimits(app, options.limits);

  const list = { auth: { kind: 'public' as const }, readCache: true };
  const story = { auth: { kind: 'public' as const }, readCache: { story: 'id' } };
  const hide = { hide: true };

  /**
   * A page for this request's visitor: the logged-in reader (or a visitor on the login page) gets their own,
   * uncached page with a CSRF token for its forms (bound to them: ./session.ts) and the outcome of the form they
   * just sent. Nothing here writes a session: the token's secret is a cookie of its own.
   */
  const prepare = (request: FastifyRequest, reply: FastifyReply) => {
    if (request.visitor) return;
    const flash = request.session.flash ?? null;
    if (flash) delete request.session.flash;
    const reader = readerOf(request, clock.now());
    request.personalRead = true;
    request.visitor = {
      reader,
      csrf: reply.generateCsrf({ userInfo: csrfSubject(request) }),
      flash,
      login: options.login.mode,
      worldIdAppId: options.login.appId ?? null,
      staff: reader !== null && (options.staff?.(reader) ?? false),
    };
    if (options.login.mode === 'world-id' && (reader || request.url.startsWith('/login/world-id')))
      reply.header('content-security-policy', WORLD_ID_CONTENT_SECURITY_POLICY);
  };

  app.addHook('onRequest', async (request, reply) => {
    reply.headers(SITE_HEADERS);
    request.pageNow = clock.now();
    const chosen = await chosenLang(request);
    if (chosen) {
      // a page asked for without `lang`: its language is the reader's saved one, else the browser's (Accept-Language)
      reply.header('vary', 'accept-language');
      if (chosen !== DEFAULT_LANG) {
        reply.header('cache-control', 'private, no-store');
        return reply.redirect(withLang(request.url, chosen), 302);
      }
    }
    // a logged-in reader's pages are theirs: never from the shared read cache (the cache's hook runs after this)
    if (request.method === 'GET' && !request.url.startsWith('/assets/') && readerOf(request, clock.now())) {
      prepare(request, reply);
      // what waits for a console user, for the masthead's link: only on a logged-in person's own site pages (the
      // console's pages have no masthead link; its home counts for itself)
      const visitor = request.visitor;
      // how many notifications are new, for the masthead's link (the notifications page counts for itself)
      if (visitor?.reader && request.url.split('?')[0] !== '/me/notifications') {
        visitor.unread = await options.notifications.unread(visitor.reader.accountId).catch((err: unknown) => {
          request.log.warn({ err }, 'notification count failed');
          return undefined;
        });
      }
      if (visitor?.staff && visitor.reader && options.staffWaiting && !request.url.startsWith('/console')) {
        visitor.waiting = await options.staffWaiting(visitor.reader).catch((err: unknown) => {
          request.log.warn({ err }, 'console waiting count failed');
          return undefined;
        });
      }
    }
  });

  /**
   * The language of a page asked for without `lang` (null: the request names one, or is no page): a logged-in
   * reader's saved language (their preferences), else the first of the five their browser accepts, else English.
   * A page in any language but English is a redirect to its address with `lang`, so the read cache, which keys a
   * page by its path and query, never holds one language's page under another's address; the English page of an
   * address without `lang` is served as before, with `Vary: Accept-Language`.
   */
  async function chosenLang(request: FastifyRequest): Promise<Lang | null> {
    if (request.method !== 'GET' && request.method !== 'HEAD') return null;
    const query = request.routeOptions.schema?.querystring as { properties?: Record<string, unknown> } | undefined;
    if (!query?.properties || !('lang' in query.properties)) return null;
    if ((request.query as Record<string, unknown> | null)?.lang !== undefined) return null;
    if (/\.(atom|xml)$/.test(new URL(request.url, 'http://site.invalid').pathname)) return null;
    const reader = readerOf(request, clock.now());
    const saved = reader ? await savedLang(calls, options.services.users, reader) : undefined;
    return saved ?? acceptedLang(request.headers['accept-language']) ?? DEFAULT_LANG;
  }

  app.addHook('onSend', async (request, reply, payload) => {
    if (request.url.startsWith('/assets/')) return payload;
    // one URL, two pages (anonymous and logged in): no shared cache may mix them up
    reply.header('vary', [reply.getHeader('vary'), 'cookie'].filter(Boolean).join(', '));
    if (request.personalRead === true || request.session?.reader) reply.header('cache-control', 'private, no-store');
    return payload;
  });

  app.setErrorHandler((error, request, reply) => {
    const failure = normalizeError(error);
    if (failure.status >= 500) request.log.error({ err: error }, 'page failed');
    else request.log.info({ code: failure.code, status: failure.status }, 'page refused');
    if (failure.retryAfterSeconds !== undefined) reply.header('retry-after', String(failure.retryAfterSeconds));
    reply.code(failure.status);
    const problems = queryProblems(failure, request);
    return sendPage(reply, ErrorPage, {
      lang: requestedLang(request),
      status: failure.status,
      requestId: request.id,
      problems,
      retryAfterSeconds: failure.retryAfterSeconds,
    });
  });

  await app.register(siteWeb, { service: service.syndication });

  for (const asset of Object.values(ASSETS)) {
    app.get(asset.path, { schema: hide }, async (_request, reply) =>
      reply.type(asset.type).header('cache-control', 'public, max-age=31536000, immutable').send(asset.body),
    );
  }

  const { services, names } = options;
  await app.register(loginRoutes, {
    calls,
    humans: services.humans,
    users: services.users,
    accounts: options.accounts,
    names,
    mode: options.login.mode,
    appId: options.login.appId,
    prepare,
  });
  await app.register(readerRoutes, { calls, services, mode: options.login.mode, clock, prepare });
  await app.register(nameRoutes, { names, calls, clock, prepare });
  await app.register(notificationRoutes, { notifications: options.notifications, clock, baseUrl: options.baseUrl, prepare });
  if (options.extend) await options.extend(app, { calls, mode: options.login.mode, clock, prepare });

  app.get('/', { config: list, schema: { ...hide, querystring: FeedPageQuery } }, async (request, reply) => {
    const { lang = 'en', mode = 'trending', room, cursor, limit } = request.query;
    const { page, rooms, marked } = await service.feedPage({ lang, mode, room, cursor, limit });
    return sendPage(reply, FeedPage, { lang, mode, room, limit, page, rooms, marked });
  });

  app.get('/stories/:id', { config: story, schema: { ...hide, params: StoryParams, querystring: LangQuery } }, async (request, reply) => {
    const lang = request.query.lang ?? 'en';
    const page = await service.storyPage(request.params.id, lang);
    // a logged-in reader's own page (never cached) shows what they already did on the story
    const reader = request.visitor?.reader;
    const mine = reader ? await storyReaderState(calls, options.services, reader, page.story) : null;
    return sendPage(reply, StoryPage, { lang, now: clock.now(), mine, ...page });
  });

  app.get(
    '/stories/:id/machine-room',
    { config: story, schema: { ...hide, params: StoryParams, querystring: LangQuery } },
    async (request, reply) => {
      const lang = request.query.lang ?? 'en';
      return sendPage(reply, MachineRoomPage, { lang, ...(await service.machineRoomPage(request.params.id, lang)) });
    },
  );

  app.get(
    '/stories/:id/versions',
    { config: story, schema: { ...hide, params: StoryParams, querystring: VersionsPageQuery } },
    async (request, reply) => {
      const lang = request.query.lang ?? 'en';
      const { story: current, versions, botNames } = await service.versionsPage(request.params.id, lang);
      const to = request.query.to ?? versions.currentVersion;
      const from = request.query.from ?? Math.max(1, to - 1);
      const older = versions.versions.find((v) => v.version === Math.min(from, to));
      const newer = versions.versions.find((v) => v.version === Math.max(from, to));
      if (!older || !newer) throw notFound('version');
      const diff = older === newer ? null : packetDiff(older.packet, newer.packet);
      return sendPage(reply, VersionsPage, { lang, story: current, versions, from: older.version, to: newer.version, diff, botNames });
    },
  );

  app.get('/people/:name', { config: list, schema: { ...hide, params: PersonParams, querystring: LangQuery } }, async (request, reply) =>
    sendPage(reply, PersonPage, { lang: request.query.lang ?? 'en', ...(await service.personPage(request.params.name)) }),
  );

  app.get('/bots/:botId', { config: list, schema: { ...hide, params: BotParams, querystring: LangQuery } }, async (request, reply) =>
    sendPage(reply, BotPage, { lang: request.query.lang ?? 'en', ...(await service.botPage(request.params.botId)) }),
  );

  app.get('/ledger', { config: list, schema: { ...hide, querystring: LedgerPageQuery } }, async (request, reply) => {
    const { lang = 'en', filters, cursor, limit } = request.query;
    return sendPage(reply, LedgerPage, { lang, bucket: filters, limit, page: await service.ledgerPage({ filters, cursor, limit }) });
  });

  app.get('/rankings', { config: list, schema: { ...hide, querystring: LangQuery } }, async (request, reply) =>
    sendPage(reply, RankingsPage, { lang: request.query.lang ?? 'en', rankings: await service.rankingsPage() }),
  );

  app.get('/how-it-works', { config: list, schema: { ...hide, querystring: LangQuery } }, async (request, reply) =>
    sendPage(reply, HowItWorksPage, { lang: request.query.lang ?? 'en' }),
  );

  app.get('/developing', { config: list, schema: { ...hide, querystring: LangQuery } }, async (request, reply) => {
    const lang = request.query.lang ?? 'en';
    return sendPage(reply, StoryModulePage, { lang, section: 'developing', path: '/developing', module: await service.developing(lang) });
  });

  app.get('/under-review', { config: list, schema: { ...hide, querystring: LangQuery } }, async (request, reply) => {
    const lang = request.query.lang ?? 'en';
    return sendPage(reply, StoryModulePage, {
      lang,
      section: 'under-review',
      path: '/under-review',
      module: await service.underReview(lang),
    });
  });

  app.get('/reward-window', { config: list, schema: { ...hide, querystring: LangQuery } }, async (request, reply) => {
    const lang = request.query.lang ?? 'en';
    return sendPage(reply, RewardWindowPage, { lang, module: await service.rewardWindow(lang) });
  });

  app.get('/search', { config: list, schema: { ...hide, querystring: SearchPageQuery } }, async (request, reply) => {
    const { lang = 'en', cursor, q, room, state, publicationStage, reviewStatus } = request.query;
    // an empty form field means "any": it is dropped before the search service sees the query
    const filters = {
      q: q || undefined,
      room: room?.trim().toLowerCase() || undefined,
      state: state || undefined,
      publicationStage: publicationStage || undefined,
      reviewStatus: reviewStatus || undefined,
    };
    const { result, rooms } = await service.searchPage({ ...filters, lang, cursor, limit: 20 });
    return sendPage(reply, SearchPage, { lang, filters, result, rooms });
  });
};
