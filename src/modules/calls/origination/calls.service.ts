import { randomUUID } from 'node:crypto';
import { Forbidden, NotFound, ValidationFailed } from '../../../platform/errors.js';
import type { UserPrincipal } from '../../../platform/auth/principal.js';
import type { AppContext } from '../../../platform/context.js';
import type { Tenant } from '../../../platform/tenancy.js';
import { findWebrtc, identitiesAvailableToUsers, sipDevicesOfUsers, twinningsOfUsers } from '../../directory/index.js';
import { EngineFailure, type RingEndpoint } from '../engine/engine.js';
import { findPlacedCall } from '../engine/pbx-engine.queries.js';
import { assertPublicUrl } from '../../../platform/webhooks/url-guard.js';
import { advancePlacedCall, endPlacedCall, recordPlacedCall } from './placed-calls.js';
import { presentPlacedCall } from './calls.presenter.js';
import { engineFor } from '../engine/pbx-engine.service.js';
import { findCallingUser } from './calls.queries.js';
import type { NewCallBodyView, NewCallQueryView, NewCallResponseView } from './calls.schemas.js';

type Skipped = NewCallResponseView['data']['skipped_targets'][number];

export interface CallAnswer {
  status: number;
  body: unknown;
}

/** Placing calls for a user through the tenant's PBX engine. */
export class CallsService {
  constructor(private readonly ctx: AppContext) {}

  /** `GET /calls/{id}`: the caller's own call; an administrator sees every call of the PBX. */
  async read(tenant: Tenant, principal: UserPrincipal, id: string) {
    const row = await findPlacedCall(this.ctx.db, tenant, id);
    if (!row) throw new NotFound('Call not found.');
    if (row.user_id !== principal.userId && principal.role !== 'admin') throw new Forbidden('This call was placed by another user.');
    return presentPlacedCall(row);
  }

  /**
   * `POST /calls/new`'s answer: the placed call, or the engine's failure as an answer of its own
   * (502, 503, 504), which the route's Idempotency-Key keeps when it is a time-out (the call may
   * have been placed); other errors propagate.
   */
  async placeAnswer(tenant: Tenant, principal: UserPrincipal, query: NewCallQueryView, body: NewCallBodyView): Promise<CallAnswer> {
    try {
      return { status: 200, body: await this.place(tenant, principal, query, body) };
    } catch (error) {
      if (error instanceof EngineFailure) return { status: error.statusCode, body: error.body() };
      throw error;
    }
  }

  async place(tenant: Tenant, principal: UserPrincipal, query: NewCallQueryView, body: NewCallBodyView): Promise<NewCallResponseView> {
    const user = await findCallingUser(this.ctx.db, tenant, principal.userId);
    if (!user || user.status !== 'active') throw new Forbidden('This user may not place calls.');
    if (user.allow_telephony !== 1) throw new Forbidden('Telephony is not allowed for this user.');
    const anonymous = query.anonymous === true;
    if (anonymous && user.allow_anonymous_calls !== 1) throw new Forbidden('Anonymous calls are not allowed for this user.');

    // People paste numbers as they read them ("+352 691 12-34 56"); the PBX dials digits.
    const destination = body.destination.replace(/[\s\-()./]/g, '');
    if (body.webhook_url) {
      try {
        await assertPublicUrl(body.webhook_url, this.ctx.config.webhookAllowPrivate);
      } catch (error) {
        throw ValidationFailed.field('webhook_url', `The webhook url is not allowed: ${(error as Error).message}.`);
      }
    }
    const identity = await this.callerIdentity(tenant, user.id, body.caller_identity);
    const { endpoints, skipped } = await this.endpoints(tenant, user.id, body.targets);

    const callId = randomUUID();
    const actionId = `pbxapi-${callId}`;
    const engine = await engineFor(this.ctx, tenant);
    const name = `${user.first_name} ${user.last_name}`.trim();
    // Recorded (with its `call.placed`) before the engine is asked, so its events (which may come at once) find the call.
    const now = this.ctx.clock.now().toISOString();
    await recordPlacedCall(this.ctx, {
      id: callId,
      pbx_id: tenant.pbxId,
      user_id: user.id,
      engine: engine.name,
      destination,
      caller_identity_id: identity?.id ?? null,
      action_id: actionId,
      uniqueid: actionId,
      status: 'queued',
      endpoints: JSON.stringify({ ringing: endpoints, skipped }),
      reason: null,
      webhook_url: body.webhook_url ?? null,
      created_at: now,
      updated_at: now,
    });
    let result: Awaited<ReturnType<typeof engine.originate>>;
    try {
      result = await engine.originate({
        callId,
        actionId,
        pbxId: tenant.pbxId,
        user: { id: user.id, name },
        destination,
        callerId: identity ? { name: identity.name, number: identity.number } : null,
        anonymous,
        autoAnswer: query.autoAnswer === true,
        forceDialBack: query.forceDialBack === true,
        endpoints,
        trace: query.debugAmiTrace === true,
      });
    } catch (error) {
      if (error instanceof EngineFailure) await endPlacedCall(this.ctx, tenant, callId, 'failed', error.message);
      throw error;
    }
    if (result.answered) await advancePlacedCall(this.ctx, tenant, callId, 'answered');
    return {
      status: 'success',
      message: 'The call is being placed: your endpoints ring first, then the destination is dialled.',
      data: {
        call_id: callId,
        engine: result.engine,
        destination,
        caller_identity: anonymous ? null : identity,
        anonymous,
        auto_answer: query.autoAnswer === true,
        force_dial_back: query.forceDialBack === true,
        ringing: endpoints.map(({ type, id, name: endpointName }) => ({ type, id, name: endpointName })),
        skipped_targets: skipped,
        engine_message: result.message,
        ...(result.trace ? { ami_trace: result.trace } : {}),
      },
    };
  }

