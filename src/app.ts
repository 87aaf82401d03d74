import cors from '@fastify/cors';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { type FastifyInstance, type FastifyPluginAsync } from 'fastify';
import { createServices } from './composition.js';
import type { Config } from './config.js';
import { agentsModule } from './identity/agents/index.js';
import { requestParametersPlugin } from './governance/parameters/request-parameters.js';
import { identityModule } from './identity/humans/index.js';
// governance and the emergency control plane
import { controlPlaneModule } from './governance/control-plane/index.js';
import { governanceModule } from './governance/parameters/index.js';
import { integrityModule } from './governance/integrity/index.js';
import { candidatesModule } from './newsroom/candidates/index.js';
import { commentsModule } from './newsroom/comments/index.js';
import { flagsModule } from './newsroom/flags/index.js';
import { rewardVotesModule } from './newsroom/reward-votes/index.js';
// rewards, settlements and fraud review
import { rewardsPolicyModule } from './rewards/policy/index.js';
import { rewardsModule } from './rewards/recipients/index.js';
import { settlementsModule } from './rewards/settlements/index.js';
import { rewardReviewModule } from './rewards/review/index.js';
import { claimsModule } from './rewards/claims/index.js';
import { botOwnersModule } from './rewards/bot-owners/index.js';
// public newsroom reads
import { feedModule } from './newsroom/feed/index.js';
import { homeModule } from './newsroom/home/index.js';
import { ledgerModule } from './newsroom/ledger/index.js';
import { orientationModule } from './newsroom/orientation/index.js';
import { rankingsModule } from './newsroom/rankings/index.js';
// the reader site and the console
import { siteModule } from './web/site/index.js';
import { consoleModule } from './web/console/index.js';
import { allowlistsOf, consoleActor, openAreas, rolesOf } from './web/console/access.js';
import { waitingFor, waitingTotal } from './web/console/waiting.js';
import { sessionKey } from './web/site/session.js';
import { siteNotFound } from './web/site/not-found.js';
import { searchModule } from './newsroom/search/index.js';
import { storiesModule } from './newsroom/stories/index.js';
import { healthModule } from './operations/health/index.js';
import { publishModule } from './newsroom/publish/index.js';
import { reviewsModule } from './newsroom/reviews/index.js';
import { usersModule } from './readers/users/index.js';
import { namesModule } from './readers/names/index.js';
// moderation, corrections and retractions, webhooks
import { correctionsModule } from './newsroom/corrections/index.js';
import { moderationModule } from './newsroom/moderation/index.js';
import { auditModule } from './platform/audit/index.js';
import { webhooksModule } from './delivery/webhooks/index.js';
import { authPlugin } from './platform/auth/plugin.js';
import { createContext, type AppContext, type ContextOverrides } from './platform/context.js';
import { migrateAtStart } from './platform/db/migrate.js';
import { mayAlterSchema } from './platform/db/roles.js';
import { registerCompression } from './platform/compression.js';
import { registerDeprecations } from './platform/deprecation.js';
import { clientErrorHandler, frameworkErrorHandler, registerErrorHandling } from './platform/error-handler.js';
import { httpServerOptions, registerEdgeGuards } from './platform/http-edge.js';
import { loggerOptions, requestId } from './platform/logger.js';
import { createMetrics } from './platform/metrics.js';
import { openapiPlugin } from './platform/openapi/plugin.js';
import { PATH_PARAM_MAX_LENGTH, registerRouteTable } from './platform/route-table.js';
import { readCachePlugin } from './platform/read-cache.js';
import { readAfterPosition, readRoutingPlugin } from './platform/read-routing.js';
import { createSerializerCompiler, createValidatorCompiler } from './platform/validation.js';
import { registerDecimalInputs } from './platform/decimal-input.js';
import { registerJsonBodyParser } from './platform/json-body.js';
import type { DB } from './tables.js';

export const SERVICE_VERSION = '0.1.0';

export interface BuildOptions extends ContextOverrides<DB> {
  /** Apply pending migrations before serving (default true). */
  migrate?: boolean;
  /** pino options override (tests pass false to keep output quiet). */
  logger?: boolean;
  /** Where pino writes instead of stdout (tests capture the log lines with it). */
  logStream?: NodeJS.WritableStream;
  /** Extra plugins registered after the modules (tests use this to exercise route options). */
  plugins?: FastifyPluginAsync[];
}

declare module 'fastify' {
  interface FastifyInstance {
    ctx: AppContext<DB>;
  }
}

