import type { Timestamp } from '../../db/columns.js';

/**
 * A one-time stream ticket (`POST /events/tickets`): for 30 seconds, once, it stands for the
 * credential that asked for it, where a browser cannot send a header (EventSource, WebSocket).
 * Only its digest is kept; used, it is deleted.
 */
export interface EventTicketTable {
  /** SHA-256 of the ticket. */
  ticket_hash: string;
  pbx_id: string;
  /** The credential it stands for: its kind (the token's prefix) and digest, resolved again when the ticket is used. */
  credential_kind: 'user' | 'pbx' | 'integration' | 'internal' | 'pbx_server';
  credential_hash: string;
  /** The principal that asked: the credential must still resolve to it. */
  principal_id: string;
  expires_at: Timestamp;
  created_at: Timestamp;
}

export interface LiveEventTables {
  event_tickets: EventTicketTable;
}
