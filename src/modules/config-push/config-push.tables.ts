/**
 * Row types of the configuration push (migration 0018): every push is a version of the PBX's
 * configuration (who, when, the files and their hashes, the diff summary against the version the
 * PBX ran before, the result); the per-PBX push gate (the last push's time: one a minute); and the
 * simulated engine's active configuration (what a simulated PBX "runs", written by the calls
 * domain's simulated engine when a push reaches it).
 */
import type { Generated } from 'kysely';
import type { Timestamp } from '../../db/columns.js';

export type ConfigPushStatus = 'queued' | 'delivering' | 'reloading' | 'done' | 'failed';

export interface ConfigVersionTable {
  /** The push's id (`GET /pbx/configuration/pushes/{push}`). */
  id: string;
  pbx_id: string;
  /** 1, 2, ... per PBX, in the order the pushes were accepted. */
  version: number;
  /** The compiler's hash over the files' names and hashes. */
  hash: string;
  /** JSON: the compiled files `[{name, sections, content, sha256}]`, what a rollback pushes again. */
  files: string;
  /** The manifest (JSON text) generated for this version. */
  manifest: string;
  /** The routing snapshot (JSON) the version was compiled from, for a simulated PBX; null before it was kept. */
  routing: Generated<string | null>;
  /** JSON: `{base_version, files: [{name, status, additions, deletions}], additions, deletions}`. */
  diff_summary: string;
  /** Version this one pushed again (a rollback), else null. */
  rollback_of: number | null;
  status: ConfigPushStatus;
  /** Why it failed (or why the last attempt failed, while queued for another). */
  reason: string | null;
  /** `simulated` or `asterisk`, once delivery started. */
  engine: string | null;
  /** Modules reloaded on the PBX (JSON array of names). */
  reloaded: string;
  principal_kind: string;
  principal_id: string;
  user_id: string | null;
  job_id: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  started_at: Timestamp | null;
  finished_at: Timestamp | null;
}

/** One row per PBX that has pushed: the gate of the one-a-minute limit, taken in one upsert. */
export interface ConfigPushGateTable {
  pbx_id: string;
  last_push_at: Timestamp;
}

export interface ConfigPushTables {
  config_versions: ConfigVersionTable;
  config_push_gates: ConfigPushGateTable;
}
