/**
 * Typed errors thrown by services. One handler (error-handler.ts) turns them into the bodies
 * fixed by the contract's Errors table; nothing else writes an error body.
 */
export type FieldErrors = Record<string, string[]>;

export abstract class HttpError extends Error {
  abstract readonly statusCode: number;
  headers: Record<string, string> = {};
  abstract body(): Record<string, unknown>;
}

/** 401 `{error}`: no token, or one that is unknown, expired or revoked. */
export class Unauthorized extends HttpError {
  readonly statusCode = 401;
  constructor(message = 'Unauthenticated.') {
    super(message);
  }
  body() {
    return { error: this.message };
  }
}

/** 403 `{message}`: the principal may not do this. */
export class Forbidden extends HttpError {
  readonly statusCode = 403;
  constructor(message = 'This action is unauthorized.') {
    super(message);
  }
  body() {
    return { message: this.message };
  }
}

/** 404 `{message: [..]}`: not found, or another user's or tenant's. */
export class NotFound extends HttpError {
  readonly statusCode = 404;
  constructor(message = 'Resource not found.') {
    super(message);
  }
  body() {
    return { message: [this.message] };
  }
}

/** 422 `{message, errors}`: a parameter is invalid. */
export class ValidationFailed extends HttpError {
  readonly statusCode = 422;
  constructor(
    readonly errors: FieldErrors,
    message?: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message ?? summarise(errors));
  }
  static field(field: string, message: string, extra: Record<string, unknown> = {}): ValidationFailed {
    return new ValidationFailed({ [field]: [message] }, undefined, extra);
  }
  body() {
    return { message: this.message, errors: this.errors, ...this.extra };
  }
}

/**
 * Runs every check and answers one 422 with all their field errors, as a form would, rather than
 * the first; anything but a ValidationFailed goes through as it is.
 */
export async function collectFieldErrors(checks: Array<() => Promise<unknown>>): Promise<void> {
  const errors: FieldErrors = {};
  for (const check of checks) {
    try {
      await check();
    } catch (error) {
      if (!(error instanceof ValidationFailed)) throw error;
      for (const [field, messages] of Object.entries(error.errors)) (errors[field] ??= []).push(...messages);
    }
  }
  if (Object.keys(errors).length > 0) throw new ValidationFailed(errors);
}

/** Laravel's summary: the first message, plus "(and N more errors)". */
function summarise(errors: FieldErrors): string {
  const all = Object.values(errors).flat();
  if (all.length === 0) return 'The given data was invalid.';
  const rest = all.length - 1;
  return rest > 0 ? `${all[0]} (and ${rest} more error${rest > 1 ? 's' : ''})` : all[0];
}

/** Any other 4xx with a plain `{message}` (406, 409, 413, 415, 429). */
export class ClientError extends HttpError {
  constructor(
    readonly statusCode: number,
    message: string,
  ) {
    super(message);
  }
  body() {
    return { message: this.message };
  }
}

/** Something that points at a resource: its type (`ivr_step`, `call_flow`, `phone_number`, ...), id, name, and where. */
export interface Usage {
  type: string;
  id: string;
  name: string;
  path: string | null;
}

/** 409 `{message, used_by}`: the resource is still used and cannot be deleted for good. */
export class InUse extends HttpError {
  readonly statusCode = 409;
  constructor(
    message: string,
    readonly usedBy: Usage[],
  ) {
    super(message);
  }
  body() {
    return { message: this.message, used_by: this.usedBy };
  }
}

export class TooManyRequests extends ClientError {
  constructor(retryAfterSeconds: number, message = 'Too many requests. Please slow down.') {
    super(429, message);
    this.headers['retry-after'] = String(Math.max(1, Math.ceil(retryAfterSeconds)));
  }
}
