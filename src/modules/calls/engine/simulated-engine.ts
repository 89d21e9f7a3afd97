import { createHash } from 'node:crypto';
import { tenantPrefix } from '../../../platform/pbx-names.js';
import type { AppContext } from '../../../platform/context.js';
import { defineJob } from '../../../platform/jobs/jobs.js';
import { ingestCdrs } from '../cdrs/cdrs.service.js';
import type { IngestCdrView } from '../cdrs/cdrs.schemas.js';
import { callTimeOf } from '../cdrs/call-time.js';
import { findPlacedCall } from './pbx-engine.queries.js';
import { originateAction } from './ami/asterisk-engine.js';
import { advancePlacedCall, endPlacedCall, linkPlacedCallRecord } from '../origination/placed-calls.js';
import { maskedText } from './ami/protocol.js';
import type { OriginateRequest, OriginateResult, PbxEngine, RingEndpoint } from './engine.js';
import type { Tenant } from '../../../platform/tenancy.js';
import { extensionsByNumber } from '../../directory/index.js';
import { routeBySnapshot } from '../../routing/index.js';

interface SimulatedCallPayload {
  pbxId: string;
  callId: string;
  placedAt: string;
  userId: string;
  userName: string;
  callerNumber: string;
  destination: string;
  endpoints: RingEndpoint[];
}

/** Deterministic pseudo-random numbers from the call id, so a call's story does not change on a retry of the job. */
function dice(seed: string) {
  let counter = 0;
  return (modulo: number) => {
    const digest = createHash('sha256').update(`${seed}:${counter++}`).digest();
    return digest.readUInt32BE(0) % modulo;
  };
}

const at = (start: Date, seconds: number) => callTimeOf(new Date(start.getTime() + seconds * 1000));

/**
 * The call a simulated PBX would have recorded: the user's endpoints ring first (click-to-call),
 * one answers, then the destination rings and answers, is busy, or does not answer. A call to one
 * of the PBX's own numbers, once a configuration was pushed to the simulation, goes the way the
 * pushed routing sends it (its flows, menus timing out, queues), each step in the call's timeline.
 */
