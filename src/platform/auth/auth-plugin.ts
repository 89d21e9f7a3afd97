import fp from 'fastify-plugin';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { Unauthorized } from '../../http/errors.js';
import type { Clock } from '../clock.js';
import { tenantOf, type Tenant } from '../tenancy.js';
import { authenticate, tokenFromHeader } from './authenticate.js';
import { refusal, type Principal, type RouteAuth, type UserPrincipal } from './principal.js';

declare module 'fastify' {
  interface FastifyRequest {
    principal: Principal | null;
  }
  interface FastifyContextConfig {
    auth?: RouteAuth;
  }
}

/**
 * Resolves the principal once per request (onRequest, so rate limits can key on it), then
 * enforces the route's `config.auth` before validation: 401 without a valid token, 403 when the
 * principal kind or scope is not accepted.
 */
export const authPlugin = fp(async (app: FastifyInstance, opts: { db: Kysely<DB>; clock: Clock }) => {
  app.decorateRequest('principal', null);

  app.addHook('onRequest', async (request) => {
    const token = tokenFromHeader(request.headers.authorization);
    if (token) request.principal = await authenticate(opts.db, opts.clock, token);
  });

  app.addHook('preValidation', async (request) => {
    const auth = request.routeOptions.config.auth;
    if (!auth || auth.public) return;
    if (!request.principal) {
      throw new Unauthorized(request.headers.authorization ? 'Invalid or expired token.' : 'Unauthenticated.');
    }
    const denied = refusal(request.principal, auth);
    if (denied) throw denied;
  });
});

export function principalOf(request: FastifyRequest): Principal {
  if (!request.principal) throw new Unauthorized();
  return request.principal;
}

export function userPrincipalOf(request: FastifyRequest): UserPrincipal {
  const principal = principalOf(request);
  if (principal.kind !== 'user') throw new Unauthorized('This endpoint needs a user token.');
  return principal;
}

export function tenantOfRequest(request: FastifyRequest): Tenant {
  return tenantOf(principalOf(request));
}
