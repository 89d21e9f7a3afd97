import type { OperationDocs } from '../../../http/resource-routes.js';

const SIGNING =
  'Each message carries webhook-id, webhook-timestamp and webhook-signature, as the Standard Webhooks specification defines: `v1,<base64 HMAC-SHA256 of "id.timestamp.body">`, ' +
  'one per secret, space-separated. After a rotation, deliveries (retries of older messages included, since each attempt is signed when it is sent) carry two signatures, ' +
  'with the new and with the previous secret, until `previous_secret_expires_at`; a Standard Webhooks library accepts a message when any of them verifies, so receivers switch without losing messages. ' +
  'The secret is for the PBX administrators only: anyone holding it can sign messages that receivers will trust. Answers carrying it are sent with `Cache-Control: no-store`.';

/** The OpenAPI text of webhooks.routes.ts, by operation id. */
export const WEBHOOKS_DOCS = {
  listWebhookDeliveries: {
    summary: 'Delivery log of outgoing webhooks, newest first',
    description:
      'User tokens only (API keys are refused). An administrator reads every delivery of the PBX, any other user only the deliveries of events about its own things (its contact imports). ' +
      'Narrow with `filter[event]`, `filter[status]` (pending, delivered, failed) and `filter[subject_id]`; newest first unless `sort` says otherwise (created_at, updated_at, delivered_at, event, status, attempts; any other is 422). Each entry carries the signed payload, the attempts and the last answer or error.',
  },
  getWebhookDelivery: {
    summary: 'One webhook delivery',
    description:
      'User tokens only. The id is the message’s webhook-id (`msg_` and 32 hex digits). A delivery of another PBX, or, for a user who is not an administrator, of another user’s events, is 404.',
  },
  getWebhookSigningSecret: {
    summary: "The PBX's Standard Webhooks secret, to verify webhook-signature (administrators)",
    description: SIGNING,
  },
  rotateWebhookSigningSecret: {
    summary: 'Replace the signing secret; the previous one keeps signing beside it for the overlap window',
    description:
      'Answers the new secret and when the previous one stops signing (`previous_secret_expires_at`, after `overlap_seconds`). ' +
      'The body may be left out (or `{}`): the server default window applies. ' +
      'Only the latest replaced secret keeps signing: rotating again within the window ends the older one at once. ' +
      'Each rotation is recorded in the audit trail (`GET /audit-events`, action `webhook_signing_secret.rotated`), without any secret. ' +
      '409 when another rotation happened at the same moment. ' +
      SIGNING,
  },
} satisfies OperationDocs;
