/**
 * Row types of call routing (migration 0016): sound files and their content, IVR menus and their
 * steps, call flows (a graph of typed nodes, kept as JSON) with the references their nodes make,
 * and queues with their members. Targets between resources are polymorphic (type + id), so the
 * services, not foreign keys, keep them alive: a used resource cannot be deleted for good.
 */
import type { ColumnType, Generated } from 'kysely';
import type { Timestamp } from '../../db/columns.js';

export type SoundFileType = 'announcement' | 'music';

export interface SoundFileTable {
  id: string;
  pbx_id: string;
  name: string;
  type: SoundFileType;
  language: string | null;
  /** `wav` or `mp3`, read from the content. */
  format: string;
  mime_type: string;
  size_bytes: number;
  duration_ms: number;
  sample_rate: number | null;
  channels: number | null;
  checksum_sha256: string;
  /** Hex SHA-256 of the playable version (8 kHz mono 16-bit PCM WAV); null until converted (files uploaded before 0021). */
  playable_checksum_sha256: string | null;
  original_filename: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  deleted_at: Generated<Timestamp | null>;
}

/** The audio itself, apart from the metadata so that lists never read it. */
export interface SoundFileContentTable {
  sound_file_id: string;
  content: Buffer;
  /** The audio as the PBX plays it: 8 kHz mono 16-bit PCM WAV; null until converted. */
  playable: Buffer | null;
}

export type IvrDefaultAction = 'hangup' | 'repeat' | 'default_step';

export interface IvrTable {
  id: string;
  pbx_id: string;
  name: string;
  comment: string | null;
  announcement_id: string;
  music_on_hold_id: string | null;
  announcement_language: string | null;
  default_action: IvrDefaultAction;
  /** Seconds the caller has to press a key after the announcement. */
  timeout_seconds: number;
  /** How often `repeat` plays the menu again before hanging up. */
  max_repeats: number;
  created_at: Timestamp;
  updated_at: Timestamp;
  deleted_at: Generated<Timestamp | null>;
}

export interface IvrStepTable {
  id: string;
  pbx_id: string;
  ivr_id: string;
  /** default | 0-9 | * | # */
  option: string;
  name: string | null;
  /** `App\Models\CallFlow` or `App\Models\Ivr`, as the contract spells them. */
  target_type: string;
  target_id: string;
  language: string | null;
  voip_ivr_btn_id: number | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  deleted_at: Generated<Timestamp | null>;
}

export interface CallFlowTable {
  id: string;
  pbx_id: string;
  name: string;
  description: string | null;
  /** Key of the node a call enters at. */
  entry: string;
  /** JSON array of the flow's nodes. */
  nodes: string;
  created_at: Timestamp;
  updated_at: Timestamp;
  deleted_at: Generated<Timestamp | null>;
}

/** What each node of a call flow points at, rewritten with the flow: "who uses X" in one query. */
export interface CallFlowReferenceTable {
  call_flow_id: string;
  pbx_id: string;
  target_type: string;
  target_id: string;
  node_key: string;
  field: string;
}

export type QueueStrategy = 'ringall' | 'round_robin' | 'least_recent' | 'fewest_calls' | 'random';

export interface QueueTable {
  id: string;
  pbx_id: string;
  name: string;
  strategy: QueueStrategy;
  /** Seconds a caller waits before the overflow. */
  max_wait_seconds: number;
  /** Callers waiting at most; null = no limit. */
  max_callers: number | null;
  /** Seconds each member rings per attempt. */
  member_timeout_seconds: number;
  wrap_up_seconds: number;
  music_on_hold_id: string | null;
  announcement_id: string | null;
  /** Where a caller goes when the queue is full, has no one to ring or the wait runs out. */
  overflow_type: string;
  overflow_target_id: string | null;
  overflow_number: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  deleted_at: Generated<Timestamp | null>;
}

export interface QueueMemberTable {
  queue_id: string;
  pbx_id: string;
  member_type: 'user' | 'extension';
  member_id: string;
  penalty: number;
  position: number;
}

/**
 * The tenant's routing version: moved by triggers (migration 0027) in the transaction of every
 * change of what the routing graph reads, so a graph cached under it is the tenant's while it stays.
 */
export interface RoutingVersionTable {
  pbx_id: string;
  version: ColumnType<number | string, never, number | string>;
}

export interface RoutingTables {
  routing_versions: RoutingVersionTable;
  sound_files: SoundFileTable;
  sound_file_contents: SoundFileContentTable;
  ivrs: IvrTable;
  ivr_steps: IvrStepTable;
  call_flows: CallFlowTable;
  call_flow_references: CallFlowReferenceTable;
  queues: QueueTable;
  queue_members: QueueMemberTable;
}
