import { v7 as timeOrderedId } from 'uuid';
import type { Insertable, Transaction } from 'kysely';
import type { DB } from '../../../db/schema.js';
import { insertRows } from '../../../db/bulk-insert.js';
import { plannerStatisticsKeeper } from '../../../db/planner-statistics.js';
import type { AppContext } from '../../../platform/context.js';
import { defineJob, JobInterrupted, type RunningJob } from '../../../platform/jobs/jobs.js';
import type { ContactNumberTable, ContactTable } from '../address-book.tables.js';
import { countryOf } from '../contacts/contacts.service.js';
import type { ImportMappingT } from './contact-imports.schemas.js';
import type { ContactImportErrorTable, ContactImportRecordTable } from '../address-book.tables.js';
import { findImportById, updateImport } from './contact-imports.queries.js';
import { announceEnd, emitImportEvent, publishImportProgress } from './contact-imports.events.js';
import type { ImportRow } from './contact-imports.presenter.js';
import { readRows, type SourceRow } from './file-reading.js';
import { withImportFile } from './import-files.js';
import { mapRow, type Candidate, type PhoneCache } from './row-mapper.js';

const CHUNK_ROWS = 1000;
/** Errors kept per import (all are counted); enough to fix a file, bounded for a huge bad one. */
const MAX_STORED_ERRORS = 10_000;

class ImportAborted extends Error {}

interface DataRow extends SourceRow {
  /** Position among data rows (after the header), the unit of the restart checkpoint. */
  ordinal: number;
}

/** The rows after the header, numbered for the checkpoint. */
async function* dataRows(row: ImportRow): AsyncGenerator<DataRow> {
  let ordinal = 0;
  const header = row.header_row_position;
  for await (const source of readRows(row.stored_path ?? '', {
    fileType: row.file_type ?? 'csv',
    encoding: row.input_encoding,
    delimiter: row.delimiter,
    enclosure: row.enclosure,
    sheetIndex: row.sheet_index,
  })) {
    if (header !== null && source.row <= header) continue;
    yield { row: source.row, cells: source.cells, ordinal: ++ordinal };
  }
}

function rowData(columns: string[], cells: string[]): Record<string, string> {
  const data: Record<string, string> = {};
  const count = Math.max(columns.length, cells.length);
  for (let i = 0; i < count; i++) data[columns[i] ?? `Column ${i + 1}`] = cells[i] ?? '';
  return data;
}

function errorRows(importId: string, row: number, candidate: Candidate, data: Record<string, string>): Array<Insertable<ContactImportErrorTable>> {
  return [...candidate.errors].map(([attribute, messages]) => ({
    id: timeOrderedId(),
    import_id: importId,
    row,
    attribute,
    messages: JSON.stringify(messages),
    row_data: JSON.stringify(data),
  }));
}

/** The row's non-empty fields, which overwrite those of a contact it matches. */
function filledFields(candidate: Candidate): Partial<Insertable<ContactTable>> {
  return Object.fromEntries(Object.entries(candidate.fields).filter(([, v]) => v !== null && v !== ''));
}

async function insertInBatches<T>(items: T[], size: number, insert: (batch: T[]) => Promise<unknown>): Promise<void> {
  for (let i = 0; i < items.length; i += size) await insert(items.slice(i, i + size));
}

/** A contact the current chunk touches, created by it or found in the database. */
interface Target {
  id: string;
  isNew: boolean;
  /** Insert row of a contact created in this chunk; fields merge into it. */
  insert: Insertable<ContactTable> | null;
  update: Partial<Insertable<ContactTable>> | null;
  trashed: boolean;
  numbers: Set<string>;
  numberCount: number;
}

/**
 * Runs one confirmed import: pending -> processing -> completed | completed_with_errors | failed.
 *
 * Matching rule: a row updates an existing contact of the same PBX and the same visibility
 * (global contacts, or the importer's private ones when the importer may not manage global
 * contacts), soft-deleted ones included (restored, `was_trashed`): first a contact having one of
 * the row's numbers (E.164), else one with the same e-mail (case-insensitive); the oldest wins.
 * Non-empty cells overwrite fields, new numbers are added, groups are joined.
 *
 * Without `skip_on_error` the whole file is validated first and one invalid row fails the import
 * with nothing written. Rows are then written in chunks, each in one transaction that also
 * advances the `processed_rows` checkpoint (compare-and-set), so a restart resumes after the last
 * committed chunk and no row is ever imported twice.
 */
