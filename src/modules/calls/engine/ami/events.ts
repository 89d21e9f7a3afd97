import { createHash } from 'node:crypto';
import { DateTime } from 'luxon';
import type { AppContext } from '../../../../platform/context.js';
import type { Tenant } from '../../../../platform/tenancy.js';
import { ingestCdrs } from '../../cdrs/cdrs.service.js';
import type { IngestCdrView } from '../../cdrs/cdrs.schemas.js';
import {
  amiZoneOf,
  cdrLegsOf,
  extensionsByNumber,
  findPlacedCallByAction,
  findPlacedCallByUniqueid,
  findUserName,
  recordListenerLogin,
  saveCdrLeg,
  updatePlacedCall,
} from '../pbx-engine.queries.js';
import { endPlacedCall } from '../../origination/placed-calls.js';
import type { RingEndpoint } from '../engine.js';
import { hangupCause, originateReason } from './causes.js';
import { AmiError, type AmiClient } from './client.js';
import { connectAmi, type AmiHostGuard } from './host-guard.js';
import { AmiMessage, type AmiFields } from './protocol.js';
import type { AmiConnection } from './asterisk-engine.js';

const CALL_TIME = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;
type Leg = IngestCdrView['receivers'][number];

/** A stable int64 id for an Asterisk call: `<epoch>.<sequence>` uniqueids map to epoch * 10^6 + sequence, others to a hash. */
export function cdrIdOf(uniqueid: string): number {
  const match = /^(\d{9,10})\.(\d{1,6})$/.exec(uniqueid);
  if (match) return Number(match[1]) * 1_000_000 + Number(match[2]);
  return parseInt(createHash('sha256').update(uniqueid).digest('hex').slice(0, 13), 16) + 1;
}

const DISPOSITIONS: Record<string, Leg['status']> = { ANSWERED: 'ANSWERED', 'NO ANSWER': 'MISSED', BUSY: 'BUSY', FAILED: 'FAILED', CONGESTION: 'FAILED' };

/** `"Name" <number>` as Asterisk writes a caller id. */
function parseCallerId(value: string | undefined): { name: string; number: string } {
  const match = /^\s*"?([^"<]*?)"?\s*<([^>]*)>\s*$/.exec(value ?? '');
  return match ? { name: match[1].trim(), number: match[2].trim() } : { name: '', number: (value ?? '').trim() };
}

/**
 * cdr_manager writes StartTime, AnswerTime and EndTime in the Asterisk host's local time (its
 * /etc/localtime): converted to UTC in the host's zone, across DST changes included.
 */
export function pbxLocalToUtc(value: string, zone: string): string {
  const local = DateTime.fromFormat(value, 'yyyy-MM-dd HH:mm:ss', { zone });
  return local.isValid ? local.toUTC().toFormat('yyyy-MM-dd HH:mm:ss') : value;
}

/** The call a Cdr event belongs to: its LinkedID (cdr_manager `[mappings]`), else its uniqueid without a Local half's `;N`. */
export function callKeyOf(event: AmiMessage): string {
  const linked = event.get('LinkedID') ?? event.get('Linkedid');
  const uniqueid = event.get('UniqueID') ?? event.get('Uniqueid') ?? '';
  return linked?.trim() ? linked.trim() : uniqueid.replace(/;\d+$/, '');
}

/** A half of a Local channel (`Local/ring@t…-ring-00000001;2`): a helper of the dialplan, never a call of its own. */
const isLocalHelper = (channel: string | undefined) => /^Local\/.+;\d+$/.test(channel ?? '');

/** The device a channel name is of: `PJSIP/alice-0000002a` is `alice`. */
const deviceOf = (channel: string | undefined) => /^(?:PJSIP|SIP|IAX2)\/(.+)-[0-9a-f]+$/i.exec(channel ?? '')?.[1] ?? null;

interface LegTimes {
  start: string;
  answer: string | null;
  end: string;
}

function timesOf(event: AmiMessage, zone: string): LegTimes | null {
  const start = event.get('StartTime') ?? '';
  const end = event.get('EndTime') ?? '';
  if (!CALL_TIME.test(start) || !CALL_TIME.test(end)) return null;
  const answer = event.get('AnswerTime') ?? '';
  return { start: pbxLocalToUtc(start, zone), answer: CALL_TIME.test(answer) ? pbxLocalToUtc(answer, zone) : null, end: pbxLocalToUtc(end, zone) };
}

