import type { Selectable } from 'kysely';
import type { ContactImportErrorTable, ContactImportRecordTable, ContactImportTable } from '../address-book.tables.js';
import type { ContactImportView, ImportMappingT } from './contact-imports.schemas.js';

export type ImportRow = Selectable<ContactImportTable>;

/** Percent of the file's rows handled: 100 once finished, null until the rows are counted. */
function progressOf(row: ImportRow): number | null {
  if (row.status === 'completed' || row.status === 'completed_with_errors') return 100;
  if (row.total_rows === null) return null;
  return row.total_rows === 0 ? 100 : Math.min(100, Math.floor((row.processed_rows * 100) / row.total_rows));
}

/** What a running import's live events show of it: its counts and times. */
export function presentImportProgress(row: ImportRow) {
  return {
    id: row.id,
    file_name: row.original_name,
    total_rows: row.total_rows,
    processed_rows: row.processed_rows,
    records_count: row.records_count,
    errors_count: row.errors_count,
    progress: progressOf(row),
    started_at: row.started_at,
  };
}

export function presentImport(
  row: ImportRow,
  related: { records?: Array<Selectable<ContactImportRecordTable>>; errors?: Array<Selectable<ContactImportErrorTable>> } = {},
): ContactImportView {
  const mappings = JSON.parse(row.mappings) as ImportMappingT[];
  return {
    id: row.id,
    status: row.status,
    file_type: row.file_type,
    file_name: row.original_name,
    records_count: row.records_count,
    errors_count: row.errors_count,
    total_rows: row.total_rows,
    processed_rows: row.processed_rows,
    progress: progressOf(row),
    can_confirm: row.status === 'incomplete' && mappings.length > 0,
    header_row_position: row.header_row_position,
    sheet_index: row.sheet_index,
    delimiter: row.delimiter,
    enclosure: row.enclosure,
    input_encoding: row.input_encoding,
    skip_on_error: row.skip_on_error === 1,
    notify_owner_by_email: row.notify_owner_by_email === 1,
    webhook_url: row.webhook_url,
    mappings,
    failure_reason: row.failure_reason,
    created_at: row.created_at,
    started_at: row.started_at,
    completed_at: row.completed_at,
    ...(related.records ? { records: related.records.map((r) => ({ model_id: r.model_id, is_new: r.is_new === 1, was_trashed: r.was_trashed === 1 })) } : {}),
    ...(related.errors
      ? {
          errors: related.errors.map((e) => ({
            row: e.row,
            attribute: e.attribute,
            messages: JSON.parse(e.messages) as string[],
            row_data: JSON.parse(e.row_data) as Record<string, string>,
          })),
        }
      : {}),
  };
}
