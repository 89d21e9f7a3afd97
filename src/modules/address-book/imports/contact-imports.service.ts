import { randomUUID } from 'node:crypto';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { ClientError, NotFound, ValidationFailed } from '../../../platform/errors.js';
import type { PageRequest, SortTerm } from '../../../db/paging.js';
import type { AppContext } from '../../../platform/context.js';
import type { Tenant } from '../../../platform/tenancy.js';
import { assertPublicUrl } from '../../../platform/webhooks/url-guard.js';
import { saveUpload, type UploadPart } from '../../../http/uploads.js';
import { IMPORT_FIELDS, type ImportMappingT } from './contact-imports.schemas.js';
import type { ImportStatus } from '../address-book.tables.js';
import {
  deleteImport,
  findImportById,
  findOwnImport,
  importErrors,
  importRecords,
  insertImport,
  listOwnImports,
  updateImport,
} from './contact-imports.queries.js';
import { emitImportEvent, subscribeImportWebhook, unsubscribeImportWebhook } from './contact-imports.events.js';
import { processImport } from './contact-imports.processor.js';
import { presentImport, type ImportRow } from './contact-imports.presenter.js';
import { readRows, sheetNames, sniffFile, type ReadOptions } from './file-reading.js';
import { parseImportOptions } from './import-options.js';
import { storeImportFile, withImportFile } from './import-files.js';
import { mappingErrors } from './row-mapper.js';

const NOT_FOUND = 'Contact import not found.';
const PREVIEW_ROWS = 10;

export interface ImportOwner {
  tenant: Tenant;
  userId: string;
}

export type { UploadPart };

function readOptions(row: ImportRow): ReadOptions {
  return { fileType: row.file_type ?? 'csv', encoding: row.input_encoding, delimiter: row.delimiter, enclosure: row.enclosure, sheetIndex: row.sheet_index };
}

/** The column names: the header row's cells, or "Column N" where there is none. */
async function detectColumns(path: string, options: ReadOptions, header: number | null) {
  const rows: Array<{ row: number; cells: string[] }> = [];
  let headerCells: string[] = [];
  for await (const source of readRows(path, options, (header ?? 0) + PREVIEW_ROWS + 50)) {
    if (header !== null && source.row < header) continue;
    if (header !== null && source.row === header) {
      headerCells = source.cells;
      continue;
    }
    rows.push(source);
    if (rows.length >= PREVIEW_ROWS) break;
  }
  const width = Math.max(headerCells.length, ...rows.map((r) => r.cells.length), 0);
  const columns = Array.from({ length: width }, (_, i) => headerCells[i]?.trim() || `Column ${i + 1}`);
  return { columns, rows };
}

/** Contact imports: upload, preview, mapping, confirmation, reading and deletion, by their owner only. */
export class ContactImportsService {
  constructor(private readonly ctx: AppContext) {}

  private importsDir(): string {
    return join(this.ctx.config.dataDir, 'imports');
  }

  async get(owner: ImportOwner, id: string): Promise<ImportRow> {
    const row = await findOwnImport(this.ctx.db, owner.tenant, owner.userId, id);
    if (!row) throw new NotFound(NOT_FOUND);
    return row;
  }

  async withRelations(row: ImportRow, include: Set<string>) {
    return presentImport(row, {
      records: include.has('records') ? await importRecords(this.ctx.db, row.id) : undefined,
      errors: include.has('errors') ? await importErrors(this.ctx.db, row.id) : undefined,
    });
  }

  list(owner: ImportOwner, status: ImportStatus | undefined, sort: SortTerm[], page: PageRequest) {
    return listOwnImports(this.ctx.db, owner.tenant, owner.userId, status, sort, page);
  }

