import type { FastifyInstance } from 'fastify';
import { Type } from '@sinclair/typebox';
import { sql } from 'kysely';
import type { AppContext } from '../../platform/context.js';
import { isFullyMigrated } from '../../db/migrate.js';
import { checkStorage } from '../../platform/storage.js';

const Health = Type.Object({ status: Type.String() });
const Ready = Type.Object({
  status: Type.String(),
  database: Type.String(),
  migrations: Type.String(),
  storage: Type.String({ description: 'ok, not writable, or not shared (DATA_DIR/recordings lacks the marker of this database).' }),
  redis: Type.String({
    description:
      'ok, not configured (no REDIS_URL), or degraded: Redis is down and this instance serves on its fallbacks (its own rate-limit and throttle counters, the database instead of its caches); still ready.',
  }),
});

/**
 * Liveness and readiness, outside the versioned API so orchestrators need no token. A load balancer
 * polls them from one address: they count against no rate limit, and use up nobody's budget.
 */
export async function healthRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }): Promise<void> {
  // Explicit routes, not the helper: they are public probes outside the API (no auth, operation id or tags, hidden from OpenAPI).
  const config = { rateLimit: false as const };
  app.get('/health', { config, schema: { hide: true, response: { 200: Health } } }, async () => ({ status: 'ok' }));

  app.get('/ready', { config, schema: { hide: true, response: { 200: Ready, 503: Ready } } }, async (_request, reply) => {
    const redis = ctx.redis === null ? 'not configured' : ctx.redis.up ? 'ok' : 'degraded';
    try {
      await sql`select 1`.execute(ctx.db);
      const migrated = await isFullyMigrated(ctx.db);
      if (!migrated) return reply.code(503).send({ status: 'not ready', database: 'ok', migrations: 'pending', storage: 'unknown', redis });
      const storage = await checkStorage(ctx.db, ctx.config.dataDir, () => ctx.clock.now().toISOString());
      if (storage !== 'ok') return reply.code(503).send({ status: 'not ready', database: 'ok', migrations: 'ok', storage, redis });
      return { status: 'ready', database: 'ok', migrations: 'ok', storage, redis };
    } catch {
      return reply.code(503).send({ status: 'not ready', database: 'unreachable', migrations: 'unknown', storage: 'unknown', redis });
    }
  });
}