  /** The identity to present: the one asked for (it must be one the user may present), else the user's default. */
  private async callerIdentity(tenant: Tenant, userId: string, requested: string | undefined) {
    const available = await identitiesAvailableToUsers(this.ctx.db, tenant, [userId]);
    const present = (row: (typeof available)[number]) => ({ id: row.id, name: row.name, number: row.external_caller_number });
    if (requested) {
      const row = available.find((identity) => identity.id === requested);
      if (!row) throw ValidationFailed.field('caller_identity', 'The selected caller identity is invalid or not yours to present.');
      return present(row);
    }
    const own = available.filter((identity) => identity.user_id === userId);
    const shared = available.filter((identity) => identity.user_id === null);
    const chosen = own.find((i) => i.is_default === 1) ?? shared.find((i) => i.is_default === 1) ?? own[0] ?? shared[0];
    return chosen ? present(chosen) : null;
  }

  /**
   * The user's endpoints to ring: the SIP devices asked for (each must be the user's own) or all
   * of them, plus WebRTC, twinning and teams when asked for and configured; a target without
   * configuration is skipped and reported while the rest ring.
   */
  private async endpoints(tenant: Tenant, userId: string, targets: NewCallBodyView['targets']): Promise<{ endpoints: RingEndpoint[]; skipped: Skipped[] }> {
    const endpoints: RingEndpoint[] = [];
    const skipped: Skipped[] = [];
    // Its live devices, enabled or not: one asked for but disabled is reported as skipped.
    const devices = await sipDevicesOfUsers(this.ctx.db, tenant, [userId]);
    const requested = targets?.sip_devices;
    if (requested) {
      const errors: Record<string, string[]> = {};
      requested.forEach((id, index) => {
        if (!devices.some((device) => device.id === id)) errors[`targets.sip_devices.${index}`] = ['The selected SIP device is not one of your devices.'];
      });
      if (Object.keys(errors).length) throw new ValidationFailed(errors);
    }
    for (const device of devices) {
      if (requested && !requested.includes(device.id)) continue;
      if (device.enabled !== 1) {
        if (requested) skipped.push({ target: 'sip_device', id: device.id, reason: 'The SIP device is disabled.' });
        continue;
      }
      endpoints.push({ type: 'sip_device', id: device.id, name: device.name, address: device.username });
    }
    if (targets?.webrtc) {
      const webrtc = await findWebrtc(this.ctx.db, tenant, userId);
      if (webrtc) endpoints.push({ type: 'webrtc', id: userId, name: 'WebRTC client', address: webrtc.username });
      else skipped.push({ target: 'webrtc', id: null, reason: 'No WebRTC account is configured for you.' });
    }
    if (targets?.twinning || targets?.teams) {
      const twinnings = await twinningsOfUsers(this.ctx.db, tenant, [userId]);
      if (targets.twinning) {
        const mobile = twinnings.find((t) => t.type === 'mobile' && t.status === 'enabled' && t.phone_number);
        if (mobile) endpoints.push({ type: 'twinning', id: mobile.id, name: 'Mobile twinning', address: mobile.phone_number! });
        else skipped.push({ target: 'twinning', id: null, reason: 'No enabled twinning with a number is configured for you.' });
      }
      if (targets.teams) {
        const teams = twinnings.find((t) => t.type === 'teams' && t.status === 'enabled');
        if (teams) endpoints.push({ type: 'teams', id: teams.id, name: 'Teams', address: teams.phone_number ?? `teams-${teams.id}` });
        else skipped.push({ target: 'teams', id: null, reason: 'The team-collaboration integration is not configured for you.' });
      }
    }
    if (endpoints.length === 0) {
      throw new ValidationFailed(
        { targets: ['None of your endpoints can ring: you have no enabled SIP device and no configured target was asked for.'] },
        undefined,
        { skipped_targets: skipped },
      );
    }
    return { endpoints, skipped };
  }
}
