import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';

type Headers = ReadonlyArray<readonly [string, string]>;

/**
 * The headers a helmet configuration writes, computed once. With no per-request directive (no
 * nonces) helmet writes the same headers on every response, and @fastify/helmet would rebuild
 * its middleware from the options on each request (measured 2-2.7 µs, against 0.4 for a built
 * one), which the hottest reads (`/me`) would pay for nothing.
 */
export function helmetHeaders(options: HelmetOptions): Headers {
  const headers: Array<[string, string]> = [];
  const response = {
    setHeader: (name: string, value: string | number) => headers.push([name.toLowerCase(), String(value)]),
    removeHeader: () => undefined,
  };
  // helmet throws on bad options; the callback only continues the chain.
  helmet(options)({} as IncomingMessage, response as unknown as ServerResponse, () => undefined);
  return headers;
}

/** HSTS only where clients reach the service over TLS (BASE_URL https, TLS ending at a proxy): a year, this host only. */
function transportSecurity(baseUrl: string): HelmetOptions['strictTransportSecurity'] {
  return baseUrl.startsWith('https://') ? { maxAge: 31_536_000, includeSubDomains: false, preload: false } : false;
}

/**
 * JSON answers: never sniffed as something else, never framed, no referrer, and a CSP that lets
 * nothing load or run should one be opened as a page. Headers that only matter to HTML documents
 * (COOP, Origin-Agent-Cluster, DNS prefetch) or to retired clients (X-XSS-Protection,
 * X-Download-Options, X-Permitted-Cross-Domain-Policies) are left out: each costs every response a header.
 */
export function apiHeaderOptions(baseUrl: string): HelmetOptions {
  return {
    contentSecurityPolicy: { useDefaults: false, directives: { 'default-src': ["'none'"], 'frame-ancestors': ["'none'"] } },
    crossOriginOpenerPolicy: false,
    crossOriginResourcePolicy: { policy: 'same-origin' },
    originAgentCluster: false,
    referrerPolicy: { policy: 'no-referrer' },
    strictTransportSecurity: transportSecurity(baseUrl),
    xDnsPrefetchControl: false,
    xDownloadOptions: false,
    xFrameOptions: { action: 'deny' },
    xPermittedCrossDomainPolicies: false,
    xXssProtection: false,
  };
}

/**
 * The one inline style Swagger UI (5.x, in @fastify/swagger-ui) renders: the `<style>` inside its
 * small SVG logo. Allowed by its digest, so the page needs no 'unsafe-inline'; should a later
 * version change it, only that logo's colours are lost.
 */
const SWAGGER_UI_LOGO_STYLE = "'sha256-RL3ie0nH+Lzz2YNqQN83mnU0J1ot4QL7b99vMdIX99w='";

/**
 * A page of this service: its own scripts and styles only (no inline script; styles it sets
 * through the DOM are not governed by CSP) and the inline styles named by digest, its images and
 * fonts (some inlined as data: URLs), requests to this origin and to the API's, never framed, no
 * form sent anywhere (a page signs in with fetch; a form submitted without its script would put
 * what was typed in a URL).
 */
export function pageHeaderOptions(baseUrl: string, inlineStyles: string[] = []): HelmetOptions {
  const apiOrigin = new URL(baseUrl).origin;
  return {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        'default-src': ["'none'"],
        'base-uri': ["'none'"],
        'script-src': ["'self'"],
        'style-src': ["'self'", ...inlineStyles],
        'img-src': ["'self'", 'data:'],
        'font-src': ["'self'", 'data:'],
        'connect-src': ["'self'", apiOrigin],
        'form-action': ["'none'"],
        'frame-ancestors': ["'none'"],
        'object-src': ["'none'"],
        ...(baseUrl.startsWith('https://') ? { 'upgrade-insecure-requests': [] } : {}),
      },
    },
    crossOriginResourcePolicy: { policy: 'same-origin' },
    referrerPolicy: { policy: 'no-referrer' },
    strictTransportSecurity: transportSecurity(baseUrl),
    xFrameOptions: { action: 'deny' },
    xXssProtection: false,
  };
}

/** The Swagger UI page: a page's policy, with its logo's inline style ("Try it out" calls the API's origin). */
export function docsHeaderOptions(baseUrl: string): HelmetOptions {
  return pageHeaderOptions(baseUrl, [SWAGGER_UI_LOGO_STYLE]);
}

/**
 * Security headers on every answer, errors and unknown routes included (set on request, before
 * anything can refuse it): the API's set, or the docs page's under `docsPrefix`.
 */
export function registerSecurityHeaders(app: FastifyInstance, options: { baseUrl: string; docsPrefix: string }): void {
  const api = helmetHeaders(apiHeaderOptions(options.baseUrl));
  const docs = helmetHeaders(docsHeaderOptions(options.baseUrl));
  app.addHook('onRequest', (request, reply, done) => {
    const route = request.routeOptions.url;
    const headers = route !== undefined && (route === options.docsPrefix || route.startsWith(`${options.docsPrefix}/`)) ? docs : api;
    for (const [name, value] of headers) reply.header(name, value);
    done();
  });
}
