import { createRequire } from 'node:module';
import type { FastifyBaseLogger, FastifyServerOptions } from 'fastify';
import type { Bindings, ChildLoggerOptions } from 'fastify/types/logger.js';
import type { Config } from '../config.js';

/** Secrets that must never reach a log line, wherever they appear in a logged object. */
export const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-api-key"]',
  'res.headers["set-cookie"]',
  ...['password', 'token', 'secret', 'voicemail_pin', 'api_key', 'access_token', 'password_hash'].flatMap((key) => [key, `*.${key}`, `*.*.${key}`]),
  // A one-time code where a request's parts carry it; an error's `code` (ECONNREFUSED, 23505) is no secret and stays.
  ...['code', ...['body', 'query', 'params', 'payload'].flatMap((part) => [`${part}.code`, `*.${part}.code`])],
];

/** Query parameter names (letters and digits only, lower case) whose values are secrets, and endings that make a name one. */
const SECRET_PARAMETERS = new Set(['key', 'code', 'sig', 'otp', 'pwd', 'auth', 'authorization', 'jwt', 'session', 'credentials']);
const SECRET_ENDINGS = /(token|secret|password|passwd|signature|apikey|pin)$/;
/** A query that may name one: the words above, or any percent-encoding (which could spell them). */
const MAYBE_SECRET = /token|secret|pass|pwd|sig|key|code|otp|auth|jwt|session|credential|pin|%/i;

/** The name as the server would read it, however often it was percent-encoded (a few rounds at most). */
function decodedName(name: string): string {
  let decoded = name.replace(/\+/g, ' ');
  for (let round = 0; round < 3 && decoded.includes('%'); round++) {
    try {
      decoded = decodeURIComponent(decoded);
    } catch {
      break;
    }
  }
  return decoded.toLowerCase();
}

/** `access_token`, `API-Key`, `auth[password]`, `X-Amz-Signature`: each bracketed part is judged on its own. */
function isSecretParameter(name: string): boolean {
  return decodedName(name)
    .split(/[[\]]/)
    .map((part) => part.replace(/[^a-z0-9]/g, ''))
    .some((part) => SECRET_PARAMETERS.has(part) || SECRET_ENDINGS.test(part));
}

/**
 * What may be logged of a request URL: path segments that are themselves secrets (magic-link
 * tokens) and the values of query parameters that carry one (`?access_token=`, `?code=`, ...) are
 * replaced by [REDACTED]; the names stay, as sent.
 */
export function maskUrl(url: string): string {
  const masked = url.includes('/magic-login/') ? url.replace(/(\/magic-login\/)[^/?#]+/, '$1[REDACTED]') : url;
  const start = masked.indexOf('?');
  if (start === -1 || !MAYBE_SECRET.test(masked.slice(start + 1))) return masked;
  const query = masked
    .slice(start + 1)
    .split('&')
    .map((pair) => {
      const equals = pair.indexOf('=');
      return equals !== -1 && isSecretParameter(pair.slice(0, equals)) ? `${pair.slice(0, equals)}=[REDACTED]` : pair;
    });
  return `${masked.slice(0, start)}?${query.join('&')}`;
}

/** pino-pretty's module path when it is installed (a dev dependency: production images leave it out). */
function prettyTarget(): string | null {
  try {
    return createRequire(import.meta.url).resolve('pino-pretty');
  } catch {
    return null;
  }
}

/**
 * Readable lines for a developer at a terminal, JSON for everything else (collectors, files,
 * containers). `LOG_FORMAT=pretty` without pino-pretty installed is a start-up error, not a
 * silent fallback.
 */
export function logTransport(
  config: Pick<Config, 'logFormat' | 'env'>,
  isTerminal = Boolean(process.stdout.isTTY),
): { target: string; options: object } | undefined {
  const wanted = config.logFormat === 'pretty' || (config.logFormat === 'auto' && config.env === 'development' && isTerminal);
  if (!wanted) return undefined;
  const target = prettyTarget();
  if (!target) {
    if (config.logFormat === 'pretty') throw new Error('LOG_FORMAT=pretty needs pino-pretty (a dev dependency): npm install, or LOG_FORMAT=json');
    return undefined;
  }
  return { target, options: { colorize: isTerminal, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname' } };
}

export function loggerOptions(config: Config): FastifyServerOptions['logger'] {
  const transport = logTransport(config);
  return {
    level: config.logLevel,
    ...(transport ? { transport } : {}),
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
