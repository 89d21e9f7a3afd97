import fp from 'fastify-plugin';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Unauthorized } from '../errors.js';
import type { AppContext } from '../context.js';
import { tenantInPath } from '../tenancy.js';
import { Authenticator, tokenFromHeader } from './authenticate.js';
import { refusal, type Principal, type RouteAuth } from './principal.js';

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
 * principal kind or scope is not accepted, or the path names another PBX. Callback-style hooks: a cached token costs no promise.
 */
export const authPlugin = fp(async (app: FastifyInstance, opts: { ctx: Pick<AppContext, 'db' | 'changes' | 'config' | 'clock'> }) => {
  const authenticator = new Authenticator(opts.ctx);
  app.decorateRequest('principal', null);

  app.addHook('onRequest', (request, _reply, done) => {
    const token = tokenFromHeader(request.headers.authorization);
    if (!token) return done();
    const resolved = authenticator.resolve(token);
    if (!(resolved instanceof Promise)) {
      settle(request, resolved);
      return done();
    }
    resolved.then((principal) => {
      settle(request, principal);
      done();
    }, done);
  });

  app.addHook('preValidation', (request, _reply, done) => {
    const auth = request.routeOptions.config.auth;
    if (!auth || auth.public) return done();
    if (!request.principal) {
      return done(new Unauthorized(request.headers.authorization ? 'Invalid or expired token.' : 'Unauthenticated.'));
    }
    const refused = refusal(request.principal, auth);
    if (refused) return done(refused);
    // A path naming its PBX (`/:pbx_id/...`) must name the caller's: 403 before the input is validated or anything looked up.
    const pathPbxId = (request.params as { pbx_id?: string } | undefined)?.pbx_id;
    if (pathPbxId !== undefined) {
      try {
        tenantInPath(request.principal, pathPbxId);
      } catch (error) {
        return done(error as Error);
      }
    }
    done();
  });
});

function settle(request: FastifyRequest, principal: Principal | null): void {
  request.principal = principal;
  // A key that reaches every PBX leaves a trace of each use: which key (never its token), and where.
  if (principal?.kind === 'internal' && principal.pbxId === null) {
    request.log.info({ api_key_id: principal.id, method: request.method, route: request.routeOptions.url ?? null }, 'operator-wide internal API key used');
  }
}

export function principalOf(request: FastifyRequest): Principal {
  if (!request.principal) throw new Unauthorized();
  return request.principal;
}
