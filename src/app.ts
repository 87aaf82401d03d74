import cors from '@fastify/cors';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { type FastifyInstance, type FastifyPluginAsync } from 'fastify';
import type { Config } from './config.js';
import { agentsModule } from './modules/agents/index.js';
import { createAgentsRepository } from './modules/agents/repository.js';
import { requestParametersPlugin } from './modules/governance/request-parameters.js';
import { identityModule } from './modules/identity/index.js';
// governance and the emergency control plane
import { controlPlaneModule } from './modules/control-plane/index.js';
import { governanceModule } from './modules/governance/index.js';
import { integrityModule } from './modules/integrity/index.js';
import { createProofVerifier } from './modules/identity/proof-verifier.js';
import { findBoundTier } from './modules/identity/repository.js';
import { candidatesModule } from './modules/candidates/index.js';
import { commentsModule } from './modules/comments/index.js';
import { flagsModule } from './modules/flags/index.js';
import { rewardVotesModule } from './modules/reward-votes/index.js';
// rewards, settlements and fraud review (issue 12)
import { rewardsModule } from './modules/rewards/index.js';
import { latestAnalysisCartelHolds } from './modules/settlements/cartel-hook.js';
import { settlementsModule } from './modules/settlements/index.js';
import { rewardReviewModule } from './modules/reward-review/index.js';
import { claimsModule } from './modules/claims/index.js';
import { botOwnersModule } from './modules/bot-owners/index.js';
// public newsroom reads
import { feedModule } from './modules/feed/index.js';
import { homeModule } from './modules/home/index.js';
import { ledgerModule } from './modules/ledger/index.js';
import { orientationModule } from './modules/orientation/index.js';
import { rankingsModule } from './modules/rankings/index.js';
// the reader site (issue 15)
import { siteModule } from './modules/site/index.js';
import { searchModule } from './modules/search/index.js';
import { storiesModule } from './modules/stories/index.js';
import { healthModule } from './modules/health/index.js';
import { publishModule } from './modules/publish/index.js';
import { reviewsModule } from './modules/reviews/index.js';
import { usersModule } from './modules/users/index.js';
// issue 9: moderation, corrections and retractions, webhooks
import { correctionsModule } from './modules/corrections/index.js';
import { moderationModule } from './modules/moderation/index.js';
import { webhooksModule } from './modules/webhooks/index.js';
import { authPlugin } from './platform/auth/plugin.js';
import { createContext, type AppContext, type ContextOverrides } from './platform/context.js';
import { migrateAtStart } from './platform/db/migrate.js';
import { mayAlterSchema } from './platform/db/roles.js';
import { clientErrorHandler, frameworkErrorHandler, registerErrorHandling } from './platform/error-handler.js';
import { httpServerOptions, registerEdgeGuards } from './platform/http-edge.js';
import { loggerOptions, requestId } from './platform/logger.js';
import { createMetrics } from './platform/metrics.js';
import { openapiPlugin } from './platform/openapi.js';
import { readCachePlugin } from './platform/read-cache.js';
import { createValidatorCompiler, registerBodyDepthLimit } from './platform/validation.js';
import { registerDecimalInputs } from './platform/decimal-input.js';
import { registerJsonBodyParser } from './platform/json-numbers.js';

export const SERVICE_VERSION = '0.1.0';

