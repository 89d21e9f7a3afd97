import { Type, type Static } from '@sinclair/typebox';
import { DateTime, Nullable, StringEnum, Uuid } from '../../../http/schema.js';
import { IncludeParam } from '../../../http/include.js';
import { ListQuery } from '../../../http/list-query.js';
import { UploadFile } from '../../../http/uploads.js';

export const IMPORT_STATUSES = ['incomplete', 'pending', 'processing', 'completed', 'completed_with_errors', 'failed'] as const;
/**
 * Contact fields a column can fill. `phone_number` may be mapped several times (subfields `label`
 * and `type` describe each); `group` holds the name of an existing contact group.
 */
export const IMPORT_FIELDS = ['name1', 'name2', 'email', 'company_name', 'department', 'job_title', 'notes', 'vip', 'phone_number', 'group'] as const;
export type ImportField = (typeof IMPORT_FIELDS)[number];

export const ImportMapping = Type.Object(
  {
    field: StringEnum(IMPORT_FIELDS),
    column: Type.Integer({ minimum: 0, maximum: 1000, description: '0-based index of the column (see the preview).' }),
    subfields: Type.Array(
      Type.Object({ name: StringEnum(['label', 'type'] as const), value: Nullable(Type.String({ maxLength: 255 })) }, { additionalProperties: false }),
      {
        default: [],
        maxItems: 5,
        description: 'For phone_number: label (free text) and type (work, mobile, home, fax, other).',
      },
    ),
  },
  { additionalProperties: false },
);
export type ImportMappingT = Static<typeof ImportMapping>;

export const ImportRecord = Type.Object({ model_id: Uuid(), is_new: Type.Boolean(), was_trashed: Type.Boolean() });
export const ImportError = Type.Object({
  row: Type.Integer({ minimum: 1 }),
  attribute: Nullable(Type.String()),
  messages: Type.Array(Type.String()),
  row_data: Type.Record(Type.String(), Type.String()),
});

export const ContactImport = Type.Object(
  {
    id: Uuid(),
    status: StringEnum(IMPORT_STATUSES),
    file_type: Nullable(StringEnum(['csv', 'xls', 'xlsx'] as const)),
    file_name: Nullable(Type.String()),
    records_count: Type.Integer(),
    errors_count: Type.Integer(),
    total_rows: Nullable(
      Type.Integer({ minimum: 0, description: 'Data rows of the file (the header row excluded), counted when processing starts; null before.' }),
    ),
    processed_rows: Type.Integer({ minimum: 0, description: 'Data rows handled so far, imported or skipped as errors.' }),
    progress: Nullable(
      Type.Integer({
        minimum: 0,
        maximum: 100,
        description: 'processed_rows as a percentage of total_rows (rounded down); 100 once completed; null until the rows are counted.',
      }),
    ),
    can_confirm: Type.Boolean({ description: 'True while incomplete with a saved mapping.' }),
    header_row_position: Nullable(Type.Integer({ minimum: 1 })),
    sheet_index: Nullable(Type.Integer({ minimum: 0 })),
    delimiter: Nullable(Type.String()),
    enclosure: Nullable(Type.String()),
    input_encoding: Nullable(Type.String()),
    skip_on_error: Type.Boolean(),
    notify_owner_by_email: Type.Boolean(),
    webhook_url: Nullable(Type.String({ format: 'uri' })),
    mappings: Type.Array(ImportMapping),
    failure_reason: Nullable(Type.String()),
    created_at: DateTime(),
    started_at: Nullable(DateTime()),
    completed_at: Nullable(DateTime()),
    records: Type.Optional(Type.Array(ImportRecord, { description: 'Only with include=records.' })),
    errors: Type.Optional(Type.Array(ImportError, { description: 'Only with include=errors.' })),
  },
  {
    $id: 'ContactImport',
    examples: [
      {
        id: 'cb4adce6-120d-48cf-b066-f5f506290a23',
        status: 'completed_with_errors',
        file_type: 'csv',
        file_name: 'suppliers.csv',
        records_count: 1,
        errors_count: 1,
        total_rows: null,
        processed_rows: 2,
        progress: 100,
        can_confirm: false,
        header_row_position: 1,
        sheet_index: null,
        delimiter: ';',
        enclosure: '"',
        input_encoding: 'UTF-8',
        skip_on_error: true,
        notify_owner_by_email: false,
        webhook_url: null,
        mappings: [
          { field: 'name1', column: 0, subfields: [] },
          { field: 'email', column: 1, subfields: [] },
          { field: 'phone_number', column: 2, subfields: [{ name: 'type', value: 'work' }] },
        ],
        failure_reason: null,
        created_at: '2026-11-02T08:30:00.000Z',
        started_at: '2026-11-02T08:30:00.000Z',
        completed_at: '2026-11-02T08:30:00.000Z',
      },
    ],
  },
);
export type ContactImportView = Static<typeof ContactImport>;