/**
 * The history record of one Asterisk call from all its Cdr events (its legs): the leg whose
 * uniqueid is the call's key is the call (caller, times, the dialled destination); the others,
 * Local helper halves among them, are the receivers that rang for it (the placing user's devices,
 * a twinning by its number). Null while the call's own leg has not arrived, or lacks its times.
 */
export async function cdrFromAmiLegs(ctx: AppContext, tenant: Tenant, key: string, legs: AmiMessage[], zone: string): Promise<IngestCdrView | null> {
  const main = legs.find((leg) => (leg.get('UniqueID') ?? leg.get('Uniqueid')) === key);
  const times = main ? timesOf(main, zone) : null;
  if (!main || !times) return null;
  const placed = await findPlacedCallByUniqueid(ctx.db, tenant, key);
  const placedEndpoints = placed ? (JSON.parse(placed.endpoints) as { ringing: RingEndpoint[] }).ringing : [];
  const placedUser = placed ? await findUserName(ctx.db, tenant, placed.user_id) : undefined;
  const callerId = parseCallerId(main.get('CallerID'));
  const source = main.get('Source') || callerId.number;
  const destination = main.get('Destination') ?? '';
  const others = legs.filter((leg) => leg !== main);
  const extensions = await extensionsByNumber(ctx.db, tenant, [
    source,
    destination,
    ...others.flatMap((leg) => [leg.get('Destination') ?? '', deviceOf(leg.get('DestinationChannel')) ?? '']),
  ]);
  const caller = extensions.get(source);
  const callee = extensions.get(destination);
  const status = (leg: AmiMessage) => DISPOSITIONS[(leg.get('Disposition') ?? '').toUpperCase()] ?? 'FAILED';
  const seconds = (leg: AmiMessage, key: string) => Math.max(0, Number(leg.get(key) ?? 0) || 0);

  const receivers: Leg[] = [];
  // Receivers by start time; legs that started together in the order the call rang its endpoints.
  const rank = (leg: AmiMessage) => {
    const index = placedEndpoints.findIndex((e) => e.address === deviceOf(leg.get('DestinationChannel')) || e.address === leg.get('Destination'));
    return index === -1 ? placedEndpoints.length : index;
  };
  const ordered = others.sort((a, b) => (a.get('StartTime') ?? '').localeCompare(b.get('StartTime') ?? '') || rank(a) - rank(b));
  for (const leg of ordered) {
    const legTimes = timesOf(leg, zone);
    if (!legTimes) continue;
    // The device the leg reached (a helper half dialling PJSIP/alice) or the number it dialled (a twinning's).
    const device = deviceOf(leg.get('DestinationChannel'));
    const dialled = leg.get('Destination') ?? '';
    const endpoint = placedEndpoints.find((candidate) => candidate.address === device) ?? placedEndpoints.find((candidate) => candidate.address === dialled);
    const number = endpoint?.address ?? (device && extensions.has(device) ? device : dialled);
    const extension = extensions.get(number);
    const via =
      endpoint && (endpoint.type === 'twinning' || endpoint.type === 'teams')
        ? { via_id: endpoint.id, via_name: endpoint.name, via_number: endpoint.address, via_type: 'TWINNING' as const }
        : {};
    receivers.push({
      user_id: endpoint && placed ? placed.user_id : (extension?.userId ?? null),
      status: status(leg),
      name: endpoint?.name ?? extension?.name ?? '',
      number,
      start_time: legTimes.start,
      answer_time: legTimes.answer,
      end_time: legTimes.end,
      duration: seconds(leg, 'Duration'),
      billsec: seconds(leg, 'BillableSeconds'),
      ...via,
    });
  }
  receivers.push({
    user_id: callee?.userId ?? null,
    status: status(main),
    name: callee?.name ?? '',
    number: destination,
    start_time: times.start,
    answer_time: times.answer,
    end_time: times.end,
    duration: seconds(main, 'Duration'),
    billsec: seconds(main, 'BillableSeconds'),
  });
  const mainStatus = status(main);
  // Internal when both parties are the tenant's: a user placing the call or an extension calling, and an extension called.
  const callerInternal = !!placed || !!caller;
  const calleeInternal = !!callee;
  return {
    cdr_id: cdrIdOf(key),
    type: placed || caller ? 'OUTGOING' : 'INCOMING',
    start_time: times.start,
    answer_time: times.answer,
    end_time: times.end,
    duration: seconds(main, 'Duration'),
    billsec: seconds(main, 'BillableSeconds'),
    is_internal: callerInternal && calleeInternal,
    caller: {
      user_id: placed?.user_id ?? caller?.userId ?? null,
      name: callerId.name || placedUser || caller?.name || '',
      number: source,
    },
    receivers,
    call_flow: [
      { color: 'info', text: placed ? 'Call placed through the API' : 'Call started', sub_text: main.get('Channel') ?? null, time: times.start },
      ...(times.answer ? [{ color: 'success' as const, text: 'Answered', sub_text: main.get('DestinationChannel') || null, time: times.answer }] : []),
      {
        color: mainStatus === 'ANSWERED' ? 'secondary' : 'warning',
        text: mainStatus === 'ANSWERED' ? 'Hung up' : `Ended: ${(main.get('Disposition') ?? 'failed').toLowerCase()}`,
        sub_text: null,
        time: times.end,
      },
    ],
  };
}

