import type { FastifyReply } from 'fastify';
import { setRateLimitHeaders } from '../../../http/rate-limit.js';
import { TooManyRequests } from '../../../platform/errors.js';

/** The contract's limit: one push a minute per PBX. */
export const PUSH_INTERVAL_SECONDS = 60;
const PUSHES_PER_INTERVAL = 1;

/** The push gate's refusal: the PBX was pushed less than a minute ago (429, Retry-After the seconds left). */
export class PushTooSoon extends TooManyRequests {
  readonly secondsLeft: number;
  constructor(secondsLeft: number) {
    super(secondsLeft, 'The configuration of this PBX may be pushed once a minute. Please retry later.');
    this.secondsLeft = Number(this.headers['retry-after']);
  }
}

/**
 * Runs a push (or a rollback) and answers with the push limit's own rate-limit headers, as a
 * route's own limit does (the call detail's, http/rate-limit.ts): the gate is counted per PBX in
 * the push's transaction, not by the request counter, so the general budget's headers, set when
 * the request arrived, are replaced here. A push that passed leaves none for a minute; the gate's
 * 429 tells the seconds left. Other answers (a dry run, a 422) keep the general budget's.
 */
export async function underPushLimit<T>(reply: FastifyReply, push: () => Promise<T>): Promise<T> {
  try {
    const pushed = await push();
    setRateLimitHeaders(reply, PUSHES_PER_INTERVAL, 0, PUSH_INTERVAL_SECONDS, PUSH_INTERVAL_SECONDS);
    return pushed;
  } catch (error) {
    if (error instanceof PushTooSoon) setRateLimitHeaders(reply, PUSHES_PER_INTERVAL, 0, error.secondsLeft, PUSH_INTERVAL_SECONDS);
    throw error;
  }
}

/** A push's 202, described with the push limit's headers it carries. */
export const PUSH_ACCEPTED_DESCRIPTION = `Accepted; the delivery goes on in the background. The rate-limit headers are the push limit's: X-RateLimit-Limit 1, X-RateLimit-Remaining 0, X-RateLimit-Reset ${PUSH_INTERVAL_SECONDS} (seconds until the PBX may be pushed again).`;

/**
 * The 429 of a push, described with the push limit's headers (the general budget's 429 can
 * answer here too, with that budget's headers).
 */
export const PUSH_TOO_SOON_RESPONSE = {
  description:
    "One push a minute per PBX (a rollback counts as one, a dry run does not): the PBX was pushed less than a minute ago. The rate-limit headers are the push limit's: X-RateLimit-Limit 1, X-RateLimit-Remaining 0, X-RateLimit-Reset and Retry-After the seconds until the PBX may be pushed again. A caller whose general budget is spent gets that budget's 429 and headers instead.",
  $ref: 'MessageError#',
};
