import type { Flag, Timestamp } from '../../db/columns.js';

/**
 * The first answer of a request sent with an `Idempotency-Key` (migration 0026), replayed for 24
 * hours to the same caller: one row per tenant, principal and key.
 */
export interface IdempotencyRecordTable {
  /** The caller's PBX; '' for an operator-wide internal key. */
  pbx_id: string;
  /** `user:<user id>` (every token of the user) or `api-key:<key id>`. */
  principal: string;
  key: string;
  /** sha256 of the method, the route and the request's params, query and body (or upload parts). */
  fingerprint: string;
  /** null while the first request is still running. */
  response_status: number | null;
  response_body: string | null;
  /** 1: the body is sealed with the server key (an answer that carries a secret: a new API key, a SIP password). */
  sealed: Flag;
  content_type: string | null;
  location: string | null;
  created_at: Timestamp;
  expires_at: Timestamp;
}

export interface IdempotencyTables {
  idempotency_records: IdempotencyRecordTable;
}
