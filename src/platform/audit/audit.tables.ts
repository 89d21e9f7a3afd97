import type { Timestamp } from '../../db/columns.js';

/**
 * One entry of a PBX's audit trail: who (the principal's kind and id, and its user when a user
 * acted), did what (an action on a subject), when, in which tenant. Never a secret: `details`
 * holds only facts that are safe to show the PBX's administrators.
 */
export interface AuditEventTable {
  id: string;
  pbx_id: string;
  /** `<subject>.<verb>`, e.g. `webhook_signing_secret.rotated`. */
  action: string;
  subject_type: string;
  subject_id: string | null;
  /** `user`, `pbx`, `integration`, `pbx_server` or `internal`. */
  principal_kind: string;
  /** The token or key that acted (a user's token id, an API key's id). */
  principal_id: string;
  /** The user behind a user token; null for API keys. Kept without a foreign key: the trail outlives users. */
  user_id: string | null;
  /** The `x-request-id` of the request that acted, to find it in the logs; null outside a request. */
  request_id: string | null;
  /** A JSON object. */
  details: string;
  created_at: Timestamp;
}

export interface AuditTables {
  audit_events: AuditEventTable;
}
