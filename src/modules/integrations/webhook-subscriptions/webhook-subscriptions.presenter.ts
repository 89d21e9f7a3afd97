import type { WebhookSubscriptionView } from './webhook-subscriptions.schemas.js';
import type { WebhookSubscriptionRow } from './webhook-subscriptions.service.js';

/** A subscription as the contract shows it: its kinds parsed, its filters together. */
export function presentWebhookSubscription(row: WebhookSubscriptionRow): WebhookSubscriptionView {
  return {
    id: row.id,
    url: row.url,
    kinds: JSON.parse(row.kinds) as string[],
    filters: { subject_type: row.subject_type, subject_id: row.subject_id },
    description: row.description,
    active: row.active === 1,
    user_id: row.user_id,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}