export class ImportProcessor {
  private storedErrors = 0;
  /** Each distinct number of the file parsed once (the validation pass and the writing pass share it). */
  private readonly phones: PhoneCache = new Map();

  constructor(
    private readonly ctx: AppContext,
    private readonly job: RunningJob | null,
  ) {}

  async run(importId: string): Promise<void> {
    let row = await findImportById(this.ctx.db, importId);
    if (!row || (row.status !== 'pending' && row.status !== 'processing')) return;
    if (row.status === 'pending') {
      const now = this.ctx.clock.now().toISOString();
      row = await this.ctx.db.transaction().execute(async (trx) => {
        await updateImport(trx, importId, { status: 'processing', started_at: now, updated_at: now });
        const updated = (await findImportById(trx, importId))!;
        await emitImportEvent(trx, this.ctx, updated, 'processing');
        return updated;
      });
    }
    // The file comes from the database (whichever instance received it), written to a temporary
    // path for this run; an import made before that reads the uploading instance's copy.
    const current = row;
    const processed = await withImportFile(this.ctx.db, current, async (path) => {
      await this.process({ ...current, stored_path: path });
      return true;
    });
    if (processed === null) throw new Error('The uploaded file of this import is no longer available.');
  }

  /** The run proper; `row.stored_path` is where the file can be read during it. */
  private async process(row: ImportRow): Promise<void> {
    this.storedErrors = row.errors_count;
    const mappings = JSON.parse(row.mappings) as ImportMappingT[];
    const columns = JSON.parse(row.columns) as string[];
    const country = await countryOf(this.ctx.db, { pbxId: row.pbx_id });
    const groups = await this.ctx.db.selectFrom('contact_groups').select(['id', 'name']).where('pbx_id', '=', row.pbx_id).execute();
    const groupsByName = new Map(groups.map((g) => [g.name.toLowerCase(), g.id]));
    const owner = await this.ctx.db.selectFrom('users').select('allow_manage_global_contacts').where('id', '=', row.user_id).executeTakeFirst();
    const privateOwner = owner?.allow_manage_global_contacts === 1 ? null : row.user_id;

    if (row.skip_on_error !== 1 && row.processed_rows === 0) {
      const failed = await this.validateAll(row, mappings, columns, country, groupsByName);
      if (failed) return;
    }
    if (row.total_rows === null) row = await this.countRows(row);

    let chunk: DataRow[] = [];
    let checkpoint = row.processed_rows;
    // Each chunk looks its numbers and e-mails up among the contacts the earlier chunks wrote.
    const keepStatistics = plannerStatisticsKeeper(this.ctx.db, this.ctx.dialect, ['contacts', 'contact_numbers']);
    for await (const data of dataRows(row)) {
      if (data.ordinal <= row.processed_rows) continue;
      chunk.push(data);
      if (chunk.length >= CHUNK_ROWS) {
        checkpoint = await this.writeChunk(row, chunk, checkpoint, { mappings, columns, country, groupsByName, privateOwner });
        chunk = [];
        await keepStatistics(checkpoint - row.processed_rows);
        await this.checkIn();
      }
    }
    if (chunk.length) await this.writeChunk(row, chunk, checkpoint, { mappings, columns, country, groupsByName, privateOwner });
    await this.finish(row.id);
  }

  /** Keeps the lease, and stops between chunks when the worker shuts down (the job resumes elsewhere). */
  private async checkIn(): Promise<void> {
    if (!this.job) return;
    if (!(await this.job.heartbeat())) throw new ImportAborted('another worker took this import over');
    if (this.job.signal.aborted) throw new JobInterrupted();
  }

