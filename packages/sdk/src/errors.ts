/**
 * Every answer that is not a success becomes an ApiError: one class per status the contract gives a
 * body of its own, each with that body's type (from the OpenAPI document), so a caller can
 * `instanceof` its way to the fields: `ValidationFailed.errors`, `PreconditionFailed.etag`, ...
 */
import type { components } from './generated/api.js';

type Schemas = components['schemas'];

export class ApiError<Body = unknown> extends Error {
  constructor(
    /** The HTTP status. */
    readonly status: number,
    /** The error body as the server sent it (JSON when it was JSON, else its text). */
    readonly body: Body,
    /** The answer's headers (`x-request-id` names the request in the server's logs). */
    readonly headers: Headers,
    message = describe(status, body),
  ) {
    super(message);
    this.name = new.target.name;
  }

  /** The server's id of the request that failed, for a support ticket. */
  get requestId(): string | undefined {
    return this.headers.get('x-request-id') ?? undefined;
  }
}

/** 401 `{error}`: no token, or one that is unknown, expired or revoked. */
export class Unauthorized extends ApiError<Schemas['UnauthorizedError']> {}

/** 403 `{message}`: the token may not do this. */
export class Forbidden extends ApiError<Schemas['ForbiddenError']> {}

/** 404 `{message: [..]}`: not found, or another user's or another tenant's. */
export class NotFound extends ApiError<Schemas['NotFoundError']> {}

/** 409: conflicts with the current state (a resource still in use lists what uses it). */
export class Conflict extends ApiError<Schemas['MessageError'] | Schemas['InUseError']> {}

/** 412: `If-Match` named a version that is no longer current; `etag` is the current one. */
export class PreconditionFailed extends ApiError<Schemas['MessageError']> {
  /** The resource's current ETag (read it again, or retry with this one if the change still holds). */
  get etag(): string | undefined {
    return this.headers.get('etag') ?? undefined;
  }
}

/** 422 `{message, errors}`: a parameter is invalid; `errors` lists the messages by field as sent. */
export class ValidationFailed extends ApiError<Schemas['ValidationError']> {
  get errors(): Record<string, string[]> {
    return this.body.errors;
  }
}

/** 429 `{message}`: too many requests (the client already waited and retried as often as it was told). */
export class TooManyRequests extends ApiError<Schemas['MessageError']> {
  /** Seconds to wait before trying again, from `Retry-After`. */
  get retryAfter(): number | undefined {
    const ms = retryAfterMs(this.headers.get('retry-after'), Date.now());
    return ms === undefined ? undefined : Math.ceil(ms / 1000);
  }
}

/** 5XX `{message}` (plus exception, file and line outside production). */
export class ServerError extends ApiError<Schemas['ServerError']> {}

/** The typed error for a failed answer and its (already read) body. */
export function apiError(response: Response, body: unknown): ApiError {
  const { status, headers } = response;
  const as = <B>(Kind: new (status: number, body: B, headers: Headers) => ApiError<B>) => new Kind(status, body as B, headers);
  switch (status) {
    case 401:
      return as(Unauthorized);
    case 403:
      return as(Forbidden);
    case 404:
      return as(NotFound);
    case 409:
      return as(Conflict);
    case 412:
      return as(PreconditionFailed);
    case 422:
      return as(ValidationFailed);
    case 429:
      return as(TooManyRequests);
  }
  // 502-504 carry `{status: "error", message}`: the PBX's answer; other 5XX the server's own.
  return status >= 500 && ![502, 503, 504].includes(status) ? as(ServerError) : new ApiError(status, body, headers);
}

/** Milliseconds a `Retry-After` value asks to wait (seconds, or an HTTP date), or undefined when unreadable. */
export function retryAfterMs(value: string | null, now: number): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

function describe(status: number, body: unknown): string {
  if (body && typeof body === 'object') {
    const { message, error } = body as { message?: unknown; error?: unknown };
    const text = Array.isArray(message) ? message.join(' ') : (message ?? error);
    if (typeof text === 'string') return `${status}: ${text}`;
  }
  return typeof body === 'string' && body ? `${status}: ${body.slice(0, 200)}` : `HTTP ${status}`;
}
