/**
 * Identity: who is calling. Login (password, magic link, one-time code), logout, and the caller's
 * own profile (`/me`, `/user`). Tokens, API keys and principals themselves live in platform/auth.
 */
import type { RoutePlugin } from '../../platform/context.js';
import { authRoutes } from './auth/auth.routes.js';
import { meRoutes } from './me/me.routes.js';

/** Each resource's routes, registered by modules/index.ts under the API prefix. */
export const identityRoutes: RoutePlugin[] = [authRoutes, meRoutes];