  /**
   * Stores the uploaded file under `<dataDir>/imports`, reads its type, encoding, delimiter and
   * columns, and records an `incomplete` import. A file that cannot be read is refused with 422
   * and not kept.
   */
  async create(owner: ImportOwner, parts: AsyncIterable<UploadPart>): Promise<ImportRow> {
    const id = randomUUID();
    await mkdir(this.importsDir(), { recursive: true });
    const path = join(this.importsDir(), id);
    const fields: Record<string, string> = {};
    let fileName: string | null = null;
    let size = 0;
    try {
      for await (const part of parts) {
        if (part.type === 'field') {
          fields[part.fieldname] = part.value;
          continue;
        }
        if (part.fieldname !== 'file' || fileName !== null) throw ValidationFailed.field('file', 'Send exactly one file, in the part named file.');
        fileName = part.filename || 'upload';
        part.file.on('data', (chunk: Buffer) => (size += chunk.length));
        await saveUpload(part.file, path, 'file');
        if ((part.file as Readable & { truncated?: boolean }).truncated)
          throw new ClientError(413, `The file is larger than ${this.ctx.config.importMaxBytes} bytes.`);
      }
      if (fileName === null) throw ValidationFailed.field('file', 'The file field is required.');
      const options = parseImportOptions(fields);
      if (options.webhook_url) {
        try {
          await assertPublicUrl(options.webhook_url, this.ctx.config.webhookAllowPrivate);
        } catch (error) {
          throw ValidationFailed.field('webhook_url', `The webhook url is not allowed: ${(error as Error).message}.`);
        }
      }
      const sniffed = await sniffFile(path, fileName, { encoding: options.input_encoding, delimiter: options.delimiter, enclosure: options.enclosure });
      const isCsv = sniffed.fileType === 'csv';
      const readWith: ReadOptions = {
        fileType: sniffed.fileType,
        encoding: sniffed.encoding,
        delimiter: sniffed.delimiter,
        enclosure: isCsv ? (options.enclosure ?? '"') : null,
        sheetIndex: isCsv ? null : (options.sheet_index ?? 0),
      };
      const { columns, rows } = await detectColumns(path, readWith, options.header_row_position);
      if (columns.length === 0 || (rows.length === 0 && options.header_row_position === null))
        throw ValidationFailed.field('file', 'The file contains no rows.');
      if (rows.length === 0) throw ValidationFailed.field('file', 'The file contains a header but no data rows.');

      const now = this.ctx.clock.now().toISOString();
      const created = await this.ctx.db.transaction().execute(async (trx) => {
        await insertImport(trx, {
          id,
          pbx_id: owner.tenant.pbxId,
          user_id: owner.userId,
          status: 'incomplete',
          file_type: sniffed.fileType,
          original_name: fileName!.slice(0, 255),
          stored_path: null,
          file_size: size,
          header_row_position: options.header_row_position,
          sheet_index: readWith.sheetIndex,
          delimiter: readWith.delimiter,
          enclosure: readWith.enclosure,
          input_encoding: readWith.encoding,
          skip_on_error: options.skip_on_error ? 1 : 0,
          notify_owner_by_email: options.notify_owner_by_email ? 1 : 0,
          webhook_url: options.webhook_url,
          columns: JSON.stringify(columns),
          failure_reason: null,
          created_at: now,
          updated_at: now,
          started_at: null,
          completed_at: null,
        });
        await storeImportFile(trx, id, path);
        const row = (await findImportById(trx, id))!;
        await subscribeImportWebhook(trx, this.ctx, row);
        await emitImportEvent(trx, this.ctx, row, 'created');
        return row;
      });
      // The database holds the file now: the local copy was only for the size limit and detection.
      await rm(path, { force: true });
      return created;
    } catch (error) {
      await rm(path, { force: true });
      // Drain what is left of the request so the client gets the answer, not a reset.
      for await (const part of parts) if (part.type === 'file') part.file.resume();
      throw error;
    }
  }

  /** The detected columns and the first data rows, to build a mapping. */
  async preview(owner: ImportOwner, id: string) {
    const row = await this.get(owner, id);
    const read = await withImportFile(this.ctx.db, row, async (path) => ({
      rows: (await detectColumns(path, readOptions(row), row.header_row_position)).rows,
      sheets: row.file_type === 'csv' || !row.file_type ? [] : await sheetNames(path, row.file_type),
    }));
    if (!read) throw new NotFound(NOT_FOUND);
    const columns = JSON.parse(row.columns) as string[];
    return {
      file_type: row.file_type ?? 'csv',
      delimiter: row.delimiter,
      input_encoding: row.input_encoding,
      header_row_position: row.header_row_position,
      sheet_index: row.sheet_index,
      sheets: read.sheets,
      columns: columns.map((name, index) => ({ index, name })),
      rows: read.rows,
      fields: [...IMPORT_FIELDS],
    };
  }

  /** Saves the mapping of an incomplete import; it can then be confirmed. */
  async saveMappings(owner: ImportOwner, id: string, mappings: ImportMappingT[]): Promise<ImportRow> {
    const row = await this.get(owner, id);
    if (row.status !== 'incomplete') throw ValidationFailed.field('status', 'Only an incomplete import can be mapped.');
    const errors = mappingErrors(mappings, (JSON.parse(row.columns) as string[]).length);
    if (Object.keys(errors).length) throw new ValidationFailed(errors);
    await updateImport(this.ctx.db, id, { mappings: JSON.stringify(mappings), updated_at: this.ctx.clock.now().toISOString() });
    return this.get(owner, id);
  }

  /** incomplete -> pending, and the background job is queued in the same transaction. */
  async confirm(owner: ImportOwner, id: string): Promise<ImportRow> {
    const row = await this.get(owner, id);
    if (row.status !== 'incomplete') throw ValidationFailed.field('status', 'This import has already been confirmed.');
    if ((JSON.parse(row.mappings) as unknown[]).length === 0) throw ValidationFailed.field('mappings', 'Save a mapping before confirming the import.');
    await this.ctx.db.transaction().execute(async (trx) => {
      const result = await trx
        .updateTable('contact_imports')
        .set({ status: 'pending', updated_at: this.ctx.clock.now().toISOString() })
        .where('id', '=', id)
        .where('status', '=', 'incomplete')
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) === 0) throw ValidationFailed.field('status', 'This import has already been confirmed.');
      await processImport.enqueue(trx, this.ctx.clock, { importId: id });
    });
    return this.get(owner, id);
  }

  /** Deletes the import with its records, errors, file (its row cascades) and webhook subscription, in any status; its contacts stay. */
  async remove(owner: ImportOwner, id: string): Promise<void> {
    const row = await this.get(owner, id);
    await this.ctx.db.transaction().execute(async (trx) => {
      await unsubscribeImportWebhook(trx, row);
      await deleteImport(trx, row.id);
    });
    if (row.stored_path) await rm(row.stored_path, { force: true });
  }
}
