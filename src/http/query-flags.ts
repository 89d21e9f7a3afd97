import type { FastifyInstance, preValidationHookHandler, RouteOptions } from 'fastify';

/**
 * Boolean query parameters accept `1` and `0` as well as `true` and `false`: PHP's
 * http_build_query, HTML forms and many SDKs send 1/0, and Ajv's coercion knows only true/false.
 * A route gets the hook only when its query string has boolean parameters.
 */
export function registerQueryFlags(app: FastifyInstance, apiPrefix: string): void {
  app.addHook('onRoute', (route: RouteOptions) => {
    if (!route.url.startsWith(apiPrefix)) return;
    const properties = (route.schema?.querystring as { properties?: Record<string, { type?: unknown }> } | undefined)?.properties ?? {};
    const flags = Object.keys(properties).filter((name) => properties[name].type === 'boolean');
    if (flags.length === 0) return;
    const asWords: preValidationHookHandler = (request, _reply, done) => {
      const query = request.query;
      if (isRecord(query)) {
        for (const name of flags) {
          if (query[name] === '1') query[name] = 'true';
          else if (query[name] === '0') query[name] = 'false';
        }
      }
      done();
    };
    route.preValidation = [asWords, ...(route.preValidation ? [route.preValidation].flat() : [])];
  });
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}
