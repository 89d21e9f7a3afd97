import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { join } from 'node:path';
import type { Config } from './config.js';
import type { Database } from './db/database.js';
import { frameworkErrorHandler, registerErrorHandling, registerNotFoundHandler } from './http/error-handler.js';
import { registerRateLimits } from './http/rate-limit.js';
import { registerQueryFlags } from './http/query-flags.js';
import { registerQueryRules } from './http/query-rules.js';
import { registerRouteDocs } from './http/route-docs.js';
import { registerConditionalRequests } from './http/conditional-requests.js';
import { registerAcceptCheck, registerContentRules } from './http/content.js';
import { registerOpenApi } from './http/openapi.js';
import { apiHeaderOptions, helmetHeaders, registerSecurityHeaders } from './http/security-headers.js';
import { registerCacheControl } from './http/cache-control.js';
import { registerCors } from './http/cors.js';
import { SHARED_SCHEMAS } from './http/schema.js';
import { buildValidator } from './http/validator.js';
import { buildSerializer } from './http/serializer.js';
import { authPlugin } from './platform/auth/auth-plugin.js';
import { systemClock, type Clock } from './platform/clock.js';
import type { AppContext } from './platform/context.js';
import { SecretBox } from './platform/crypto.js';
import { ChangeTracker } from './platform/cache/change-tracker.js';
import { changeChannel, connectChangeBroadcast } from './platform/cache/change-broadcast.js';
import { registerChangeTracking } from './platform/cache/track-changes.js';
import { SharedVersions } from './platform/cache/shared-versions.js';
import { deferredChildLogger, loggerOptions } from './platform/logging.js';
import { createMailer, type Mailer } from './platform/mail/mailer.js';
import { registerMetrics, type MountMetrics } from './platform/metrics.js';
import { MemoryCounterStore, SharedCounterStore } from './platform/throttle.js';
import { SharedRedis } from './platform/redis.js';
import { registerModules } from './modules/index.js';
import { JobWorker } from './platform/jobs/jobs.js';
import { eventBusFor } from './platform/events/event-bus.js';
import { WebhookDispatcher } from './platform/webhooks/subscription-dispatch.js';
import { purgeExpiredKeys } from './platform/idempotency/idempotency.js';

export const API_PREFIX = '/api/v1';

export interface BuildOptions {
  config: Config;
  database: Database;
  clock?: Clock;
  mailer?: Mailer;
  /** Overrides the pino options (tests pass a stream to read the log). */
  logger?: FastifyServerOptions['logger'];
}

export type App = FastifyInstance & {
  ctx: AppContext;
  /** The listener of its own that serves `/metrics` when METRICS_LISTEN is set; the server starts it. */
  metricsServer: FastifyInstance | null;
};

