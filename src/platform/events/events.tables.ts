import type { Timestamp } from '../../db/columns.js';

/** A tenant's last event number: `publish` raises it in the change's transaction (platform/events). */
export interface EventCounterTable {
  pbx_id: string;
  last_seq: number;
}

/**
 * One live event of a tenant, kept for EVENT_RETENTION_HOURS: the outbox streams and webhook
 * subscriptions read. `seq` numbers a tenant's events without gaps, in commit order.
 */
export interface EventTable {
  pbx_id: string;
  seq: number;
  /** A registered kind, `<subject>.<what happened>` (e.g. `call.answered`). */
  kind: string;
  subject_type: string;
  subject_id: string;
  /** JSON: who may receive it (`Audience`), checked with the kind by `mayReceive`. */
  audience: string;
  /** JSON: the kind's data. */
  data: string;
  created_at: Timestamp;
}

export interface EventTables {
  event_counters: EventCounterTable;
  events: EventTable;
}
