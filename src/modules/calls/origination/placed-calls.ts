import type { AppContext } from '../../../platform/context.js';
import type { Tenant } from '../../../platform/tenancy.js';
import { enqueueWebhook } from '../../../platform/webhooks/webhooks.js';
import type { PlacedCallStatus } from '../calls.tables.js';
import { presentPlacedCall } from './calls.presenter.js';

/**
 * Ends a placed call once: the first of the engine's answer and the PBX's events to report its
 * end (failed, or ended after a hang-up) sets it, and queues the signed `call.<status>` webhook
 * in the same transaction when the caller gave a `webhook_url`. Later reports change nothing.
 */
export async function endPlacedCall(ctx: AppContext, tenant: Tenant, id: string, status: Extract<PlacedCallStatus, 'failed' | 'ended'>, reason: string | null) {
  const now = ctx.clock.now().toISOString();
  await ctx.db.transaction().execute(async (trx) => {
    const updated = await trx
      .updateTable('placed_calls')
      .set({ status, reason: reason?.slice(0, 255) ?? null, ended_at: now, updated_at: now })
      .where('pbx_id', '=', tenant.pbxId)
      .where('id', '=', id)
      .where('status', 'not in', ['failed', 'ended'])
      .returningAll()
      .executeTakeFirst();
    if (!updated?.webhook_url) return;
    await enqueueWebhook(trx, ctx.clock, {
      pbxId: tenant.pbxId,
      userId: updated.user_id,
      event: `call.${status}`,
      subjectType: 'call',
      subjectId: updated.id,
      url: updated.webhook_url,
      data: presentPlacedCall(updated),
    });
  });
}
