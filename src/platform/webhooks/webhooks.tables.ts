import type { Timestamp } from '../../db/columns.js';

export type DeliveryStatus = 'pending' | 'delivered' | 'failed';

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

export interface WebhookTables {
  webhook_deliveries: WebhookDeliveryTable;
  webhook_signing_secrets: WebhookSigningSecretTable;
}
