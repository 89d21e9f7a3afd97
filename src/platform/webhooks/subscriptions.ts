import { randomUUID } from 'node:crypto';
import type { Selectable } from 'kysely';
import type { Executor } from '../../db/database.js';
import type { Principal } from '../auth/principal.js';
import type { Clock } from '../clock.js';
import { mayReceive, resumeFrom, type EventKind, type LiveEvent } from '../events/index.js';
import { anyKindMatches } from '../events/kind-patterns.js';
import type { SubscriptionPayload, WebhookSubscriptionTable } from './webhooks.tables.js';

export type WebhookSubscriptionRow = Selectable<WebhookSubscriptionTable>;

export interface NewWebhookSubscription {
  pbxId: string;
  /** The owner: the subscription receives what this user may receive. */
  userId: string;
  url: string;
  kinds: readonly string[];
  subjectType?: string | null;
  subjectId?: string | null;
  description?: string | null;
  /** What a message's `data` is (default: the event's envelope). */
  payload?: SubscriptionPayload;
  /** The record that makes it and alone manages it (internal: not seen through `/webhook-subscriptions`). */
  owner?: SubscriptionOwner;
}

/** A record that owns internal subscriptions, e.g. `{kind: 'contact_import', id}`. */
export interface SubscriptionOwner {
  kind: string;
  id: string;
}

/**
 * The number a subscription starts after: the tenant's newest committed event. The tenant's
 * dispatch cursor is created there if it has none yet; an existing one stays where it is, since
 * other subscriptions may still wait for events before it (this one skips them by `after_seq`).
 */
export async function subscriptionStart(db: Executor, pbxId: string): Promise<number> {
  const { afterSeq } = await resumeFrom(db, pbxId, null);
  await db
    .insertInto('webhook_dispatch_cursors')
    .values({ pbx_id: pbxId, last_seq: afterSeq })
    .onConflict((oc) => oc.column('pbx_id').doNothing())
    .execute();
  return afterSeq;
}

/** Stores a subscription, active, receiving the events committed from now on. */
export async function insertWebhookSubscription(db: Executor, clock: Clock, input: NewWebhookSubscription): Promise<WebhookSubscriptionRow> {
  const now = clock.now().toISOString();
  const row: WebhookSubscriptionRow = {
    id: randomUUID(),
    pbx_id: input.pbxId,
    user_id: input.userId,
    url: input.url,
    kinds: JSON.stringify(input.kinds),
    subject_type: input.subjectType ?? null,
    subject_id: input.subjectId ?? null,
    description: input.description ?? null,
    active: 1,
    after_seq: await subscriptionStart(db, input.pbxId),
    payload: input.payload ?? 'envelope',
    owner_kind: input.owner?.kind ?? null,
    owner_id: input.owner?.id ?? null,
    created_at: now,
    updated_at: now,
  };
  await db.insertInto('webhook_subscriptions').values(row).execute();
  return row;
}

/** Removes the subscriptions a record made; call it in the transaction that removes the record. */
export async function removeOwnedSubscriptions(db: Executor, pbxId: string, owner: SubscriptionOwner): Promise<void> {
  await db.deleteFrom('webhook_subscriptions').where('pbx_id', '=', pbxId).where('owner_kind', '=', owner.kind).where('owner_id', '=', owner.id).execute();
}

/** An active subscription as the dispatch reads it: with its owner's account, to decide as that owner. */
export interface SubscriptionWithOwner {
  id: string;
  url: string;
  kinds: string;
  subject_type: string | null;
  subject_id: string | null;
  after_seq: number;
  payload: SubscriptionPayload;
  user_id: string;
  owner_pbx_id: string;
  owner_role: 'admin' | 'user';
  owner_status: 'active' | 'disabled';
  owner_deleted_at: string | null;
}

/** The tenant's active subscriptions with their owners. */
export function activeSubscriptionsOf(db: Executor, pbxId: string): Promise<SubscriptionWithOwner[]> {
  return db
    .selectFrom('webhook_subscriptions as s')
    .innerJoin('users as u', 'u.id', 's.user_id')
    .select([
      's.id',
      's.url',
      's.kinds',
      's.subject_type',
      's.subject_id',
      's.after_seq',
      's.payload',
      's.user_id',
      'u.pbx_id as owner_pbx_id',
      'u.role as owner_role',
      'u.status as owner_status',
      'u.deleted_at as owner_deleted_at',
    ])
    .where('s.pbx_id', '=', pbxId)
    .where('s.active', '=', 1)
    .orderBy('s.created_at')
    .orderBy('s.id')
    .execute();
}

/** Decides, for one subscription, which events it receives. */
export interface Receiver {
  subscription: SubscriptionWithOwner;
  receives(event: LiveEvent, kind: EventKind): boolean;
}

/**
 * The subscription's receiver, or null while its owner may receive nothing (disabled, deleted,
 * moved out of the tenant). The owner is the principal of its own user token, as the stream would
 * see it: the one rule `mayReceive` decides, so a subscription never gets what its owner could not
 * read over REST.
 */
export function receiverOf(subscription: SubscriptionWithOwner, pbxId: string): Receiver | null {
  if (subscription.owner_status !== 'active' || subscription.owner_deleted_at !== null || subscription.owner_pbx_id !== pbxId) return null;
  const owner: Principal = {
    kind: 'user',
    id: `webhook-subscription:${subscription.id}`,
    userId: subscription.user_id,
    pbxId,
    role: subscription.owner_role,
    tokenId: `webhook-subscription:${subscription.id}`,
    rateLimit: null,
  };
  const patterns = JSON.parse(subscription.kinds) as string[];
  return {
    subscription,
    receives: (event, kind) =>
      event.seq > subscription.after_seq &&
      anyKindMatches(patterns, event.kind) &&
      (subscription.subject_type === null || subscription.subject_type === event.subject.type) &&
      (subscription.subject_id === null || subscription.subject_id === event.subject.id) &&
      mayReceive(owner, event, kind),
  };
}