/** The whole service as one Fastify instance; the server and the tests both build it here. */
export async function buildApp(options: BuildOptions): Promise<App> {
  const { config, database } = options;
  const clock = options.clock ?? systemClock;
  // Redis failing later never fails a request (platform/redis.ts); unreachable at start, the start fails naming REDIS_URL.
  const redis = config.redisUrl ? new SharedRedis(config.redisUrl, { warn: (o, m) => app.log.warn(o, m), info: (o, m) => app.log.info(o, m) }) : null;
  await redis?.connect();
  const ctx: AppContext = {
    config,
    db: database.db,
    dialect: database.dialect,
    clock,
    mailer: options.mailer ?? createMailer({ smtpUrl: config.smtpUrl, from: config.mailFrom, outboxDir: join(config.dataDir, 'outbox') }),
    secrets: new SecretBox(config.secretKey),
    counters: redis ? new SharedCounterStore(redis, `${config.redisKeyPrefix}throttle:`, new MemoryCounterStore(clock)) : new MemoryCounterStore(clock),
    redis,
    changes: new ChangeTracker(),
    events: eventBusFor(config, database, clock, { warn: (o, m) => app.log.warn(o, m), info: (o, m) => app.log.info(o, m) }),
  };

  const app = Fastify({
    logger: options.logger ?? loggerOptions(config),
    bodyLimit: config.bodyLimitBytes,
    trustProxy: config.trustProxy,
    requestIdHeader: false,
    childLoggerFactory: deferredChildLogger,
    genReqId: (request) => {
      const incoming = request.headers['x-request-id'];
      return typeof incoming === 'string' && /^[A-Za-z0-9._:-]{8,64}$/.test(incoming) ? incoming : randomUUID();
    },
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 200 },
    frameworkErrors: frameworkErrorHandler(helmetHeaders(apiHeaderOptions(config.baseUrl))),
    schemaController: { compilersFactory: { buildValidator: buildValidator as never, buildSerializer: buildSerializer as never } },
  }).withTypeProvider<TypeBoxTypeProvider>() as unknown as App;

  app.decorate('ctx', ctx);
  for (const schema of SHARED_SCHEMAS) app.addSchema(schema);
  registerErrorHandling(app, config.env === 'production');
  // Before the route docs, which document a 422 wherever the query string is checked.
  registerQueryRules(app, API_PREFIX);
  registerRouteDocs(app, API_PREFIX);
  registerConditionalRequests(app, { apiPrefix: API_PREFIX, db: ctx.db, clock: ctx.clock });
  registerContentRules(app);
  registerSecurityHeaders(app, { baseUrl: config.baseUrl, docsPrefix: `${API_PREFIX}/docs` });
  registerCacheControl(app);
  registerQueryFlags(app, API_PREFIX);
  const mountMetrics = registerMetrics(app, { token: config.metricsToken });
  redis?.registerMetrics(app.metricsRegistry);
  const metricsServer = config.metricsListen ? buildMetricsServer(app, config, mountMetrics) : null;
  // Beside the API unless it has a listener of its own; in production only behind METRICS_TOKEN.
  if (!metricsServer && (config.metricsToken !== null || config.env !== 'production')) mountMetrics(app);
  app.decorate('metricsServer', metricsServer);
  await registerOpenApi(app, config, API_PREFIX);
  await registerCors(app, { origins: config.corsOrigins, credentials: config.corsCredentials });
  await app.register(authPlugin, { ctx });
  registerChangeTracking(app, ctx.changes);
  const stopBroadcast = redis ? await connectChangeBroadcast(ctx.changes, redis, changeChannel(config.redisKeyPrefix), app.log) : null;
  if (redis) ctx.changes.shared = new SharedVersions(redis, config.redisKeyPrefix, ctx.changes);
  registerRateLimits(app, { perMinute: config.rateLimitPerMinute, redis, keyPrefix: `${config.redisKeyPrefix}rate:` });
  registerAcceptCheck(app, API_PREFIX);
  registerNotFoundHandler(app);
  await app.register(registerModules, { ctx, apiPrefix: API_PREFIX });

  // Durable background jobs (imports, webhook deliveries), run once the app is ready.
  const jobs = new JobWorker(ctx, { pollIntervalMs: config.jobPollIntervalMs, leaseSeconds: config.jobLeaseSeconds, log: app.log });
  app.decorate('jobs', jobs);
  if (config.jobWorkerEnabled) app.addHook('onReady', async () => jobs.start());
  // Pruning is background work too: done by the instances that run it (live events past their
  // retention, and on the same timer the Idempotency-Keys past their 24 hours).
  if (config.jobWorkerEnabled) app.addHook('onReady', async () => ctx.events.startPruning([() => purgeExpiredKeys(ctx.db, clock)]));
  // So is turning committed events into webhook subscriptions' deliveries.
  const webhookDispatcher = new WebhookDispatcher(ctx, { log: app.log });
  app.decorate('webhookDispatcher', webhookDispatcher);
  if (config.jobWorkerEnabled) app.addHook('onReady', async () => webhookDispatcher.start());

  app.addHook('onClose', async () => {
    await jobs.stop();
    await webhookDispatcher.close();
    await ctx.events.close();
    await stopBroadcast?.();
    ctx.mailer.close();
    await metricsServer?.close();
    await redis?.close();
  });
  return app;
}

/** `/metrics` alone, with the API's error bodies, on the address METRICS_LISTEN names (a network scrapers reach, users do not). */
function buildMetricsServer(app: FastifyInstance, config: Config, mountMetrics: MountMetrics): FastifyInstance {
  const server = Fastify({ loggerInstance: app.log.child({ listener: 'metrics' }), trustProxy: config.trustProxy });
  registerErrorHandling(server, config.env === 'production');
  registerNotFoundHandler(server);
  mountMetrics(server);
  return server;
}
