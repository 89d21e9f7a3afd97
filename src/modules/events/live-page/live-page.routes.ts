import { readFileSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { helmetHeaders, pageHeaderOptions } from '../../../http/security-headers.js';
import type { AppContext } from '../../../platform/context.js';

/**
 * The page's files, read once at start (a build that lost them fails to start rather than serve a
 * 404): beside this module in src/, and where scripts/bundle.mjs copies them, beside tsc's output
 * and beside the bundle's chunks in dist/bundle/, so this one address finds them everywhere.
 */
const FILES = new URL('./live-page-files/', import.meta.url);

const PAGE = [
  { url: '/live', file: 'index.html', type: 'text/html; charset=utf-8' },
  { url: '/live/app.js', file: 'app.js', type: 'text/javascript; charset=utf-8' },
  { url: '/live/app.css', file: 'app.css', type: 'text/css; charset=utf-8' },
] as const;

/**
 * The live page (`GET /live`): signs in, then shows the tenant's calls and device presence from
 * the event stream, for a wall screen; the working example of the stream for browsers. Its script
 * and stylesheet are files of their own, so its policy can refuse every inline script.
 */
export async function livePageRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }): Promise<void> {
  const headers = helmetHeaders(pageHeaderOptions(ctx.config.baseUrl));
  // The page's policy in place of the API's, which every answer got just before.
  app.addHook('onRequest', (_request, reply, done) => {
    for (const [name, value] of headers) reply.header(name, value);
    done();
  });
  for (const { url, file, type } of PAGE) {
    const body = readFileSync(new URL(file, FILES));
    const mediaType = type.split(';')[0];
    // A page, not an API operation: hidden from the OpenAPI document like the docs page, so not through the route helper.
    app.get(
      url,
      { schema: { hide: true, response: { 200: { content: { [mediaType]: { schema: { type: 'string' } } } } } }, config: { auth: { public: true } } },
      async (request, reply) => {
        // The page names its files relative to itself: `/live/` would look for them under `/live/live/`.
        if (url === '/live' && request.url.split('?')[0].endsWith('/')) return reply.redirect('../live');
        return reply.header('content-type', type).header('cache-control', 'no-cache').send(body);
      },
    );
  }
}
