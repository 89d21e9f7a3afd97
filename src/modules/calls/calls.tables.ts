/**
 * Row types of calls and call history (migration 0005): call detail records, the users taking
 * part in each call (the visibility and per-user index), recordings, placed calls, and per-PBX
 * AMI connection settings. (`POST /calls/new`'s Idempotency-Key store moved to
 * platform/idempotency in migration 0026.)
 * Same storage rules as the foundation: booleans 0/1, timestamps text, JSON as text.
 */
import type { ColumnType, Generated } from 'kysely';
import type { Flag, Timestamp } from '../../db/columns.js';

/**
 * int64 columns: written as decimal text (exact at any size; both databases convert it) or a
 * number; PostgreSQL's driver reads bigint back as a string, SQLite as a number (read exact ones
 * through a cast to text).
 */
export type BigIntColumn = ColumnType<number | string, number | string, number | string>;

export type CdrStatus = 'answered' | 'missed' | 'busy' | 'failed';
export type CdrType = 'INCOMING' | 'OUTGOING';

export interface CdrTable {
  pbx_id: string;
  /** The PBX's own id of the call; unique per PBX; the public `id`. */
  cdr_id: BigIntColumn;
  type: CdrType;
  /** Overall outcome, derived from the legs at ingestion (list filter). */
  status: CdrStatus;
  /** UTC, `YYYY-MM-DD HH:MM:SS` (sorts as text). */
  start_time: string;
  answer_time: string | null;
  end_time: string;
  duration: number;
  billsec: number;
  is_transfer_call: Flag;
  is_internal: Flag;
  is_conference_call: Flag;
  has_recording: Flag;
  caller_user_id: string | null;
  caller_name: string;
  caller_number: string;
  /** Lower-cased names and numbers of every party, for the list's `search`. */
  search_text: string;
  /** JSON arrays / object. */
  receivers: string;
  call_flow: string;
  conference: string;
  notes: string;
  transcriptions: string | null;
  ai_processing_errors: string;
  source: 'api' | 'ami' | 'simulated' | 'seed';
  created_at: Timestamp;
}

/** One row per user taking part in a call (caller or a receiver leg): "own calls" and the user filter. */
export interface CdrParticipantTable {
  pbx_id: string;
  cdr_id: BigIntColumn;
  user_id: string;
  start_time: string;
}

export type RecordingKind = 'full' | 'caller' | 'callee';

export interface CdrRecordingTable {
  pbx_id: string;
  cdr_id: BigIntColumn;
  kind: RecordingKind;
  /** Relative to `<dataDir>/recordings/<pbx_id>/`; the download endpoint's `path`. */
  path: string;
  name: string;
  content_type: string;
  size_bytes: number;
  created_at: Timestamp;
}

export type PlacedCallStatus = 'queued' | 'ringing' | 'answered' | 'failed' | 'ended';

/** A call placed through `POST /calls/new`, correlated with the engine's events. */
export interface PlacedCallTable {
  id: string;
  pbx_id: string;
  user_id: string;
  engine: 'simulated' | 'asterisk';
  destination: string;
  caller_identity_id: string | null;
  /** AMI ActionID of the Originate; events are matched on it, then on the Uniqueid. */
  action_id: string;
  uniqueid: string | null;
  status: PlacedCallStatus;
  /** JSON: the endpoints rung and the targets skipped. */
  endpoints: string;
  reason: string | null;
  /** The call-history record once its Cdr arrived (migration 0017). */
  cdr_id: ColumnType<string | null, string | null | undefined, string | null>;
  /** Where the call's end is announced (a signed webhook), when the caller asked for it. */
  webhook_url: ColumnType<string | null, string | null | undefined, string | null>;
  ended_at: ColumnType<string | null, string | null | undefined, string | null>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface AmiSettingsTable {
  pbx_id: string;
  host: string;
  port: number;
  username: string;
  /** Sealed with the server key (SecretBox); never returned. */
  secret_sealed: string;
  enabled: Flag;
  /** Dialplan context the destination is dialled in. */
  context: Generated<string>;
  /** IANA zone of the Asterisk host, whose local time cdr_manager writes; null: the tenant's zone. */
  pbx_timezone: ColumnType<string | null, string | null | undefined, string | null>;
  /** Consecutive logins the event listener had refused; past AMI_LOGIN_FAILURE_LIMIT the settings are failing. */
  login_failures: Generated<number>;
  failing_since: ColumnType<string | null, string | null | undefined, string | null>;
  last_error: ColumnType<string | null, string | null | undefined, string | null>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** One Cdr event of an Asterisk call, kept until its legs are merged into one history record. */
export interface AmiCdrLegTable {
  pbx_id: string;
  /** The call's LinkedID, or the placed call's `pbxapi-<call id>`. */
  call_key: string;
  uniqueid: string;
  /** JSON: the event's fields. */
  fields: string;
  created_at: Timestamp;
}

/** What a PBX on the simulated engine runs: the last configuration version config-push delivered to it (through `deliverConfiguration`). */
export interface SimulatedConfigurationTable {
  pbx_id: string;
  version: number;
  hash: string;
  /** JSON: `[{name, sha256, content}]`. */
  files: string;
  /** The routing snapshot of the version (JSON), by which the simulation routes calls to the PBX's numbers. */
  routing: Generated<string | null>;
  applied_at: Timestamp;
}

export interface CallTables {
  cdrs: CdrTable;
  cdr_participants: CdrParticipantTable;
  cdr_recordings: CdrRecordingTable;
  placed_calls: PlacedCallTable;
  ami_settings: AmiSettingsTable;
  ami_cdr_legs: AmiCdrLegTable;
  simulated_configurations: SimulatedConfigurationTable;
}
