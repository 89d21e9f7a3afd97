import type { FastifyServerOptions } from 'fastify';
import type { Config } from '../config.js';

/** Secrets that must never reach a log line, wherever they appear in a logged object. */
export const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-api-key"]',
  'res.headers["set-cookie"]',
  ...['password', 'token', 'secret', 'voicemail_pin', 'code', 'api_key', 'access_token', 'password_hash'].flatMap((key) => [
    key,
    `*.${key}`,
    `*.*.${key}`,
  ]),
];

/** Path segments that are themselves secrets (magic-link tokens) are masked in logged URLs. */
export function maskUrl(url: string): string {
  return url.replace(/(\/magic-login\/)[^/?#]+/, '$1[REDACTED]');
}

export function loggerOptions(config: Config): FastifyServerOptions['logger'] {
  return {
    level: config.logLevel,
    redact: { paths: REDACTED_PATHS, censor: '[REDACTED]' },
    serializers: {
      req: (request: { method: string; url: string; id: string; ip?: string }) => ({ method: request.method, url: maskUrl(request.url), id: request.id, ip: request.ip }),
    },
  };
}
