/**
 * Identity: who is calling. Login (password, magic link, one-time code), logout, and the caller's
 * own profile (`/me`, `/user`). Tokens, API keys and principals themselves live in platform/auth.
 */
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../platform/context.js';
import { authRoutes } from './auth/auth.routes.js';
import { meRoutes } from './me/me.routes.js';

export async function identityRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }): Promise<void> {
  await app.register(authRoutes, { ctx });
  await app.register(meRoutes, { ctx });
}
