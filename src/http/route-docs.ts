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

const ref = (id: string) => ({ $ref: `${id}#` });

/**
 * Every API route documents its security and its error responses from one place, so no route can
 * forget them; a route under the API prefix without `config.auth` fails at start-up.
 */
export function registerRouteDocs(app: FastifyInstance, apiPrefix: string): void {
  app.addHook('onRoute', (route: RouteOptions) => {
    if (!route.url.startsWith(apiPrefix) || route.url.startsWith(`${apiPrefix}/docs`) || route.method === 'HEAD') return;
    const auth = route.config?.auth;
    if (!auth) throw new Error(`route ${String(route.method)} ${route.url} declares no config.auth`);
    const schema = (route.schema ??= {}) as Record<string, unknown> & { response?: Record<string, unknown> };
    const response = (schema.response ??= {});
    schema.security = auth.public ? [] : securityFor(auth);
    const add = (status: string, id: string) => {
      if (!(status in response)) response[status] = ref(id);
    };
    if (!auth.public) {
      add('401', 'UnauthorizedError');
      add('403', 'ForbiddenError');
    }
    if (route.url.includes(':')) add('404', 'NotFoundError');
    if (schema.body || schema.querystring || schema.params) add('422', 'ValidationError');
    add('429', 'MessageError');
    add('5xx', 'ServerError');
  });
}
