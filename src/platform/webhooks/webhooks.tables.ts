import type { Generated } from 'kysely';
import type { Flag, Timestamp } from '../../db/columns.js';

export type DeliveryStatus = 'pending' | 'delivered' | 'failed';

export type SubscriptionPayload = 'envelope' | 'data';

/** One webhook message and the log of its delivery attempts' outcome. */
export interface WebhookDeliveryTable {
  id: string;
  pbx_id: string;
  /** The user the event concerns (who may read its log); null for PBX-wide events. */
  user_id: string | null;
  event: string;
  subject_type: string;
  subject_id: string;
  url: string;
  /** The exact JSON body that is signed and sent. */
  payload: string;
  status: DeliveryStatus;
  attempts: number;
  response_status: number | null;
  last_error: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  delivered_at: Timestamp | null;
}

/**
 * A PBX's Standard Webhooks signing secret once it has been rotated (before that, the secret is
 * derived from the server key and nothing is stored). Secrets are sealed with SECRET_KEY. The
 * replaced secret keeps signing beside the new one until `previous_expires_at`.
 */
export interface WebhookSigningSecretTable {
  pbx_id: string;
  secret_sealed: string;
  previous_secret_sealed: string | null;
  previous_expires_at: Timestamp | null;
  rotated_at: Timestamp;
}

/**
 * A subscription to a tenant's live events (platform/events), each delivered as a webhook to `url`.
 * It receives what its owner may receive (`mayReceive`, with the owner as it stands at dispatch).
 */
export interface WebhookSubscriptionTable {
  id: string;
  pbx_id: string;
  /** The owner, who created it: nothing is delivered while the owner is disabled or deleted. */
  user_id: string;
  url: string;
  /** JSON array of kind patterns: names and `<prefix>.*` (platform/events/kind-patterns.ts). */
  kinds: string;
  /** Only events about subjects of this type, when set. */
  subject_type: string | null;
  /** Only events about this subject, when set. */
  subject_id: string | null;
  description: string | null;
  active: Flag;
  /** The tenant's newest event number when it was created or last activated: it receives the later ones only. */
  after_seq: number;
  /** A message's `data`: the event's envelope (`envelope`), or the event's data alone (`data`). */
  payload: Generated<SubscriptionPayload>;
  /**
   * The record that made it (e.g. `contact_import` and the import's id), which alone manages it and
   * removes it with itself; null for a subscription made through `/webhook-subscriptions`.
   */
  owner_kind: string | null;
  owner_id: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** How far a tenant's events have been turned into deliveries for its subscriptions (subscription-dispatch.ts). */
export interface WebhookDispatchCursorTable {
  pbx_id: string;
  last_seq: number;
}

export interface WebhookTables {
  webhook_deliveries: WebhookDeliveryTable;
  webhook_signing_secrets: WebhookSigningSecretTable;
  webhook_subscriptions: WebhookSubscriptionTable;
  webhook_dispatch_cursors: WebhookDispatchCursorTable;
}