export const ImportParams = Type.Object({ id: Uuid({ description: 'import id (UUID)' }) });
export const ImportDetailQuery = Type.Object({ include: IncludeParam(['records', 'errors']) });
export const ImportListQuery = ListQuery({ search: false, sort: ['created_at'], filters: { status: StringEnum(IMPORT_STATUSES) } });
export const MappingsBody = Type.Object(
  { mappings: Type.Array(ImportMapping, { minItems: 1, maxItems: 100 }) },
  {
    additionalProperties: false,
    examples: [
      {
        mappings: [
          { field: 'name1', column: 0, subfields: [] },
          { field: 'name2', column: 1, subfields: [] },
          { field: 'company_name', column: 2, subfields: [] },
          {
            field: 'phone_number',
            column: 3,
            subfields: [
              { name: 'label', value: 'Office' },
              { name: 'type', value: 'work' },
            ],
          },
          { field: 'email', column: 4, subfields: [] },
        ],
      },
    ],
  },
);

export const ImportPreview = Type.Object(
  {
    file_type: StringEnum(['csv', 'xls', 'xlsx'] as const),
    delimiter: Nullable(Type.String()),
    input_encoding: Nullable(Type.String()),
    header_row_position: Nullable(Type.Integer()),
    sheet_index: Nullable(Type.Integer()),
    sheets: Type.Array(Type.String(), { description: 'Sheet names of a workbook; empty for CSV.' }),
    columns: Type.Array(Type.Object({ index: Type.Integer(), name: Type.String() })),
    rows: Type.Array(Type.Object({ row: Type.Integer(), cells: Type.Array(Type.String()) }), { description: 'The first data rows (up to 10).' }),
    fields: Type.Array(Type.String(), { description: 'Contact fields a column can be mapped to.' }),
  },
  {
    examples: [
      {
        file_type: 'csv',
        delimiter: ';',
        input_encoding: 'UTF-8',
        header_row_position: 1,
        sheet_index: null,
        sheets: [],
        columns: [
          { index: 0, name: 'Name' },
          { index: 1, name: 'Email' },
          { index: 2, name: 'Phone' },
        ],
        rows: [
          { row: 2, cells: ['Nordwerk Supplies', 'orders@nordwerk.example', '+352 621 123 456'] },
          { row: 3, cells: ['Moselle Freight', 'not-an-address', '+352 26 48 90 01'] },
        ],
        fields: ['name1', 'name2', 'email', 'company_name', 'department', 'job_title', 'notes', 'vip', 'phone_number', 'group'],
      },
    ],
  },
);

const FLAG = 'true or false (also 1/0, yes/no, on/off); false when left out.';

/** The parts of an upload (multipart/form-data), described for the OpenAPI document; the service reads and checks them. */
export const ImportUploadForm = Type.Object({
  file: UploadFile('The CSV, XLS or XLSX file; its type is read from the content.'),
  header_row_position: Type.Optional(
    Type.Union([Type.Integer({ minimum: 1, maximum: 1_000_000 }), StringEnum(['null', 'none'] as const)], {
      description: 'The 1-based row holding the column names (1 when left out); null or none: the file has no header row.',
    }),
  ),
  sheet_index: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000, description: 'The 0-based sheet of a workbook (the first when left out).' })),
  delimiter: Type.Optional(Type.String({ description: 'One character, or tab, comma, semicolon or pipe; detected when left out.' })),
  enclosure: Type.Optional(Type.String({ maxLength: 1, description: 'The quote character of a CSV; " when left out.' })),
  input_encoding: Type.Optional(
    Type.String({ pattern: '^[A-Za-z0-9_.:-]{2,32}$', description: 'The text encoding of a CSV; detected (UTF-8, UTF-16 or Windows-1252) when left out.' }),
  ),
  skip_on_error: Type.Optional(Type.Boolean({ description: `Skip invalid rows rather than fail the import: ${FLAG}` })),
  notify_owner_by_email: Type.Optional(Type.Boolean({ description: `Mail the uploader when the import ends: ${FLAG}` })),
  webhook_url: Type.Optional(Type.String({ format: 'uri', description: 'Receives the import’s lifecycle events; http(s), private addresses refused.' })),
});
