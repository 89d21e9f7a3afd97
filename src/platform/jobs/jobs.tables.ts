import type { Timestamp } from '../../db/columns.js';

export type JobStatus = 'pending' | 'running' | 'completed' | 'failed';

/** A durable background job; claimed with a lease so a dead instance's job is picked up again. */
export interface JobTable {
  id: string;
  kind: string;
  /** JSON. */
  payload: string;
  status: JobStatus;
  attempts: number;
  max_attempts: number;
  run_at: Timestamp;
  locked_by: string | null;
  locked_until: Timestamp | null;
  last_error: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  completed_at: Timestamp | null;
}

export interface JobTables {
  jobs: JobTable;
}
