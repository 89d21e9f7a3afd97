import { Type, type TObject } from '@sinclair/typebox';
import { StringEnum } from '../../../http/schema.js';
import type { AppContext } from '../../../platform/context.js';
import { defineEventKind, type EventKind } from '../../../platform/events/index.js';
import { defineJob } from '../../../platform/jobs/jobs.js';
import { insertWebhookSubscription, removeOwnedSubscriptions } from '../../../platform/webhooks/subscriptions.js';
import { findImportById } from './contact-imports.queries.js';
import { presentImport, presentImportProgress, type ImportRow } from './contact-imports.presenter.js';
import { ContactImport } from './contact-imports.schemas.js';
import type { Executor } from '../../../db/database.js';

export type ImportEvent = 'created' | 'processing' | 'completed' | 'completed_with_errors' | 'failed';

/**
 * Live events of an import, for its owner, who alone reads it (`GET /contacts/imports/{id}`): each
 * step of its life (created, processing, then completed, completed with errors or failed) with the
 * whole import as its GET shows it, and between them the progress after each chunk of rows. An
 * import's `webhook_url` is a webhook subscription to its five steps (see `subscribeImportWebhook`).
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
  description:
    'A contact import wrote another chunk of rows: how many rows are processed, imported and refused so far (its start is `contact_import.processing`).',
  data: Type.Object({ ...progressFields, status: StringEnum(['processing']) }, { examples: [{ ...example, status: 'processing' }] }),
});

/** The import as `GET /contacts/imports/{id}` shows it (without `records` and `errors`), in one status. */
const { records: _records, errors: _errors, ...importFields } = fields;
const [importExample] = ContactImport.examples as Array<Record<string, unknown>>;
type ImportData = TObject<typeof importFields>;
function importIn(status: ImportEvent, description: string, example: Record<string, unknown>): EventKind<ImportData> {
  return defineEventKind({
    ...IMPORT,
    kind: `contact_import.${status}`,
    description: `${description} The import as \`GET /contacts/imports/{id}\` shows it.`,
    data: Type.Object(
      { ...importFields, status: StringEnum([status === 'created' ? 'incomplete' : status]) },
      { examples: [{ ...importExample, ...example }] },
    ),
  });
}

const notStarted = { total_rows: null, processed_rows: 0, records_count: 0, errors_count: 0, progress: null, started_at: null, completed_at: null };
const LIFECYCLE = {
  created: importIn('created', 'A contact import was uploaded: its columns are read, it waits for a mapping and its confirmation.', {
    ...notStarted,
    status: 'incomplete',
    can_confirm: false,
    mappings: [],
  }),
  processing: importIn('processing', 'A contact import started processing its rows.', { ...notStarted, status: 'processing', started_at: example.started_at }),
  completed: importIn('completed', 'A contact import finished: every row imported.', {
    status: 'completed',
    errors_count: 0,
    records_count: 2,
    processed_rows: 2,
  }),
  completed_with_errors: importIn('completed_with_errors', 'A contact import finished, some rows refused (see `GET /contacts/imports/{id}?include=errors`).', {
    status: 'completed_with_errors',
  }),
  failed: importIn(
    'failed',
    'A contact import failed (`failure_reason`): invalid rows without skip_on_error (nothing imported), or the job ran out of attempts.',
    {
      status: 'failed',
      records_count: 0,
      errors_count: 3,
      total_rows: 3,
      processed_rows: 0,
      progress: 0,
      failure_reason: '3 row(s) are invalid and skip_on_error is off, so nothing was imported.',
    },
  ),
} satisfies Record<ImportEvent, unknown>;

const importSubject = (row: ImportRow) => ({ type: 'contact_import', id: row.id });
const importAudience = (row: ImportRow) => ({ scope: 'owners' as const, userIds: [row.user_id] });

/** The import's progress after a chunk of rows, in the chunk's transaction. */
export async function publishImportProgress(db: Executor, ctx: AppContext, row: ImportRow): Promise<void> {
  await ctx.events.publish(db, {
    pbxId: row.pbx_id,
    kind: importProgress,
    subject: importSubject(row),
    audience: importAudience(row),
    data: { ...presentImportProgress(row), status: 'processing' },
  });
}

/**
 * The import's lifecycle event `contact_import.<event>` with the whole import, in the transaction of
 * the change, so it exists exactly when the change does; its `webhook_url`'s subscription delivers it.
 */
export async function emitImportEvent(db: Executor, ctx: AppContext, row: ImportRow, event: ImportEvent): Promise<void> {
  await ctx.events.publish(db, {
    pbxId: row.pbx_id,
    kind: LIFECYCLE[event],
    subject: importSubject(row),
    audience: importAudience(row),
    data: presentImport(row),
  });
}

/**
 * The import's `webhook_url` as a webhook subscription of its owner to its own lifecycle events,
 * made in the transaction that creates the import (before its `created` event) and removed with
 * it. Its messages are what the import's webhook has always sent: `{type, timestamp, data: the
 * import}` (`payload: 'data'`), signed, retried and logged in `/webhooks/deliveries` like any other.
 */
export async function subscribeImportWebhook(db: Executor, ctx: AppContext, row: ImportRow): Promise<void> {
  if (!row.webhook_url) return;
  await insertWebhookSubscription(db, ctx.clock, {
    pbxId: row.pbx_id,
    userId: row.user_id,
    url: row.webhook_url,
    kinds: Object.values(LIFECYCLE).map((kind) => kind.kind),
    subjectType: 'contact_import',
    subjectId: row.id,
    payload: 'data',
    owner: importOwner(row),
  });
}

/** Removes the import's webhook subscription, in the transaction that deletes the import. */
export function unsubscribeImportWebhook(db: Executor, row: ImportRow): Promise<void> {
  return removeOwnedSubscriptions(db, row.pbx_id, importOwner(row));
}

const importOwner = (row: ImportRow) => ({ kind: 'contact_import', id: row.id });

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

/** The end of an import's event (which its webhook delivers) and its e-mail, in the transaction that ends it. */
export async function announceEnd(db: Executor, ctx: AppContext, row: ImportRow): Promise<void> {
  await emitImportEvent(db, ctx, row, row.status as ImportEvent);
  if (row.notify_owner_by_email === 1) await notifyImportOwner.enqueue(db, ctx.clock, { importId: row.id });
}
