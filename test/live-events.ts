/**
 * What the producers' tests check of live events (#37): the events a change stored in the outbox,
 * each of a registered kind with data its schema accepts, and that a change whose transaction
 * fails after its publish leaves no event behind.
 */
import { expect, vi, type MockInstance } from 'vitest';
import type { AppContext } from '../src/platform/context.js';
import { eventKind, isEventData, readEvents, type LiveEvent } from '../src/platform/events/index.js';

/** The tenant's stored events (of the kinds matching `kinds`, a prefix such as `call.`), oldest first, each checked against its kind. */
export async function storedEvents(ctx: AppContext, pbxId: string, kinds = ''): Promise<LiveEvent[]> {
  const events = (await readEvents(ctx.db, pbxId, 0, 10_000)).filter((event) => event.kind.startsWith(kinds));
  for (const event of events) expectValidEvent(event);
  return events;
}

/** The event is of a registered kind, about a subject of its type, with data the kind's schema accepts. */
export function expectValidEvent(event: Pick<LiveEvent, 'kind' | 'subject' | 'data'>): void {
  const kind = eventKind(event.kind);
  expect(kind, `${event.kind} is registered`).toBeDefined();
  expect(event.subject.type).toBe(kind!.subject);
  expect(isEventData(kind!, event.data), `${event.kind} data ${JSON.stringify(event.data)}`).toBe(true);
}

export const WRITE_AFTER_PUBLISH_FAILED = 'a write after the publish point failed';

/**
 * The next publish stores its event, then fails as a write after the publish point would: the
 * change's transaction must roll back with its event. Restore the spy after the change.
 */
export function failAfterNextPublish(ctx: AppContext): MockInstance {
  const publish = ctx.events.publish.bind(ctx.events);
  return vi.spyOn(ctx.events, 'publish').mockImplementationOnce(async (db, input) => {
    await publish(db, input);
    throw new Error(WRITE_AFTER_PUBLISH_FAILED);
  });
}