/** One leg of a call arrived: kept, and the call's record (re)written from all its legs once the call's own leg is there. */
async function ingestCdrLeg(ctx: AppContext, tenant: Tenant, event: AmiMessage): Promise<void> {
  const uniqueid = event.get('UniqueID') ?? event.get('Uniqueid');
  if (!uniqueid || !CALL_TIME.test(event.get('StartTime') ?? '') || !CALL_TIME.test(event.get('EndTime') ?? '')) return;
  const key = callKeyOf(event);
  // A helper half that is not of a known call (no LinkedID, a uniqueid of its own) is never a call.
  if (isLocalHelper(event.get('Channel')) && key === uniqueid) return;
  await saveCdrLeg(ctx.db, tenant, { call_key: key, uniqueid, fields: JSON.stringify(event.fields), created_at: ctx.clock.now().toISOString() });
  const legs = (await cdrLegsOf(ctx.db, tenant, key)).map((row) => new AmiMessage(JSON.parse(row.fields) as AmiFields));
  const record = await cdrFromAmiLegs(ctx, tenant, key, legs, await amiZoneOf(ctx.db, tenant));
  if (!record) return;
  await ingestCdrs(ctx, tenant, [record], 'ami', { replace: legs.length > 1 });
  const placed = await findPlacedCallByUniqueid(ctx.db, tenant, key);
  if (placed && placed.cdr_id !== String(record.cdr_id)) {
    await updatePlacedCall(ctx.db, tenant, placed.id, { cdr_id: String(record.cdr_id), updated_at: ctx.clock.now().toISOString() });
  }
}

/** The record of a single Cdr event (no other legs), in the ingestion format; null when it lacks what a record needs. */
export async function cdrFromAmiEvent(ctx: AppContext, tenant: Tenant, event: AmiMessage): Promise<IngestCdrView | null> {
  return cdrFromAmiLegs(ctx, tenant, callKeyOf(event), [event], await amiZoneOf(ctx.db, tenant));
}

/** Applies one AMI event: call progress of calls placed here, and Cdr events into the history. */
export async function handleAmiEvent(ctx: AppContext, tenant: Tenant, event: AmiMessage): Promise<void> {
  const name = event.get('Event')?.toLowerCase();
  const now = ctx.clock.now().toISOString();
  if (name === 'originateresponse') {
    const placed = await findPlacedCallByAction(ctx.db, event.get('ActionID') ?? '');
    if (!placed || placed.pbx_id !== tenant.pbxId) return;
    const reason = originateReason(event.get('Reason'));
    if (event.get('Response')?.toLowerCase() !== 'success') {
      await endPlacedCall(ctx, tenant, placed.id, 'failed', `${reason.text} (OriginateResponse reason ${event.get('Reason') ?? 'missing'})`);
    } else if (placed.status === 'queued' || placed.status === 'ringing') {
      await updatePlacedCall(ctx.db, tenant, placed.id, { status: 'answered', reason: reason.text, updated_at: now });
    }
  } else if (name === 'newchannel' || name === 'hangup') {
    const placed = await findPlacedCallByUniqueid(ctx.db, tenant, event.get('Uniqueid') ?? '');
    if (!placed) return;
    if (name === 'newchannel' && placed.status === 'queued') await updatePlacedCall(ctx.db, tenant, placed.id, { status: 'ringing', updated_at: now });
    if (name === 'hangup') {
      const cause = hangupCause(event.get('Cause'));
      await endPlacedCall(
        ctx,
        tenant,
        placed.id,
        placed.status === 'answered' ? 'ended' : 'failed',
        cause.code ? cause.text : (event.get('Cause-txt') ?? cause.text),
      );
    }
  } else if (name === 'cdr') {
    await ingestCdrLeg(ctx, tenant, event);
  }
}

