import { Type } from '@sinclair/typebox';
import { StringEnum } from '../../../http/schema.js';
import type { AppContext } from '../../../platform/context.js';
import { defineEventKind } from '../../../platform/events/index.js';
import { defineJob } from '../../../platform/jobs/jobs.js';
import { enqueueWebhook } from '../../../platform/webhooks/webhooks.js';
import { findImportById } from './contact-imports.queries.js';
import { presentImport, presentImportProgress, type ImportRow } from './contact-imports.presenter.js';
import { ContactImport } from './contact-imports.schemas.js';
import type { Executor } from '../../../db/database.js';

export type ImportEvent = 'created' | 'processing' | 'completed' | 'completed_with_errors' | 'failed';

/**
 * Live events of a running import, for its owner, who alone reads it (`GET /contacts/imports/{id}`):
 * its progress as it starts and after each chunk of rows, then its end. The import's counts and
 * times as its GET shows them, not its mappings or rows.
 */
const fields = ContactImport.properties;
const progressFields = {
  id: fields.id,
  file_name: fields.file_name,
  total_rows: fields.total_rows,
  processed_rows: fields.processed_rows,
  records_count: fields.records_count,
  errors_count: fields.errors_count,
  progress: fields.progress,
  started_at: fields.started_at,
};
const example = {
  id: 'cb4adce6-120d-48cf-b066-f5f506290a23',
  file_name: 'suppliers.csv',
  total_rows: 25000,
  processed_rows: 12000,
  records_count: 11990,
  errors_count: 10,
  progress: 48,
  started_at: '2026-11-02T08:30:00.000Z',
};
const IMPORT = { subject: 'contact_import', pbxKey: false } as const;

export const importProgress = defineEventKind({
  ...IMPORT,
  kind: 'contact_import.progress',
  description: 'A contact import started processing, or wrote another chunk of rows: how many rows are processed, imported and refused so far.',
  data: Type.Object({ ...progressFields, status: StringEnum(['processing']) }, { examples: [{ ...example, status: 'processing' }] }),
});

export const importCompleted = defineEventKind({
  ...IMPORT,
  kind: 'contact_import.completed',
  description:
    'A contact import finished: every row processed (`completed_with_errors` when some were refused, see `GET /contacts/imports/{id}?include=errors`).',
  data: Type.Object(
    { ...progressFields, status: StringEnum(['completed', 'completed_with_errors']), completed_at: Type.String({ format: 'date-time' }) },
    {
      examples: [
        { ...example, processed_rows: 25000, records_count: 24990, progress: 100, status: 'completed_with_errors', completed_at: '2026-11-02T08:31:10.000Z' },
      ],
    },
  ),
});

export const importFailed = defineEventKind({
  ...IMPORT,
  kind: 'contact_import.failed',
  description: 'A contact import failed (`failure_reason`): invalid rows without skip_on_error (nothing imported), or the job ran out of attempts.',
  data: Type.Object(
    {
      ...progressFields,
      status: StringEnum(['failed']),
      failure_reason: Type.String(),
      completed_at: Type.String({ format: 'date-time' }),
    },
    {
      examples: [
        {
          ...example,
          processed_rows: 0,
          records_count: 0,
          errors_count: 3,
          progress: 0,
          status: 'failed',
          failure_reason: '3 row(s) are invalid and skip_on_error is off, so nothing was imported.',
          completed_at: '2026-11-02T08:30:20.000Z',
        },
      ],
    },
  ),
});

/** The import's live event for its status (none before it is processed), in the transaction of the change. */
export async function publishImportProgress(db: Executor, ctx: AppContext, row: ImportRow): Promise<void> {
  const base = { pbxId: row.pbx_id, subject: { type: 'contact_import', id: row.id }, audience: { scope: 'owners' as const, userIds: [row.user_id] } };
  const progress = presentImportProgress(row);
  const ended = row.completed_at ?? row.updated_at;
  if (row.status === 'processing') await ctx.events.publish(db, { ...base, kind: importProgress, data: { ...progress, status: 'processing' } });
  else if (row.status === 'completed' || row.status === 'completed_with_errors')
    await ctx.events.publish(db, { ...base, kind: importCompleted, data: { ...progress, status: row.status, completed_at: ended } });
  else if (row.status === 'failed')
    await ctx.events.publish(db, {
      ...base,
      kind: importFailed,
      data: { ...progress, status: 'failed', failure_reason: row.failure_reason ?? '', completed_at: ended },
    });
}

/**
 * Lifecycle webhook `contact_import.<event>` with the import as `data` (when the import names a
 * `webhook_url`), and the live event of its status, queued in the caller's transaction so both
 * exist exactly when the state change does.
 */
export async function emitImportEvent(db: Executor, ctx: AppContext, row: ImportRow, event: ImportEvent): Promise<void> {
  await publishImportProgress(db, ctx, row);
  if (!row.webhook_url) return;
  await enqueueWebhook(db, ctx.clock, {
    pbxId: row.pbx_id,
    userId: row.user_id,
    event: `contact_import.${event}`,
    subjectType: 'contact_import',
    subjectId: row.id,
    url: row.webhook_url,
    data: presentImport(row),
  });
}

/** The end of an import as the owner reads it in the notification e-mail. */
const OUTCOME: Record<string, string> = {
  completed: 'completed',
  completed_with_errors: 'completed with errors',
  failed: 'failed',
};

/** `notify_owner_by_email`: one e-mail to the owner when the import ends, sent by a job so it is retried. */
export const notifyImportOwner = defineJob<{ importId: string }>({
  kind: 'contact_import.notify',
  maxAttempts: 5,
  async run(ctx, { importId }) {
    const row = await findImportById(ctx.db, importId);
    if (!row) return;
    const owner = await ctx.db.selectFrom('users').select(['email', 'first_name']).where('id', '=', row.user_id).executeTakeFirst();
    if (!owner) return;
    const outcome = OUTCOME[row.status] ?? row.status;
    const lines = [
      `Hello ${owner.first_name || owner.email},`,
      '',
      `your contact import${row.original_name ? ` of ${row.original_name}` : ''} has ${outcome}.`,
      `Contacts imported: ${row.records_count}`,
      `Rows with errors: ${row.errors_count}`,
      ...(row.failure_reason ? [`Reason: ${row.failure_reason}`] : []),
      '',
      `Details: ${ctx.config.baseUrl}/contacts/imports/${row.id}?include=errors`,
    ];
    await ctx.mailer.send({ to: owner.email, subject: `Contact import ${outcome}`, text: lines.join('\n') });
  },
});

/** Queues the end-of-import side effects (webhook and e-mail) in the transaction that ends it. */
export async function announceEnd(db: Executor, ctx: AppContext, row: ImportRow): Promise<void> {
  await emitImportEvent(db, ctx, row, row.status as ImportEvent);
  if (row.notify_owner_by_email === 1) await notifyImportOwner.enqueue(db, ctx.clock, { importId: row.id });
}
