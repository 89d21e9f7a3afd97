import type { FastifyBaseLogger, FastifyServerOptions } from 'fastify';
import type { Bindings, ChildLoggerOptions } from 'fastify/types/logger.js';
import type { Config } from '../config.js';

/** Secrets that must never reach a log line, wherever they appear in a logged object. */
export const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-api-key"]',
  'res.headers["set-cookie"]',
  ...['password', 'token', 'secret', 'voicemail_pin', 'code', 'api_key', 'access_token', 'password_hash'].flatMap((key) => [key, `*.${key}`, `*.*.${key}`]),
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
      req: (request: { method: string; url: string; id: string; ip?: string }) => ({
        method: request.method,
        url: maskUrl(request.url),
        id: request.id,
        ip: request.ip,
      }),
    },
  };
}

type Level = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace';

/**
 * A request's logger that makes its pino child (with the request id bound, which runs redaction)
 * only when a line is written at an enabled level: most requests log nothing below `info`, and
 * then cost nothing here.
 */
class DeferredChildLogger {
  private child_: FastifyBaseLogger | null = null;

  constructor(
    private readonly parent: FastifyBaseLogger,
    private readonly bindings: Bindings,
    private readonly options: ChildLoggerOptions,
  ) {}

  private target(): FastifyBaseLogger {
    return (this.child_ ??= this.parent.child(this.bindings, this.options));
  }

  private write(level: Level, args: unknown[]): void {
    if (!(this.parent as unknown as { isLevelEnabled(level: string): boolean }).isLevelEnabled(level)) return;
    // pino's log methods are overloaded; each takes what the caller handed on, with pino as `this`.
    const target = this.target();
    Reflect.apply(target[level], target, args);
  }

  get level(): string {
    return this.child_?.level ?? this.parent.level;
  }
  set level(level: string) {
    this.target().level = level;
  }
  fatal(...args: unknown[]) {
    this.write('fatal', args);
  }
  error(...args: unknown[]) {
    this.write('error', args);
  }
  warn(...args: unknown[]) {
    this.write('warn', args);
  }
  info(...args: unknown[]) {
    this.write('info', args);
  }
  debug(...args: unknown[]) {
    this.write('debug', args);
  }
  trace(...args: unknown[]) {
    this.write('trace', args);
  }
  silent() {}
  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.target().child(bindings, options);
  }
}

export function deferredChildLogger(logger: FastifyBaseLogger, bindings: Bindings, options: ChildLoggerOptions): FastifyBaseLogger {
  return new DeferredChildLogger(logger, bindings, options);
}
