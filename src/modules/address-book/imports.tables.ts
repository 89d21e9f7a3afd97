import type { Generated } from 'kysely';
import type { Flag, Timestamp } from '../../db/schema.js';

export type ImportStatus = 'incomplete' | 'pending' | 'processing' | 'completed' | 'completed_with_errors' | 'failed';
export type ImportFileType = 'csv' | 'xls' | 'xlsx';

export interface ContactImportTable {
  id: string;
  pbx_id: string;
  user_id: string;
  status: ImportStatus;
  file_type: ImportFileType | null;
  original_name: string | null;
  /** Path of the uploaded file under `<dataDir>/imports`; null once deleted. */
  stored_path: string | null;
  file_size: number;
  records_count: Generated<number>;
  errors_count: Generated<number>;
  /** Data rows already written (the restart checkpoint). */
  processed_rows: Generated<number>;
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

export interface ContactImportTables {
  contact_imports: ContactImportTable;
  contact_import_records: ContactImportRecordTable;
  contact_import_errors: ContactImportErrorTable;
}
