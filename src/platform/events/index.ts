/**
 * Live events (issue #37): what domains publish in the transaction of a change, and what the
 * streams and webhook subscriptions read. Domains declare kinds with `defineEventKind` and publish
 * with `ctx.events.publish(trx, ...)`; the streams subscribe with `ctx.events.subscribe` from the
 * point `resumeFrom` gives, and filter each event with `mayReceive`.
 */
export { defineEventKind, eventKind, eventKinds, isEventData, type EventKind, type EventKindDefinition } from './event-kinds.js';
export { mayReceive, type Audience } from './audience.js';
export {
  EVENTS_CHANNEL,
  eventEnvelope,
  eventEnvelopeJson,
  oldestRetainedSeq,
  pruneEvents,
  publishEvent,
  readEvents,
  resumeFrom,
  type EventEnvelope,
  type EventSubject,
  type LiveEvent,
  type PublishInput,
  type PublishOptions,
  type ResumePoint,
} from './event-store.js';
export { EventBus, eventBusFor, type EventBusOptions, type EventListener, type EventSubscription } from './event-bus.js';
