import type { WebhookDeliveryView } from './webhooks.schemas.js';
import type { DeliveryRow } from './webhooks.service.js';

/** A delivery as the log shows it: its signed payload parsed from the stored JSON. */
export function presentWebhookDelivery(row: DeliveryRow): WebhookDeliveryView {
  return {
    id: row.id,
    event: row.event,
    subject_type: row.subject_type,
    subject_id: row.subject_id,
    url: row.url,
    status: row.status,
    attempts: row.attempts,
    response_status: row.response_status,
    last_error: row.last_error,
    payload: JSON.parse(row.payload) as unknown,
    created_at: row.created_at,
    updated_at: row.updated_at,
    delivered_at: row.delivered_at,
  };
}
