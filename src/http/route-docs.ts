import type { FastifyInstance, RouteOptions } from 'fastify';
import type { RouteAuth } from '../platform/auth/principal.js';

/** OpenAPI security requirement for each way a route may be called. */
export function securityFor(auth: RouteAuth): Array<Record<string, string[]>> {
  const schemes: Array<Record<string, string[]>> = [];
  if (auth.user) schemes.push({ bearerAuth: [] });
  if (auth.pbx) schemes.push({ PbxApiKey: [] });
  if (auth.integration) schemes.push({ IntegrationApiKey: [...auth.integration] });
  if (auth.internal) schemes.push({ ApiKeyAuth: [] });
  if (auth.pbxServer) schemes.push({ PbxServerAuth: [] });
  return schemes;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Error statuses a route answers beyond those its auth, params and body imply (a public login's 401 and 403). */
    answers?: readonly ErrorStatus[];
  }
}

/** The contract's error bodies, by status. */
const ERROR_BODIES = { 401: 'UnauthorizedError', 403: 'ForbiddenError', 404: 'NotFoundError', 422: 'ValidationError', 429: 'MessageError' } as const;
export type ErrorStatus = keyof typeof ERROR_BODIES;

const ref = (id: string) => ({ $ref: `${id}#` });

const AUTH_OF_ROUTES = new WeakMap<FastifyInstance, ReadonlyMap<string, RouteAuth>>();

/**
 * Who may call each API route (`"GET /api/v1/users/:user/dnds"` -> its `config.auth`), for the
 * README's endpoint tables: the OpenAPI document names the schemes but not "administrators only".
 */
export function authOfRoutes(app: FastifyInstance): ReadonlyMap<string, RouteAuth> {
  return AUTH_OF_ROUTES.get(app) ?? new Map();
}

/**
 * Every API route documents its security and its error responses from one place, so no route can
 * forget them; a route under the API prefix without `config.auth` fails at start-up.
 */
export function registerRouteDocs(app: FastifyInstance, apiPrefix: string): void {
  const auths = new Map<string, RouteAuth>();
  AUTH_OF_ROUTES.set(app, auths);
  app.addHook('onRoute', (route: RouteOptions) => {
    if (!route.url.startsWith(apiPrefix) || route.url.startsWith(`${apiPrefix}/docs`) || route.method === 'HEAD') return;
    const config = route.config;
    const auth = config?.auth;
    if (!auth) throw new Error(`route ${String(route.method)} ${route.url} declares no config.auth`);
    for (const method of [route.method].flat()) auths.set(`${method} ${route.url}`, auth);
    const schema = (route.schema ??= {}) as Record<string, unknown> & { response?: Record<string, unknown> };
    const response = (schema.response ??= {});
    schema.security = auth.public ? [] : securityFor(auth);
    const add = (status: ErrorStatus) => {
      if (!(status in response)) response[status] = ref(ERROR_BODIES[status]);
    };
    if (!auth.public) {
      add(401);
      add(403);
    }
    if (route.url.includes(':')) add(404);
    if (schema.body || schema.querystring || schema.params) add(422);
    for (const status of config.answers ?? []) add(status);
    add(429);
    if (!('5xx' in response)) response['5xx'] = ref('ServerError');
  });
}
