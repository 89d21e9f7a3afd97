import type { Insertable } from 'kysely';
import type { Executor } from '../../../db/database.js';
import type { AppContext } from '../../../platform/context.js';
import type { Tenant } from '../../../platform/tenancy.js';
import { enqueueWebhook } from '../../../platform/webhooks/webhooks.js';
import type { PlacedCallStatus, PlacedCallTable } from '../calls.tables.js';
import type { RingEndpoint } from '../engine/engine.js';
import { callAnswered, callAudience, callEnded, callFailed, callPlaced, callRinging } from './calls.events.js';
import { presentPlacedCall, type PlacedCallRow } from './calls.presenter.js';

/**
 * A placed call's changes of status, each in one transaction with its live event (calls.events.ts):
 * the first report of a change moves the call, later or repeated ones (the engine's answer and the
 * PBX's event telling the same) change nothing and publish nothing.
 */

/** The call as it is recorded, before the engine is asked: `call.placed`. */
export async function recordPlacedCall(ctx: AppContext, row: Insertable<PlacedCallTable>): Promise<void> {
  await ctx.db.transaction().execute(async (trx) => {
    const stored = await trx.insertInto('placed_calls').values(row).returningAll().executeTakeFirstOrThrow();
    await publishCall(ctx, trx, stored);
  });
}

/** The statuses a call may move on from, to each status before its end. */
const BEFORE: Record<'ringing' | 'answered', PlacedCallStatus[]> = { ringing: ['queued'], answered: ['queued', 'ringing'] };

/**
 * The caller's endpoints ring (`call.ringing`), or one of them answered (`call.answered`); `db`
 * may be the transaction of the engine's own write (the simulated engine's job).
 */
export async function advancePlacedCall(
  ctx: AppContext,
  tenant: Tenant,
  id: string,
  status: 'ringing' | 'answered',
  changes: { reason?: string | null } = {},
  db: Executor = ctx.db,
): Promise<void> {
  const advance = async (trx: Executor) => {
    const updated = await trx
      .updateTable('placed_calls')
      .set({ ...changes, status, updated_at: ctx.clock.now().toISOString() })
      .where('pbx_id', '=', tenant.pbxId)
      .where('id', '=', id)
      .where('status', 'in', BEFORE[status])
      .returningAll()
      .executeTakeFirst();
    if (updated) await publishCall(ctx, trx, updated);
  };
  await (db.isTransaction ? advance(db) : db.transaction().execute(advance));
}

/**
 * Ends a placed call once: the first of the engine's answer and the PBX's events to report its
 * end (failed, or ended after a hang-up) sets it, and queues the signed `call.<status>` webhook
 * in the same transaction when the caller gave a `webhook_url`. Later reports change nothing.
 * `call.failed` goes out with it; `call.ended` once the call's record is linked too (at once
 * when it already is, else by linkPlacedCallRecord).
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
    if (!updated) return;
    if (updated.webhook_url) {
      await enqueueWebhook(trx, ctx.clock, {
        pbxId: tenant.pbxId,
        userId: updated.user_id,
        event: `call.${status}`,
        subjectType: 'call',
        subjectId: updated.id,
        url: updated.webhook_url,
        data: presentPlacedCall(updated),
      });
    }
    await publishCall(ctx, trx, updated);
  });
}

/**
 * Links the call to its record in the call history, the first time the PBX reports it; a call
 * that has ended already gets its `call.ended` now (Asterisk's record follows the hang-up).
 */
export async function linkPlacedCallRecord(ctx: AppContext, tenant: Tenant, id: string, cdrId: number | string): Promise<void> {
  await ctx.db.transaction().execute(async (trx) => {
    const linked = await trx
      .updateTable('placed_calls')
      .set({ cdr_id: String(cdrId), updated_at: ctx.clock.now().toISOString() })
      .where('pbx_id', '=', tenant.pbxId)
      .where('id', '=', id)
      .where('cdr_id', 'is', null)
      .returningAll()
      .executeTakeFirst();
    if (linked?.status === 'ended') await publishCall(ctx, trx, linked);
  });
}

/** The event of the call's status, if it has one yet (an ended call without its record has none). */
async function publishCall(ctx: AppContext, trx: Executor, row: PlacedCallRow): Promise<void> {
  const call = presentPlacedCall(row);
  const base = { pbxId: row.pbx_id, subject: { type: 'call', id: row.id }, audience: callAudience(row.user_id) };
  switch (call.status) {
    case 'queued':
      await ctx.events.publish(trx, { ...base, kind: callPlaced, data: { ...call, status: 'queued' } });
      return;
    case 'ringing': {
      const { ringing } = JSON.parse(row.endpoints) as { ringing: RingEndpoint[] };
      const receivers = ringing.map(({ type, id, name }) => ({ type, id, name }));
      await ctx.events.publish(trx, { ...base, kind: callRinging, data: { ...call, status: 'ringing', receivers } });
      return;
    }
    case 'answered':
      await ctx.events.publish(trx, { ...base, kind: callAnswered, data: { ...call, status: 'answered' } });
      return;
    case 'failed':
      await ctx.events.publish(trx, {
        ...base,
        kind: callFailed,
        data: { ...call, status: 'failed', reason: call.reason ?? '', ended_at: call.ended_at ?? row.updated_at },
      });
      return;
    case 'ended':
      if (call.cdr_id !== null) {
        await ctx.events.publish(trx, {
          ...base,
          kind: callEnded,
          data: { ...call, status: 'ended', cdr_id: call.cdr_id, ended_at: call.ended_at ?? row.updated_at },
        });
      }
  }
}
