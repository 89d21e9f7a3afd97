import type { FastifyInstance } from 'fastify';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The answer carries a token or secret (a sign-in token, an API key, a signing secret, SIP or WebRTC credentials). */
    carriesSecret?: boolean;
  }
}

/**
 * `Cache-Control: no-store` on every answer of a route that carries a token or secret
 * (`config.carriesSecret`, public sign-in routes included) and of every route that needs
 * credentials: what a principal reads is its tenant's private data, which no browser or proxy
 * cache should keep. Public documents (the OpenAPI document, the docs page, health) stay cacheable.
 * Set on request, so refusals and errors of those routes carry it too.
 */
export function registerCacheControl(app: FastifyInstance): void {
  app.addHook('onRequest', (request, reply, done) => {
    const config = request.routeOptions.config;
    if (config.carriesSecret === true || (config.auth !== undefined && config.auth.public !== true)) reply.header('cache-control', 'no-store');
    done();
  });
}