/** Builds the whole service for `config`: platform plugins, then every module. Never listens. */
export async function buildApp(config: Config, options: BuildOptions = {}): Promise<FastifyInstance> {
  const logger = loggerOptions(config.logLevel);
  const app = Fastify({
    logger:
      options.logger === false
        ? false
        : options.logStream && typeof logger === 'object'
          ? { ...logger, stream: options.logStream }
          : logger,
    genReqId: requestId,
    requestIdHeader: false,
    // Fastify also takes a hop count; its typings only list strings and booleans.
    trustProxy: (config.trustProxy ?? false) as boolean | string,
    // limits and timeouts of Node's server, explicit rather than Node's defaults
    ...httpServerOptions(config.http),
    // a path parameter of any length that fits the URL limit reaches its route, whose schema answers 400 naming it
    // (over the URL limit, 414 either way)
    routerOptions: { ignoreTrailingSlash: false, maxParamLength: Math.max(config.http.maxUrlBytes, PATH_PARAM_MAX_LENGTH) },
    // the router's refusals (bad percent-encoding, overlong parameter) answer the contract error body too
    frameworkErrors: frameworkErrorHandler,
    clientErrorHandler,
  }).withTypeProvider<TypeBoxTypeProvider>();
  const ctx = await createContext(config, { ...options, log: app.log });
  // with MIGRATION_DATABASE_URL the migrations run as the owner and the service serves as the runtime role
  if (options.migrate !== false)
    await migrateAtStart(ctx.database, config.migrationDatabaseUrl).catch(async (err: unknown) => {
      if (ctx.ownsDatabase) await ctx.database.close().catch(() => undefined);
      await ctx.readReplica?.close().catch(() => undefined);
      ctx.redis?.disconnect();
      throw err;
    });
  if (config.failClosed && ctx.database.driver === 'postgres' && (await mayAlterSchema(ctx.database.db).catch(() => false)))
    app.log.warn(
      'DATABASE_URL connects as a superuser or as the owner of the schema: the service could switch off the audit triggers (docs/operators.md, "Database roles")',
    );

  app.decorate('ctx', ctx);
  // JSON in, JSON out: a text body on a JSON route is 415, not a string handed to a handler.
  app.removeContentTypeParser('text/plain');
  // JSON bodies keep the digits of numbers a double cannot hold; amounts are read from them, never as floats
  registerJsonBodyParser(app);
  registerDecimalInputs(app);
  app.setValidatorCompiler(createValidatorCompiler());
  app.setSerializerCompiler(createSerializerCompiler());
  registerErrorHandling(app, { routes: registerRouteTable(app), notFoundPage: siteNotFound });
  // before the routes: a route configured `deprecated` gets its Deprecation, Sunset and Link headers
  registerDeprecations(app);
  const metrics = createMetrics(ctx);
  // every service, built once (src/composition.ts)
  const services = createServices(ctx);

  // The hooks every request runs are plain callbacks: an async hook costs a promise and a turn of the microtask
  // queue on each request, which a route as small as /healthz shows.
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    done();
  });
  registerEdgeGuards(app, config.http);
  app.addHook('onResponse', (request, reply, done) => {
    metrics.requests.record(request.method, request.routeOptions.url ?? 'unmatched', reply.statusCode, reply.elapsedTime / 1000);
    done();
  });
  app.addHook('onClose', async () => {
    if (ctx.ownsDatabase) await ctx.database.close();
    await ctx.readReplica?.close();
    ctx.redis?.disconnect();
  });

  // Browsers are served only from the allowlisted origins; without any, no CORS hooks run at all.
  if (config.apiOrigins.length) {
    await app.register(cors, {
      origin: config.apiOrigins,
      methods: ['GET', 'POST', 'DELETE'],
      exposedHeaders: [
        'x-request-id',
        'retry-after',
        'x-read-after',
        'deprecation',
        'sunset',
        'link',
        'ratelimit',
        'ratelimit-policy',
        'idempotent-replayed',
      ],
    });
  }
  await app.register(openapiPlugin, { version: SERVICE_VERSION, serverUrl: config.publicBaseUrl });
  await app.register(requestParametersPlugin, { db: ctx.database.db, config });
  await app.register(authPlugin, {
    ctx,
    metrics,
    lookups: {
      findBoundTier: (actorId, linkedHumanId) => services.humans.boundTier(actorId, linkedHumanId),
      findSelfServeBot: (botId) => services.agents.findSigningBot(botId),
      agentWritesPerMinute: async (request, verified) => {
        const params = await request.governance();
        return verified ? params['rateLimits.verifiedWritesPerMinute'] : params['rateLimits.unverifiedWritesPerMinute'];
      },
    },
  });
  // after the auth plugin: a cached read still counts against the reader's rate limit
  await app.register(readCachePlugin, {
    generation: ctx.readGeneration,
    clock: ctx.clock,
    ...config.readCache,
    // with a replica: a read carrying x-read-after takes only a body that reflects it, and a replica's bodies live
    // no longer than its lag limit
    ...(ctx.readReplica
      ? { replicaMaxLagMs: ctx.readReplica.maxLagMs, readAfter: (request) => readAfterPosition(request, ctx.readReplica) }
      : {}),
  });
  await app.register(readRoutingPlugin, { primary: ctx.database.db, replica: ctx.readReplica });
  await registerCompression(app);

  const { newsroom, readers, rewards } = services;
  await app.register(healthModule, { ctx, metrics });
  await app.register(agentsModule, { service: services.agents });
  await app.register(candidatesModule, { service: newsroom.candidates });
  await app.register(publishModule, { service: newsroom.publish });
  await app.register(reviewsModule, { service: newsroom.reviews });
  await app.register(commentsModule, { service: newsroom.comments });
  await app.register(flagsModule, { service: newsroom.flags });
  await app.register(rewardVotesModule, { service: newsroom.rewardVotes });
  await app.register(usersModule, readers);
  await app.register(namesModule, { names: readers.names });
  await app.register(identityModule, { service: services.humans });
  // public newsroom reads
  // public newsroom reads: on the read replica when there is one (src/platform/read-routing.ts)
  const { publicReads } = services;
  await app.register(storiesModule, { service: publicReads.stories, recordRead: services.recordRead });
  await app.register(feedModule, { service: publicReads.feed });
  await app.register(searchModule, { service: publicReads.search });
  await app.register(ledgerModule, { service: publicReads.ledger });
  await app.register(homeModule, { service: publicReads.home });
  await app.register(orientationModule, { service: publicReads.orientation });
  await app.register(rankingsModule, { service: publicReads.rankings });
  // the reader site: server-rendered HTML from the same service instances, at /
  // who may use the console: the allowlists, read once
  const consoleLists = allowlistsOf(config);
  await app.register(siteModule, {
    service: services.site,
    accounts: services.siteAccounts,
    names: services.readers.names,
    sessions: { store: services.siteSessions, secret: sessionKey(config.sessionSecret, config.humanSigningSecrets[0]) },
    limits: {
      store: ctx.rateLimitStore,
      loginsPerMinute: config.rateLimits.siteLoginsPerMinute,
      formPostsPerMinute: config.rateLimits.siteFormPostsPerMinute,
    },
    calls: {
      config,
      rateLimitStore: ctx.rateLimitStore,
      findBoundTier: (actorId, linkedHumanId) => services.humans.boundTier(actorId, linkedHumanId),
    },
    services: {
      comments: newsroom.comments,
      rewardVotes: newsroom.rewardVotes,
      flags: newsroom.flags,
      humans: services.humans,
      feed: publicReads.feed.primary,
      ...readers,
    },
    login: { mode: config.humanProofVerifier === 'dev' ? 'dev' : 'world-id', appId: config.worldIdAppId },
    clock: ctx.clock,
    // the console for the allowlisted, inside the site: its login, sessions and CSRF
    staff: (reader) => openAreas(rolesOf(consoleLists, reader)).length > 0,
    notifications: services.siteNotifications,
    baseUrl: config.publicBaseUrl,
    staffWaiting: async (reader) => {
      const roles = rolesOf(consoleLists, reader);
      return waitingTotal(await waitingFor(services.console.waiting, roles, openAreas(roles), consoleActor(reader)));
    },
    extend: async (site, shared) => {
      await site.register(consoleModule, {
        ...shared,
        lists: consoleLists,
        ...services.console,
        services: {
          rewardsPolicy: rewards.policy,
          governance: services.governance,
          integrity: services.integrity,
          rewardReview: rewards.review,
          controlPlane: services.controlPlane,
          claims: rewards.claims,
          claimFreezes: rewards.claimFreezes,
          emergency: services.emergency,
          names: services.readers.names,
          bots: services.agents,
          humans: services.humans,
          moderation: newsroom.moderation,
          stories: newsroom.stories,
          corrections: newsroom.corrections,
          search: newsroom.search,
          settlements: rewards.settlements,
          botNames: (botIds) => services.agents.names(botIds),
        },
      });
    },
  });
  // governance and the emergency control plane (one human-proof verifier, HUMAN_PROOF_VERIFIER)
  await app.register(governanceModule, { governance: services.governance, emergency: services.emergency });
  await app.register(controlPlaneModule, { service: services.controlPlane });
  await app.register(integrityModule, { integrity: services.integrity });
  await app.register(auditModule, { audit: services.audit });
  // rewards, settlements and fraud review
  await app.register(rewardsPolicyModule, { policy: rewards.policy });
  await app.register(rewardsModule, { recipients: rewards.recipients, reads: rewards.reads });
  await app.register(botOwnersModule, { service: rewards.botOwners });
  await app.register(settlementsModule, { service: rewards.settlements });
  await app.register(rewardReviewModule, { review: rewards.review });
  await app.register(claimsModule, { claims: rewards.claims, freezes: rewards.claimFreezes });
  // moderation, corrections and retractions, webhooks
  await app.register(moderationModule, newsroom.moderation);
  await app.register(correctionsModule, { service: newsroom.corrections });
  await app.register(webhooksModule, { ctx, metrics });
  for (const plugin of options.plugins ?? []) await app.register(plugin);

  await app.ready();
  return app;
}
