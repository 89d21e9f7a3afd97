import type { Static } from '@sinclair/typebox';
import type { AppContext } from '../../../platform/context.js';
import { isoIn } from '../../../platform/clock.js';
import type { Tenant } from '../../../platform/tenancy.js';
import { findInCallState, saveInCallState } from './in-call.queries.js';
import { DEFAULT_IN_CALL_TTL, type InCallState, type ReportInCallBody } from './in-call.schemas.js';
import { inCallChanged } from './in-call.events.js';
import { userStateAudience } from '../shared/user-state.js';

export type InCallView = Static<typeof InCallState>;

/** A user's own on-a-call flag, as its client reports it: trusted for `ttl_seconds`, then false. */
export class InCallService {
  constructor(private readonly ctx: AppContext) {}

  /** Stores the report and publishes it (`user.in_call_changed`) in one transaction. */
  async report(tenant: Tenant, userId: string, body: Static<typeof ReportInCallBody>): Promise<InCallView> {
    const ttl = body.ttl_seconds ?? DEFAULT_IN_CALL_TTL;
    const state = { in_call_updated_at: this.ctx.clock.now().toISOString(), expires_at: isoIn(this.ctx.clock, ttl), ttl_seconds: ttl };
    await this.ctx.db.transaction().execute(async (trx) => {
      await saveInCallState(trx, { user_id: userId, pbx_id: tenant.pbxId, in_call: body.in_call ? 1 : 0, ...state });
      await this.ctx.events.publish(trx, {
        pbxId: tenant.pbxId,
        kind: inCallChanged,
        subject: { type: 'user', id: userId },
        audience: userStateAudience(userId),
        data: { user_id: userId, in_call: body.in_call, ...state },
      });
    });
    return this.current(tenant, userId);
  }

  /** The flag as it reads now: a report is trusted until it expires, then the user reads as not in a call. */
  async current(tenant: Tenant, userId: string): Promise<InCallView> {
    const row = await findInCallState(this.ctx.db, tenant, userId);
    const now = this.ctx.clock.now().toISOString();
    if (!row || row.expires_at <= now)
      return { user_id: userId, in_call: false, in_call_updated_at: null, expires_at: null, ttl_seconds: row?.ttl_seconds ?? DEFAULT_IN_CALL_TTL };
    return {
      user_id: userId,
      in_call: row.in_call === 1,
      in_call_updated_at: row.in_call_updated_at,
      expires_at: row.expires_at,
      ttl_seconds: row.ttl_seconds,
    };
  }
}