export async function simulatedCdr(ctx: AppContext, payload: SimulatedCallPayload): Promise<IngestCdrView> {
  const roll = dice(payload.callId);
  const start = new Date(payload.placedAt);
  const tenant = { pbxId: payload.pbxId };
  const dialled = (await extensionsByNumber(ctx.db, tenant, [payload.destination])).get(payload.destination);
  // An internal call rings a live user's extension.
  const internalUser = dialled?.userId ? { userId: dialled.userId, name: dialled.name } : undefined;
  const ownRing = 2 + roll(4);
  const destinationRing = 3 + roll(10);
  const outcomeRoll = roll(100);
  const outcome: 'ANSWERED' | 'MISSED' | 'BUSY' = outcomeRoll < 75 ? 'ANSWERED' : outcomeRoll < 90 ? 'MISSED' : 'BUSY';
  const talk = outcome === 'ANSWERED' ? 15 + roll(240) : 0;
  const destinationStart = ownRing;
  // A pushed configuration routes calls to the PBX's own numbers by the routing it was compiled from.
  const routing = (await ctx.db.selectFrom('simulated_configurations').select('routing').where('pbx_id', '=', tenant.pbxId).executeTakeFirst())?.routing;
  const routed = routing
    ? await routeBySnapshot(ctx.db, tenant, routing, {
        dialled: payload.destination,
        at: new Date(start.getTime() + destinationStart * 1000),
        answer: outcome === 'ANSWERED' ? 'first_available' : 'nobody',
      })
    : null;
  const finalOutcome: 'ANSWERED' | 'MISSED' | 'BUSY' = routed ? (routed.result === 'hung_up' || routed.result === 'loop' ? 'MISSED' : 'ANSWERED') : outcome;
  const answerAt = destinationStart + destinationRing;
  const talkTime = finalOutcome === 'ANSWERED' ? talk || 15 + roll(240) : 0;
  const ended = destinationStart + (finalOutcome === 'BUSY' ? 1 : destinationRing) + talkTime;
  const answeredOwn = payload.endpoints[0];
  const ownLegs = payload.endpoints.map((endpoint, index) => {
    const via =
      endpoint.type === 'twinning' || endpoint.type === 'teams'
        ? { via_id: endpoint.id, via_name: endpoint.name, via_number: endpoint.address, via_type: 'TWINNING' as const }
        : {};
    const answered = index === 0;
    return {
      user_id: payload.userId,
      status: answered ? ('ANSWERED' as const) : ('MISSED' as const),
      name: endpoint.name,
      number: endpoint.address,
      start_time: at(start, 0),
      answer_time: answered ? at(start, ownRing) : null,
      end_time: answered ? at(start, ended) : at(start, ownRing),
      duration: answered ? ended : ownRing,
      billsec: answered ? ended - ownRing : 0,
      ...via,
    };
  });
  const answeredBy = routed?.answeredBy;
  const destinationLeg = {
    user_id: (answeredBy?.type === 'user' || answeredBy?.type === 'voicemail' ? answeredBy.id : null) ?? internalUser?.userId ?? null,
    status: finalOutcome,
    name: answeredBy ? (answeredBy.type === 'voicemail' ? `Voicemail of ${answeredBy.name}` : answeredBy.name) : (internalUser?.name ?? ''),
    number: payload.destination,
    start_time: at(start, destinationStart),
    answer_time: finalOutcome === 'ANSWERED' ? at(start, answerAt) : null,
    end_time: at(start, ended),
    duration: ended - destinationStart,
    billsec: talkTime,
    ...(routed?.via ? { via_id: routed.via.id, via_name: routed.via.name, via_number: payload.destination, via_type: routed.via.type } : {}),
  };
  const routedItems: IngestCdrView['call_flow'] = (routed?.steps ?? [])
    .filter((step) => step.kind !== 'number')
    .map((step) => ({
      color:
        step.outcome === 'answered' || step.outcome === 'voicemail'
          ? 'success'
          : step.kind === 'hangup' || step.kind === 'loop'
            ? 'danger'
            : ['no_answer', 'overflow', 'timeout', 'closed', 'holiday'].includes(step.outcome)
              ? 'warning'
              : 'secondary',
      text: (step.name ? `${step.name}: ${step.reason}` : step.reason).slice(0, 500),
      sub_text: step.kind,
      time: at(start, destinationStart),
    }));
  const flow: IngestCdrView['call_flow'] = [
    { color: 'info', text: 'Call placed through the API', sub_text: `to ${payload.destination}`, time: at(start, 0) },
    ...payload.endpoints.map((endpoint) => ({ color: 'secondary' as const, text: `Ringing ${endpoint.name}`, sub_text: endpoint.type, time: at(start, 0) })),
    { color: 'success', text: `Answered on ${answeredOwn.name}`, sub_text: null, time: at(start, ownRing) },
    { color: 'info', text: `Dialling ${payload.destination}`, sub_text: internalUser ? internalUser.name : null, time: at(start, destinationStart) },
    ...(routed
      ? routedItems
      : [
          outcome === 'ANSWERED'
            ? { color: 'success' as const, text: `${payload.destination} answered`, sub_text: null, time: at(start, answerAt) }
            : {
                color: outcome === 'BUSY' ? ('danger' as const) : ('warning' as const),
                text: outcome === 'BUSY' ? `${payload.destination} is busy` : `${payload.destination} did not answer`,
                sub_text: null,
                time: at(start, ended),
              },
        ]),
    { color: 'secondary', text: 'Call ended', sub_text: null, time: at(start, ended) },
  ];
  return {
    // Milliseconds of the placing time and three digits of the call id: unique and increasing.
    cdr_id: start.getTime() * 1000 + roll(1000),
    type: 'OUTGOING',
    start_time: at(start, 0),
    answer_time: finalOutcome === 'ANSWERED' ? at(start, answerAt) : null,
    end_time: at(start, ended),
    duration: ended,
    billsec: talkTime,
    is_internal: !!internalUser,
    caller: { user_id: payload.userId, name: payload.userName, number: payload.callerNumber },
    receivers: [...ownLegs, destinationLeg],
    call_flow: flow,
  };
}

/**
 * Produces the simulated call's record once the call would be over, and tells the rest of its
 * story then: the caller's first endpoint answered (the simulation's own leg always is), the call
 * is recorded and has ended.
 */
