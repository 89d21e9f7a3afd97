import type { Timestamp } from '../db/columns.js';

/** A named lease: at most one holder at a time, until it lapses unless renewed. */
export interface LeaseTable {
  name: string;
  holder: string;
  expires_at: Timestamp;
}

export interface LeaseTables {
  leases: LeaseTable;
}
