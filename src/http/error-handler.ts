import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ClientError, HttpError, NotFound, ValidationFailed, type FieldErrors } from '../platform/errors.js';
import { repeatsAnother, validationMessage, validationField, type AjvError } from './validation-messages.js';

/** Fastify's own client errors and the status and message they answer with. */
const FASTIFY_CLIENT_ERRORS: Record<string, [number, string]> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: [415, 'Unsupported media type: send JSON with Content-Type: application/json.'],
  FST_ERR_CTP_INVALID_TYPE: [415, 'Unsupported media type: send JSON with Content-Type: application/json.'],
  FST_ERR_CTP_BODY_TOO_LARGE: [413, 'The request body is too large.'],
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: [400, 'The Content-Length header does not match the body.'],
  FST_ERR_BAD_URL: [400, 'The URL is not valid: its path has a malformed percent-encoding.'],
  FST_ERR_MAX_PARAM_LENGTH: [414, 'A path segment of the URL is too long.'],
};

export function toHttpError(error: FastifyError & { validation?: AjvError[]; validationContext?: string }): HttpError | null {
  if (error instanceof HttpError) return error;
  if (error.validation) {
    const errors: FieldErrors = {};
    const generic: FieldErrors = {};
    for (const item of error.validation) {
      if (repeatsAnother(item, error.validation)) continue;
      const field = validationField(item, error.validationContext);
      const target = item.keyword === 'anyOf' || item.keyword === 'oneOf' ? generic : errors;
      const message = validationMessage(item, field);
      const list = (target[field] ??= []);
      if (!list.includes(message)) list.push(message);
    }
    for (const [field, messages] of Object.entries(generic)) if (!errors[field]) errors[field] = messages;
    return new ValidationFailed(errors);
  }
  if (error.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || error.code === 'FST_ERR_CTP_EMPTY_JSON_BODY' || error instanceof SyntaxError) {
    return ValidationFailed.field('body', 'The request body must be a valid JSON document.');
  }
  const known = error.code ? FASTIFY_CLIENT_ERRORS[error.code] : undefined;
  if (known) return new ClientError(known[0], known[1]);
  if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
    return new ClientError(error.statusCode, error.message);
  }
  return null;
}

/** Where in our code an unexpected error was raised, for non-production 5XX bodies. */
function origin(error: Error): { file: string; line: number } {
  const frame = (error.stack ?? '').split('\n').find((l) => /\((\/|file:).*:\d+:\d+\)$/.test(l) || /at (\/|file:).*:\d+:\d+$/.test(l));
  const match = frame ? /(?:\(|at )((?:file:\/\/)?\/[^():]+):(\d+):\d+\)?$/.exec(frame.trim()) : null;
  return { file: match?.[1] ?? 'unknown', line: match ? Number(match[2]) : 0 };
}

export function registerErrorHandling(app: FastifyInstance, production: boolean): void {
  app.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    const httpError = toHttpError(error);
    if (httpError) {
      if (httpError.statusCode === 429 && !reply.getHeader('retry-after') && !httpError.headers['retry-after']) {
        reply.header('retry-after', '60');
      }
      return reply.code(httpError.statusCode).headers(httpError.headers).send(httpError.body());
    }
    request.log.error({ err: error }, 'unhandled error');
    const body: Record<string, unknown> = { message: 'Server Error' };
    if (!production) Object.assign(body, { exception: error.name || 'Error', ...origin(error), message: error.message || 'Server Error' });
    return reply.code(error.statusCode && error.statusCode >= 500 ? error.statusCode : 500).send(body);
  });
}

/**
 * Fastify's router refuses some URLs before any hook runs (a path that is not valid
 * percent-encoding, a path parameter over maxParamLength) and would answer with a body of its own
 * that echoes the URL: these get the contract's `{message}` too, with the request id and the
 * headers every answer carries.
 */
export function frameworkErrorHandler(headers: ReadonlyArray<readonly [string, string]>) {
  return (error: FastifyError, request: FastifyRequest, reply: FastifyReply): void => {
    const httpError = toHttpError(error) ?? new ClientError(400, 'Bad request.');
    reply.header('x-request-id', request.id);
    for (const [name, value] of headers) reply.header(name, value);
    void reply.code(httpError.statusCode).headers(httpError.headers).send(httpError.body());
  };
}

/** Unknown routes answer 404 `{message: [..]}`, counted by the rate limiter like any request. */
export function registerNotFoundHandler(app: FastifyInstance): void {
  app.setNotFoundHandler((request, reply) => {
    const error = new NotFound(`The route ${request.method} ${request.url.split('?')[0]} could not be found.`);
    return reply.code(404).send(error.body());
  });
}
