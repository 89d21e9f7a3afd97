/**
 * Row types of the address book (migrations 0003 and 0004): contacts with their numbers, groups,
 * favourites and blocks, and contact imports with their records and errors.
 */
import type { Generated } from 'kysely';
import type { Flag, Timestamp } from '../../db/columns.js';

/** An address-book entry of a PBX; global, or private to `private_owner_id`. */
export interface ContactTable {
  id: string;
  pbx_id: string;
  name1: string;
  name2: string | null;
  email: string | null;
  /** Lower-cased e-mail, for the import matching rule and search. */
  email_normalized: string | null;
  company_name: string | null;
  department: string | null;
  job_title: string | null;
  notes: string | null;
  vip: Flag;
  private_owner_id: string | null;
  is_blocked_globally: Flag;
  /** JSON `{type, call_flow_id, extension_id, user_id, sip_device_id}` or null. */
  handling_strategy: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  deleted_at: Generated<Timestamp | null>;
}

export interface ContactNumberTable {
  id: string;
  contact_id: string;
  pbx_id: string;
  /** As the user typed it. */
  phone_number_raw: string;
  /** E.164, the key of caller lookup and import matching. */
  phone_number: string;
  label: string | null;
  type: string;
  /** Unique per PBX (a database constraint). */
  speed_dial: string | null;
  position: number;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface ContactGroupTable {
  id: string;
  pbx_id: string;
  name: string;
  description: string | null;
  default_internal_call_flow_id: string | null;
  default_external_call_flow_id: string | null;
  extension_id_shown_outside_the_group: string | null;
  default_caller_identity_id: string | null;
  external_uid: string | null;
  allow_call_pickups: Flag;
  allow_default_pbxes_outgoing_phone_numbers: Flag;
  display_tab_to_everyone_inside_voxbi: Flag;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface ContactGroupMemberTable {
  group_id: string;
  contact_id: string;
}

export interface ContactGroupUserTable {
  group_id: string;
  user_id: string;
}

/** Per-user marks on a contact: favorites and per-user blocks. */
export interface ContactUserMarkTable {
  contact_id: string;
  user_id: string;
  created_at: Timestamp;
}

export type ImportStatus = 'incomplete' | 'pending' | 'processing' | 'completed' | 'completed_with_errors' | 'failed';
export type ImportFileType = 'csv' | 'xls' | 'xlsx';

export interface ContactImportTable {
  id: string;
  pbx_id: string;
  user_id: string;
  status: ImportStatus;
  file_type: ImportFileType | null;
  original_name: string | null;
  /** Imports made before migration 0015: their file under the uploading instance's `<dataDir>/imports`. Newer ones keep theirs in `contact_import_files`. */
  stored_path: string | null;
  file_size: number;
  records_count: Generated<number>;
  errors_count: Generated<number>;
  /** Data rows already written (the restart checkpoint). */
  processed_rows: Generated<number>;
  /** Data rows of the file, counted when processing starts (migration 0014); null before. */
  total_rows: Generated<number | null>;
  header_row_position: number | null;
  sheet_index: number | null;
  delimiter: string | null;
  enclosure: string | null;
  input_encoding: string | null;
  skip_on_error: Flag;
  notify_owner_by_email: Flag;
  webhook_url: string | null;
  /** JSON array of `{field, column, subfields}`. */
  mappings: Generated<string>;
  /** JSON array of detected column names. */
  columns: Generated<string>;
  failure_reason: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  started_at: Timestamp | null;
  completed_at: Timestamp | null;
}

export interface ContactImportRecordTable {
  id: string;
  import_id: string;
  row: number;
  model_id: string;
  is_new: number;
  was_trashed: number;
}

export interface ContactImportErrorTable {
  id: string;
  import_id: string;
  row: number;
  attribute: string | null;
  /** JSON array of strings. */
  messages: string;
  /** JSON object: column name -> cell text. */
  row_data: string;
}

/** An import's uploaded file (migration 0015), readable by every instance. */
export interface ContactImportFileTable {
  import_id: string;
  content: Buffer;
}

interface ContactImportTables {
  contact_imports: ContactImportTable;
  contact_import_files: ContactImportFileTable;
  contact_import_records: ContactImportRecordTable;
  contact_import_errors: ContactImportErrorTable;
}

/** The address book: contacts, their numbers, groups, per-user marks, and spreadsheet imports. */
export interface AddressBookTables extends ContactImportTables {
  contacts: ContactTable;
  contact_numbers: ContactNumberTable;
  contact_groups: ContactGroupTable;
  contact_group_members: ContactGroupMemberTable;
  contact_group_users: ContactGroupUserTable;
  contact_favorites: ContactUserMarkTable;
  contact_blocks: ContactUserMarkTable;
}