export const simulatedCallJob = defineJob<SimulatedCallPayload>({
  kind: 'calls.simulated_cdr',
  maxAttempts: 3,
  async run(ctx, payload) {
    const tenant = { pbxId: payload.pbxId };
    const record = await simulatedCdr(ctx, payload);
    await advancePlacedCall(ctx, tenant, payload.callId, 'answered');
    await ingestCdrs(ctx, tenant, [record], 'simulated');
    const placed = await findPlacedCall(ctx.db, tenant, payload.callId);
    if (placed) {
      const outcome = record.receivers[record.receivers.length - 1].status;
      await linkPlacedCallRecord(ctx, tenant, placed.id, record.cdr_id);
      await endPlacedCall(ctx, tenant, placed.id, 'ended', outcome.toLowerCase());
    }
  },
});

/** The names an Asterisk engine with default settings would originate into for the tenant. */
const tenantConnection = (pbxId: string) => ({ context: tenantPrefix(pbxId), prefix: tenantPrefix(pbxId) });

/** The embedded engine: accepts the call at once and records it a few seconds later, without any PBX. */
export class SimulatedEngine implements PbxEngine {
  readonly name = 'simulated' as const;
  constructor(private readonly ctx: AppContext) {}

  async originate(request: OriginateRequest): Promise<OriginateResult> {
    const runAt = new Date(this.ctx.clock.now().getTime() + this.ctx.config.simulatedCdrDelaySeconds * 1000);
    // The simulated PBX takes the call at once: the caller's endpoints ring while its record is due.
    await this.ctx.db.transaction().execute(async (trx) => {
      await simulatedCallJob.enqueue(
        trx,
        this.ctx.clock,
        {
          pbxId: request.pbxId,
          callId: request.callId,
          placedAt: this.ctx.clock.now().toISOString(),
          userId: request.user.id,
          userName: request.user.name,
          callerNumber: request.anonymous ? 'anonymous' : (request.callerId?.number ?? ''),
          destination: request.destination,
          endpoints: request.endpoints,
        },
        { runAt },
      );
      await advancePlacedCall(this.ctx, { pbxId: request.pbxId }, request.callId, 'ringing', {}, trx);
    });
    const message = 'Originate successfully queued (simulated engine)';
    // The trace shows the Originate the Asterisk engine would send, answered by the simulator.
    const trace = request.trace
      ? [
          { direction: 'sent' as const, at_ms: 0, message: maskedText(originateAction(request, tenantConnection(request.pbxId))) },
          {
            direction: 'received' as const,
            at_ms: 0,
            message: maskedText([
              ['Response', 'Success'],
              ['ActionID', request.actionId],
              ['Message', message],
            ]),
          },
        ]
      : null;
    return { engine: 'simulated', message, uniqueid: request.actionId, trace };
  }

  /** A push reaching the simulated PBX: its files become what the simulation runs (one row per PBX). */
  async applyConfiguration(
    tenant: Tenant,
    delivery: { version: number; hash: string; files: Array<{ name: string; sha256: string; content: string }>; routing: string | null },
  ): Promise<void> {
    const row = {
      version: delivery.version,
      hash: delivery.hash,
      files: JSON.stringify(delivery.files.map(({ name, sha256, content }) => ({ name, sha256, content }))),
      routing: delivery.routing,
      applied_at: this.ctx.clock.now().toISOString(),
    };
    await this.ctx.db
      .insertInto('simulated_configurations')
      .values({ pbx_id: tenant.pbxId, ...row })
      .onConflict((oc) => oc.column('pbx_id').doUpdateSet(row))
      .execute();
  }
}

/** The configuration a simulated PBX runs: the version last pushed to it, or undefined. */
export async function activeSimulatedConfiguration(ctx: AppContext, tenant: Tenant) {
  const row = await ctx.db.selectFrom('simulated_configurations').selectAll().where('pbx_id', '=', tenant.pbxId).executeTakeFirst();
  return (
    row && {
      version: row.version,
      hash: row.hash,
      appliedAt: row.applied_at,
      files: JSON.parse(row.files) as Array<{ name: string; sha256: string; content: string }>,
    }
  );
}
