import type { AppContext } from '../../../platform/context.js';
import { defineJob } from '../../../platform/jobs/jobs.js';
import { enqueueWebhook } from '../../../platform/webhooks/webhooks.js';
import { findImportById } from './contact-imports.queries.js';
import { presentImport, type ImportRow } from './contact-imports.presenter.js';
import type { Executor } from '../../../db/database.js';

export type ImportEvent = 'created' | 'processing' | 'completed' | 'completed_with_errors' | 'failed';

/**
 * Lifecycle webhook `contact_import.<event>` with the import as `data`, queued in the caller's
 * transaction so the event exists exactly when the state change does.
 */
export async function emitImportEvent(db: Executor, ctx: AppContext, row: ImportRow, event: ImportEvent): Promise<void> {
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
