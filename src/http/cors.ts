import cors from '@fastify/cors';
import type { FastifyInstance } from 'fastify';

/** What the API's own web pages may send: their token, JSON, a request id, an idempotency key, a byte range of a recording, preconditions. */
export const CORS_REQUEST_HEADERS = ['Authorization', 'Content-Type', 'Accept', 'X-Request-Id', 'Idempotency-Key', 'Range', 'If-Match', 'If-None-Match'];

/** What their scripts may read beyond the CORS-safelisted headers: rate limits, request ids, ETags, and what downloads and replays say. */
export const CORS_EXPOSED_HEADERS = [
  'X-RateLimit-Limit',
  'X-RateLimit-Remaining',
  'X-RateLimit-Reset',
  'RateLimit',
  'RateLimit-Policy',
  'Retry-After',
  'X-Request-Id',
  'Idempotent-Replayed',
  'ETag',
  'Location',
  'Link',
  'Content-Disposition',
  'Content-Range',
  'Accept-Ranges',
];

/** How long a browser may reuse a preflight's answer (Chromium keeps it two hours at most). */
const PREFLIGHT_MAX_AGE_SECONDS = 600;

/**
 * Cross-origin calls from the listed web origins (CORS_ORIGINS; none: CORS off, no header
 * added). Register before the token, rate-limit and `accept` hooks: a preflight is answered 204
 * from its own hook, before anything asks it for a token or counts it (browsers send one per URL
 * and method, which would drain a shared address's budget). A request from any other origin gets
 * no CORS header, so the browser keeps the answer from the page; its preflight is an unknown route
 * (404). Credentials (cookies) only with CORS_CREDENTIALS: bearer tokens need none.
 */
export async function registerCors(app: FastifyInstance, options: { origins: readonly string[]; credentials: boolean }): Promise<void> {
  if (options.origins.length === 0) return;
  const allowed = new Set(options.origins);
  await app.register(cors, {
    origin: (origin, callback) => callback(null, origin !== undefined && allowed.has(origin)),
    credentials: options.credentials,
    methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
    allowedHeaders: CORS_REQUEST_HEADERS,
    exposedHeaders: CORS_EXPOSED_HEADERS,
    maxAge: PREFLIGHT_MAX_AGE_SECONDS,
    // An OPTIONS request from an allowed origin without Access-Control-Request-Method is answered
    // like a preflight rather than with the plugin's own text/plain 400.
    strictPreflight: false,
  });
}
