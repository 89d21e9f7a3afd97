import type { OperationDocs } from '../../../http/resource-routes.js';

/** The OpenAPI text of contact-imports.routes.ts, by operation id; the upload's names the configured size limit. */
export const contactImportsDocs = (importMaxBytes: number) =>
  ({
    createContactImport: {
      summary: 'Upload a CSV, XLS or XLSX file to import contacts',
      description: [
        `User tokens only; the import belongs to the calling user. multipart/form-data with one \`file\` part (at most ${importMaxBytes} bytes, IMPORT_MAX_BYTES; larger files get 413) and optional fields:`,
        '`header_row_position` (1-based, default 1; `null` for no header), `sheet_index` (0-based, spreadsheets), `delimiter` (one character or tab/comma/semicolon/pipe; detected when omitted),',
        '`enclosure` (default `"`), `input_encoding` (detected when omitted: UTF-8, UTF-16 or Windows-1252), `skip_on_error`, `notify_owner_by_email` (booleans), `webhook_url` (http(s); private addresses refused).',
        'The type is read from the content: a file named .xlsx that is not a spreadsheet is refused with 422, and so is an upload cut short (no closing boundary).',
        'The import starts `incomplete`: preview it, save a mapping, then confirm.',
      ].join(' '),
    },
    previewContactImport: {
      summary: 'Detected columns and the first rows of the file',
      description:
        'User tokens only; only the caller’s own imports (another user’s is 404). ' +
        'Answers `{data}`: the detected file type, delimiter, encoding and header row, the sheet names of a workbook, the columns by 0-based index, the first data rows (up to 10) and the contact fields a column can be mapped to. ' +
        '404 as well when the stored file is no longer there.',
    },
    listContactImports: {
      summary: "The caller's contact imports, newest first",
      description:
        'User tokens only: the imports the calling user uploaded, newest first unless `sort` says otherwise; `filter[status]` narrows the page. No `search`.',
    },
    getContactImport: {
      summary: "One of the caller's imports (flat, not wrapped in data)",
      description: "include=records,errors embeds what was imported and the failed rows. Another user's import is 404.",
    },
    saveContactImportMappings: {
      summary: 'Save which column fills which contact field (can_confirm becomes true)',
      description:
        'User tokens only; only the caller\u2019s own imports (404). Only an incomplete import can be mapped (422 otherwise); the list replaces any mapping saved before. ' +
        'name1 must be mapped. phone_number (with subfields label and type) and group may be mapped several times, any other field once; columns must exist in the file (422). Answers `{data}` with the import.',
    },
    confirmContactImport: {
      summary: 'Start the import (incomplete -> pending; a background job processes it)',
      description:
        'User tokens only; only the caller’s own imports (404). ' +
        'Moves an incomplete import with a saved mapping to pending and queues the background job that creates the contacts; answers 202 `{data}` with the import. ' +
        'An import already confirmed, or one without a mapping, is 422. Progress shows in `status`; with `webhook_url` the lifecycle events are delivered there.',
    },
    deleteContactImport: {
      summary: 'Delete an import with its records, errors and file (contacts stay)',
      description:
        'User tokens only; only the caller’s own imports (another user’s is 404). ' +
        'Deletes the import for good, in any status, with its records, errors and stored file; contacts it already created stay.',
    },
  }) satisfies OperationDocs;