export interface ListenerOptions {
  backoffBaseMs?: number;
  backoffMaxMs?: number;
  log?: { warn(obj: object, msg: string): void };
  /** Checks the host on every (re)connection; by default one built from the configuration. */
  guard?: AmiHostGuard;
  /** Refused logins in a row after which the settings are failing (AMI_LOGIN_FAILURE_LIMIT). */
  loginFailureLimit?: number;
  /** The slow pace of attempts once failing (AMI_FAILING_RETRY_SECONDS), in milliseconds. */
  failingRetryMs?: number;
  /** Where the stored settings stood (a listener taking over keeps their count). */
  loginFailures?: number;
  failingSince?: string | null;
}

/**
 * A long-lived AMI session per PBX that listens to call events. When the connection drops or
 * cannot be made it retries with exponential back-off (base * 2^n, capped), reset by a login.
 * Refused logins are counted in the settings; past the limit the settings are marked failing and
 * tried only at the slow pace, so a wrong secret does not fill Asterisk's log, until a login
 * succeeds or the settings are saved again (which starts a fresh listener).
 */
export class AmiEventListener {
  private client: AmiClient | null = null;
  private stopped = false;
  private timer: NodeJS.Timeout | null = null;
  private chain: Promise<void> = Promise.resolve();
  /** Consecutive failed attempts; exposed for tests and logs. */
  failures = 0;
  connections = 0;
  loginFailures: number;
  failingSince: string | null;

  constructor(
    private readonly ctx: AppContext,
    private readonly tenant: Tenant,
    private readonly connection: AmiConnection,
    private readonly options: ListenerOptions = {},
  ) {
    this.loginFailures = options.loginFailures ?? 0;
    this.failingSince = options.failingSince ?? null;
  }

  start(): void {
    this.stopped = false;
    void this.connect();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.client?.close();
    await this.chain;
  }

  /** Resolves once every event received so far has been applied. */
  whenIdle(): Promise<void> {
    return this.chain;
  }

  get failing(): boolean {
    return this.failingSince !== null;
  }

  nextDelayMs(): number {
    if (this.failing) return this.options.failingRetryMs ?? this.ctx.config.amiFailingRetrySeconds * 1000;
    const base = this.options.backoffBaseMs ?? 1000;
    return Math.min(this.options.backoffMaxMs ?? 30_000, base * 2 ** Math.max(0, this.failures - 1));
  }

  private async connect(): Promise<void> {
    if (this.stopped) return;
    let client: AmiClient | null = null;
    try {
      client = await connectAmi(this.ctx.config, this.connection, { guard: this.options.guard });
      client.on('event', (event) => {
        this.chain = this.chain
          .then(() => handleAmiEvent(this.ctx, this.tenant, event))
          .catch((error: unknown) => this.options.log?.warn({ err: error }, 'AMI event not applied'));
      });
      client.on('close', () => this.retry());
      await client.login(this.connection.username, this.connection.secret);
      this.client = client;
      this.failures = 0;
      this.connections++;
      if (this.loginFailures > 0 || this.failing) {
        this.loginFailures = 0;
        this.failingSince = null;
        await recordListenerLogin(this.ctx.db, this.tenant, { failures: 0, failingSince: null, error: null });
      }
      if (this.stopped) client.close();
    } catch (error) {
      this.options.log?.warn({ err: error, pbx_id: this.tenant.pbxId }, 'AMI event connection failed');
      if (error instanceof AmiError && error.kind === 'login_failed') {
        await this.loginRefused(error).catch((failure: unknown) => this.options.log?.warn({ err: failure }, 'AMI login failure not recorded'));
        // Say goodbye on a refused login rather than drop the session.
        await client?.logoff();
      } else client?.close();
      this.retry();
    }
  }

  private async loginRefused(error: AmiError): Promise<void> {
    this.loginFailures++;
    if (!this.failing && this.loginFailures >= (this.options.loginFailureLimit ?? this.ctx.config.amiLoginFailureLimit)) {
      this.failingSince = this.ctx.clock.now().toISOString();
      this.options.log?.warn(
        { pbx_id: this.tenant.pbxId, login_failures: this.loginFailures },
        'AMI settings marked failing: the PBX keeps refusing the login; retrying slowly until the settings change',
      );
    }
    await recordListenerLogin(this.ctx.db, this.tenant, { failures: this.loginFailures, failingSince: this.failingSince, error: error.message });
  }

  private retry(): void {
    if (this.stopped || this.timer) return;
    this.client = null;
    this.failures++;
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.connect();
    }, this.nextDelayMs());
  }
}