export interface BuildOptions extends ContextOverrides {
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
    ctx: AppContext;
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
    // limits and timeouts of Node's server, explicit (issue 16, docs/operators.md "Slow clients and limits")
    ...httpServerOptions(config.http),
    routerOptions: { ignoreTrailingSlash: false, maxParamLength: 200 },
    // the router's refusals (bad percent-encoding, overlong parameter) answer the contract error body too
    frameworkErrors: frameworkErrorHandler,
    clientErrorHandler,
  }).withTypeProvider<TypeBoxTypeProvider>();
  const ctx = await createContext(config, { ...options, log: app.log });
  // with MIGRATION_DATABASE_URL the migrations run as the owner and the service serves as the runtime role
  if (options.migrate !== false)
    await migrateAtStart(ctx.database, config.migrationDatabaseUrl).catch(async (err: unknown) => {
      if (ctx.ownsDatabase) await ctx.database.close().catch(() => undefined);
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
  registerErrorHandling(app);
  registerBodyDepthLimit(app);
  const metrics = createMetrics(ctx);

  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });
  registerEdgeGuards(app, config.http);
  app.addHook('onResponse', async (request, reply) => {
    const labels = { method: request.method, route: request.routeOptions.url ?? 'unmatched', status: String(reply.statusCode) };
    metrics.requests.inc(labels);
    metrics.duration.observe(labels, reply.elapsedTime / 1000);
  });
  app.addHook('onClose', async () => {
    if (ctx.ownsDatabase) await ctx.database.close();
    ctx.redis?.disconnect();
  });

  // Browsers are served only from the allowlisted origins; without any, no CORS hooks run at all.
  if (config.apiOrigins.length) {
    await app.register(cors, {
      origin: config.apiOrigins,
      methods: ['GET', 'POST', 'DELETE'],
      exposedHeaders: ['x-request-id', 'retry-after'],
    });
  }
  await app.register(openapiPlugin, { version: SERVICE_VERSION, serverUrl: config.publicBaseUrl });
  const agents = createAgentsRepository(ctx.database.db);
  await app.register(requestParametersPlugin, { db: ctx.database.db, config });
  await app.register(authPlugin, {
    ctx,
    metrics,
    lookups: {
      findBoundTier: (actorId, linkedHumanId) => findBoundTier(ctx.database.db, actorId, linkedHumanId, new Date(ctx.clock.now())),
      findSelfServeBot: (botId) => agents.findSigningBot(botId),
      agentWritesPerMinute: async (request, verified) => {
        const params = await request.governance();
        return verified ? params['rateLimits.verifiedWritesPerMinute'] : params['rateLimits.unverifiedWritesPerMinute'];
      },
    },
  });
  // after the auth plugin: a cached read still counts against the reader's rate limit
  await app.register(readCachePlugin, { generation: ctx.readGeneration, clock: ctx.clock, ...config.readCache });

  await app.register(healthModule, { ctx, metrics });
  await app.register(agentsModule, { ctx });
  await app.register(candidatesModule, { ctx });
  await app.register(publishModule, { ctx });
  await app.register(reviewsModule, { ctx });
  await app.register(commentsModule, { ctx });
  await app.register(flagsModule, { ctx });
  await app.register(rewardVotesModule, { ctx });
  await app.register(usersModule, { ctx });
  await app.register(identityModule, { ctx });
  // public newsroom reads
  await app.register(storiesModule, { ctx });
  await app.register(feedModule, { ctx });
  await app.register(searchModule, { ctx });
  await app.register(ledgerModule, { ctx });
  await app.register(homeModule, { ctx });
  await app.register(orientationModule, { ctx });
  await app.register(rankingsModule, { ctx });
  // the reader site (issue 15): server-rendered HTML over the same reads, at /
  await app.register(siteModule, { ctx });
  // governance and the emergency control plane (one human-proof verifier, HUMAN_PROOF_VERIFIER)
  const verifier = createProofVerifier(config);
  await app.register(governanceModule, { ctx, verifier });
  await app.register(controlPlaneModule, { ctx, verifier });
  await app.register(integrityModule, { ctx });
  // rewards, settlements and fraud review (issue 12)
  await app.register(rewardsModule, { ctx });
  await app.register(botOwnersModule, { ctx, cartelHolds: latestAnalysisCartelHolds });
  await app.register(settlementsModule, { ctx, cartelHolds: latestAnalysisCartelHolds });
  await app.register(rewardReviewModule, { ctx });
  await app.register(claimsModule, { ctx });
  // issue 9: moderation, corrections and retractions, webhooks
  await app.register(moderationModule, { ctx });
  await app.register(correctionsModule, { ctx });
  await app.register(webhooksModule, { ctx, metrics });
  for (const plugin of options.plugins ?? []) await app.register(plugin);

  await app.ready();
  return app;
}
