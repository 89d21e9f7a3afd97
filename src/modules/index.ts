import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../platform/context.js';
import { healthRoutes } from './health/health.routes.js';
import { authRoutes } from './auth/auth.routes.js';
import { meRoutes } from './me/me.routes.js';
import { apiKeyRoutes } from './api-keys/api-keys.routes.js';

/** Every domain module, mounted under the API prefix (health and metrics stay at the root). */
const API_MODULES = [authRoutes, meRoutes, apiKeyRoutes];

export async function registerModules(app: FastifyInstance, { ctx, apiPrefix }: { ctx: AppContext; apiPrefix: string }): Promise<void> {
  await app.register(healthRoutes, { ctx });
  for (const module of API_MODULES) await app.register(module, { ctx, prefix: apiPrefix });
}