  /** Without skip_on_error: any invalid row fails the import before anything is written. */
  private async validateAll(
    row: ImportRow,
    mappings: ImportMappingT[],
    columns: string[],
    country: string,
    groupsByName: Map<string, string>,
  ): Promise<boolean> {
    const errors: Array<Insertable<ContactImportErrorTable>> = [];
    let invalidRows = 0;
    let seen = 0;
    for await (const data of dataRows(row)) {
      const candidate = mapRow(data.cells, mappings, country, groupsByName, this.phones);
      if (candidate.errors.size) {
        invalidRows++;
        if (errors.length < MAX_STORED_ERRORS) errors.push(...errorRows(row.id, data.row, candidate, rowData(columns, data.cells)));
      }
      if (++seen % 5000 === 0) await this.checkIn();
    }
    // The pass has counted the rows: progress needs no second one.
    row.total_rows = seen;
    await updateImport(this.ctx.db, row.id, { total_rows: seen });
    if (invalidRows === 0) return false;
    const now = this.ctx.clock.now().toISOString();
    await this.ctx.db.transaction().execute(async (trx) => {
      await insertRows(trx, this.ctx.dialect, 'contact_import_errors', errors, 500);
      const result = await trx
        .updateTable('contact_imports')
        .set({
          status: 'failed',
          errors_count: invalidRows,
          completed_at: now,
          updated_at: now,
          failure_reason: `${invalidRows} row(s) are invalid and skip_on_error is off, so nothing was imported.`,
        })
        .where('id', '=', row.id)
        .where('status', '=', 'processing')
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) === 0) throw new ImportAborted('the import changed meanwhile');
      await announceEnd(trx, this.ctx, (await findImportById(trx, row.id))!);
    });
    return true;
  }

  private async writeChunk(
    row: ImportRow,
    chunk: DataRow[],
    checkpoint: number,
    setup: { mappings: ImportMappingT[]; columns: string[]; country: string; groupsByName: Map<string, string>; privateOwner: string | null },
  ): Promise<number> {
    const now = this.ctx.clock.now().toISOString();
    const candidates = chunk.map((data) => ({ data, candidate: mapRow(data.cells, setup.mappings, setup.country, setup.groupsByName, this.phones) }));
    const valid = candidates.filter((c) => c.candidate.errors.size === 0);
    const next = chunk[chunk.length - 1].ordinal;

    await this.ctx.db.transaction().execute(async (trx) => {
      const targets = await this.findTargets(
        trx,
        row.pbx_id,
        setup.privateOwner,
        valid.map((v) => v.candidate),
      );
      const byNumber = targets.byNumber;
      const byEmail = targets.byEmail;
      const touched = new Map<string, Target>();
      const newNumbers: Array<Insertable<ContactNumberTable>> = [];
      const memberships: Array<{ group_id: string; contact_id: string }> = [];
      const records: Array<Insertable<ContactImportRecordTable>> = [];
      const errors: Array<Insertable<ContactImportErrorTable>> = [];

      for (const { data, candidate } of candidates) {
        if (candidate.errors.size) {
          errors.push(...errorRows(row.id, data.row, candidate, rowData(setup.columns, data.cells)));
          continue;
        }
        let target: Target | undefined;
        for (const n of candidate.numbers) if ((target = byNumber.get(n.phone_number))) break;
        if (!target && candidate.emailNormalized) target = byEmail.get(candidate.emailNormalized);
        let isNew = false;
        let wasTrashed = false;
        if (!target) {
          isNew = true;
          const id = timeOrderedId();
          target = {
            id,
            isNew: true,
            insert: {
              id,
              pbx_id: row.pbx_id,
              name1: candidate.fields.name1,
              name2: candidate.fields.name2,
              email: candidate.fields.email,
              email_normalized: candidate.emailNormalized,
              company_name: candidate.fields.company_name,
              department: candidate.fields.department,
              job_title: candidate.fields.job_title,
              notes: candidate.fields.notes,
              vip: candidate.fields.vip ?? 0,
              private_owner_id: setup.privateOwner,
              is_blocked_globally: 0,
              handling_strategy: null,
              created_at: now,
              updated_at: now,
            },
            update: null,
            trashed: false,
            numbers: new Set(),
            numberCount: 0,
          };
        } else if (target.insert) {
          Object.assign(target.insert, filledFields(candidate), candidate.emailNormalized ? { email_normalized: candidate.emailNormalized } : {});
        } else {
          wasTrashed = target.trashed;
          target.trashed = false;
          target.update = {
            ...(target.update ?? {}),
            ...filledFields(candidate),
            ...(candidate.emailNormalized ? { email_normalized: candidate.emailNormalized } : {}),
            deleted_at: null,
            updated_at: now,
          };
        }
        touched.set(target.id, target);
        for (const number of candidate.numbers) {
          if (target.numbers.has(number.phone_number)) continue;
          target.numbers.add(number.phone_number);
          newNumbers.push({
            phone_number_raw: number.phone_number_raw,
            phone_number: number.phone_number,
            label: number.label,
            type: number.type,
            speed_dial: number.speed_dial,
            id: timeOrderedId(),
            contact_id: target.id,
            pbx_id: row.pbx_id,
            position: target.numberCount++,
            created_at: now,
            updated_at: now,
          });
          byNumber.set(number.phone_number, target);
        }
        if (candidate.emailNormalized && !byEmail.has(candidate.emailNormalized)) byEmail.set(candidate.emailNormalized, target);
        for (const groupId of candidate.groupIds) memberships.push({ group_id: groupId, contact_id: target.id });
        records.push({ id: timeOrderedId(), import_id: row.id, row: data.row, model_id: target.id, is_new: isNew ? 1 : 0, was_trashed: wasTrashed ? 1 : 0 });
      }

      const storedErrors = Math.max(0, Math.min(errors.length, MAX_STORED_ERRORS - this.storedErrors));
      const counted = await trx
        .updateTable('contact_imports')
        .set((eb) => ({
          processed_rows: next,
          records_count: eb('records_count', '+', records.length),
          errors_count: eb('errors_count', '+', new Set(errors.map((e) => e.row)).size),
          updated_at: now,
        }))
        .where('id', '=', row.id)
        .where('status', '=', 'processing')
        .where('processed_rows', '=', checkpoint)
        .returning(['processed_rows', 'records_count', 'errors_count', 'total_rows', 'updated_at'])
        .executeTakeFirst();
      // Someone else wrote this chunk, or the import was deleted: undo everything of this chunk.
      if (!counted) throw new ImportAborted('the import checkpoint moved; this chunk is already written');

      const inserts = [...touched.values()].filter((t) => t.insert).map((t) => t.insert!);
      await insertRows(trx, this.ctx.dialect, 'contacts', inserts, 1000);
      for (const t of touched.values())
        if (t.update) await trx.updateTable('contacts').set(t.update).where('id', '=', t.id).where('pbx_id', '=', row.pbx_id).execute();
      await insertRows(trx, this.ctx.dialect, 'contact_numbers', newNumbers, 1500);
      await insertInBatches(memberships, 500, (batch) =>
        trx
          .insertInto('contact_group_members')
          .values(batch)
          .onConflict((oc) => oc.columns(['group_id', 'contact_id']).doNothing())
          .execute(),
      );
      await insertRows(trx, this.ctx.dialect, 'contact_import_records', records, 2000);
      await insertRows(trx, this.ctx.dialect, 'contact_import_errors', errors.slice(0, storedErrors), 500);
      await publishImportProgress(trx, this.ctx, { ...row, ...counted, status: 'processing' });
      this.storedErrors += storedErrors;
    });
    return next;
  }

  /** Existing contacts matching the chunk's numbers and e-mails, oldest first, with their numbers. */
  private async findTargets(trx: Transaction<DB>, pbxId: string, privateOwner: string | null, candidates: Candidate[]) {
    const numbers = [...new Set(candidates.flatMap((c) => c.numbers.map((n) => n.phone_number)))];
    const emails = [...new Set(candidates.map((c) => c.emailNormalized).filter((e): e is string => !!e))];
    const byNumber = new Map<string, Target>();
    const byEmail = new Map<string, Target>();
    const found = new Map<string, Target>();
    const target = (c: { id: string; deleted_at: string | null }) => {
      let t = found.get(c.id);
      if (!t) {
        t = { id: c.id, isNew: false, insert: null, update: null, trashed: c.deleted_at !== null, numbers: new Set(), numberCount: 0 };
        found.set(c.id, t);
      }
      return t;
    };
    // Visibility is checked here rather than in SQL, so the planner keeps to the number and e-mail indexes.
    const inScope = (r: { private_owner_id: string | null }) => r.private_owner_id === privateOwner;
    // Two single-table queries (number index, then primary key): plans stay simple on both dialects.
    const numberHits: Array<{ contact_id: string; phone_number: string }> = [];
    for (let i = 0; i < numbers.length; i += 500) {
      numberHits.push(
        ...(await trx
          .selectFrom('contact_numbers')
          .select(['contact_id', 'phone_number'])
          .where('pbx_id', '=', pbxId)
          .where('phone_number', 'in', numbers.slice(i, i + 500))
          .execute()),
      );
    }
    const hitIds = [...new Set(numberHits.map((h) => h.contact_id))];
    const owners = new Map<string, { id: string; deleted_at: string | null; created_at: string; private_owner_id: string | null }>();
    for (let i = 0; i < hitIds.length; i += 500) {
      const rows = await trx
        .selectFrom('contacts')
        .select(['id', 'deleted_at', 'created_at', 'private_owner_id'])
        .where('pbx_id', '=', pbxId)
        .where('id', 'in', hitIds.slice(i, i + 500))
        .execute();
      for (const r of rows) owners.set(r.id, r);
    }
    const oldestFirst = numberHits
      .map((h) => ({ hit: h, contact: owners.get(h.contact_id) }))
      .filter(
        (
          x,
        ): x is {
          hit: { contact_id: string; phone_number: string };
          contact: { id: string; deleted_at: string | null; created_at: string; private_owner_id: string | null };
        } => !!x.contact && inScope(x.contact),
      )
      .sort((a, b) =>
        a.contact.created_at === b.contact.created_at ? (a.contact.id < b.contact.id ? -1 : 1) : a.contact.created_at < b.contact.created_at ? -1 : 1,
      );
    for (const { hit, contact } of oldestFirst) if (!byNumber.has(hit.phone_number)) byNumber.set(hit.phone_number, target(contact));
    for (let i = 0; i < emails.length; i += 500) {
      const rows = await trx
        .selectFrom('contacts')
        .select(['contacts.id', 'contacts.deleted_at', 'contacts.email_normalized', 'contacts.private_owner_id'])
        .where('contacts.pbx_id', '=', pbxId)
        .where('contacts.email_normalized', 'in', emails.slice(i, i + 500))
        .orderBy('contacts.created_at')
        .orderBy('contacts.id')
        .execute();
      for (const r of rows) if (inScope(r) && r.email_normalized && !byEmail.has(r.email_normalized)) byEmail.set(r.email_normalized, target(r));
    }
    const ids = [...found.keys()];
    for (let i = 0; i < ids.length; i += 500) {
      const rows = await trx
        .selectFrom('contact_numbers')
        .select(['contact_id', 'phone_number'])
        .where('contact_id', 'in', ids.slice(i, i + 500))
        .execute();
      for (const r of rows) {
        const t = found.get(r.contact_id)!;
        t.numbers.add(r.phone_number);
        t.numberCount++;
      }
    }
    return { byNumber, byEmail };
  }

  /** Counts the file's data rows (a pass over the file without mapping them), for progress. */
  private async countRows(row: ImportRow): Promise<ImportRow> {
    let total = 0;
    for await (const _ of dataRows(row)) if (++total % 5000 === 0) await this.checkIn();
    await updateImport(this.ctx.db, row.id, { total_rows: total });
    return { ...row, total_rows: total };
  }

  private async finish(importId: string): Promise<void> {
    const now = this.ctx.clock.now().toISOString();
    await this.ctx.db.transaction().execute(async (trx) => {
      const current = await findImportById(trx, importId);
      if (!current || current.status !== 'processing') throw new ImportAborted('the import changed meanwhile');
      await updateImport(trx, importId, { status: current.errors_count > 0 ? 'completed_with_errors' : 'completed', completed_at: now, updated_at: now });
      await announceEnd(trx, this.ctx, (await findImportById(trx, importId))!);
    });
  }
}

/** Marks an import failed for good (the job ran out of attempts). */
export async function failImport(ctx: AppContext, importId: string, reason: string): Promise<void> {
  const now = ctx.clock.now().toISOString();
  await ctx.db.transaction().execute(async (trx) => {
    const current = await findImportById(trx, importId);
    if (!current || (current.status !== 'pending' && current.status !== 'processing')) return;
    await updateImport(trx, importId, { status: 'failed', failure_reason: reason.slice(0, 1000), completed_at: now, updated_at: now });
    await announceEnd(trx, ctx, (await findImportById(trx, importId))!);
  });
}

export const processImport = defineJob<{ importId: string }>({
  kind: 'contact_import.process',
  maxAttempts: 3,
  async run(ctx, { importId }, job) {
    try {
      await new ImportProcessor(ctx, job).run(importId);
    } catch (error) {
      // Another worker owns the import now (or it was deleted): nothing left to do here.
      if (error instanceof ImportAborted) return;
      throw error;
    }
  },
  async onExhausted(ctx, { importId }, error) {
    await failImport(ctx, importId, error);
  },
});
