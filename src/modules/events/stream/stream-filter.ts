import type { Principal } from '../../../platform/auth/principal.js';
import { ValidationFailed, type FieldErrors } from '../../../platform/errors.js';
import { eventKind, eventKinds, mayReceive, type EventSubject, type LiveEvent } from '../../../platform/events/index.js';
import { anyKindMatches, unknownKindPatterns } from '../../../platform/events/kind-patterns.js';

/** What a client asked to receive: some kinds, one subject, or (null) all. */
export interface StreamFilter {
  kinds: readonly string[] | null;
  subject: EventSubject | null;
}

/**
 * The filter a stream's `kinds` and `subject` ask for (their shape is the query schema's): 422
 * naming the patterns that select no kind, or a subject type that no kind is about, since such a
 * stream would wait forever for nothing.
 */
export function streamFilter(kinds: string | undefined, subject: string | undefined): StreamFilter {
  const errors: FieldErrors = {};
  const patterns = kinds === undefined ? null : [...new Set(kinds.split(','))];
  const unknown = patterns ? unknownKindPatterns(patterns) : [];
  if (unknown.length > 0) errors.kinds = [`No event kind is called ${unknown.join(', ')}.`];
  let about: EventSubject | null = null;
  if (subject !== undefined) {
    const colon = subject.indexOf(':');
    about = { type: subject.slice(0, colon), id: subject.slice(colon + 1) };
    if (!eventKinds().some((kind) => kind.subject === about!.type)) errors.subject = [`No event kind is about a ${about.type}.`];
  }
  if (Object.keys(errors).length > 0) throw new ValidationFailed(errors);
  return { kinds: patterns, subject: about };
}

/**
 * Whether `principal` gets `event` on a stream with `filter`: what it asked for, and what it may
 * receive (`mayReceive`, the rule webhook subscriptions share). A kind this instance does not know
 * (published by a newer version) is not sent: nothing says who may receive it.
 */
export function streamWants(principal: Principal, filter: StreamFilter, event: LiveEvent): boolean {
  if (filter.kinds && !anyKindMatches(filter.kinds, event.kind)) return false;
  if (filter.subject && (event.subject.type !== filter.subject.type || event.subject.id !== filter.subject.id)) return false;
  const kind = eventKind(event.kind);
  return kind !== undefined && mayReceive(principal, event, kind);
}
