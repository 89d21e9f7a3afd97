import { createHash } from 'node:crypto';
import { DateTime } from 'luxon';
import type { AppContext } from '../../../../platform/context.js';
import type { Tenant } from '../../../../platform/tenancy.js';
import { ingestCdrs } from '../../cdrs/cdrs.service.js';
import type { IngestCdrView } from '../../cdrs/cdrs.schemas.js';
import {
  amiZoneOf,
  amiZoneSettingOf,
  cdrLegsOf,
  findPlacedCallByAction,
  findPlacedCallByUniqueid,
  findUserName,
  recordListenerLogin,
  recordSettingsWarning,
  saveCdrLeg,
  updatePlacedCall,
} from '../pbx-engine.queries.js';
import { devicesByUsername, extensionsByNumber } from '../../../directory/index.js';
import { queueNamesOf } from '../../../routing/index.js';
import { advancePlacedCall, endPlacedCall, linkPlacedCallRecord } from '../../origination/placed-calls.js';
import type { RingEndpoint } from '../engine.js';
import { hangupCause, originateReason } from './causes.js';
import { AmiError, type AmiClient } from './client.js';
import { connectAmi, type AmiHostGuard } from './host-guard.js';
import { AmiMessage, type AmiFields } from './protocol.js';
import type { AmiConnection } from './asterisk-engine.js';
import { applyContactStatus, ContactPresence } from './presence.js';

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

/** Looks at a Cdr's times against the settings' zone and answers the zone to read them in (see AmiEventListener.zoneFor). */
export type ZoneCheck = (event: AmiMessage, setting: { name: string; explicit: boolean }) => Promise<string>;

/** A fixed offset as a zone luxon reads (`UTC+1`, `UTC-3:30`, `UTC`). */
export function offsetZone(minutes: number): string {
  if (minutes === 0) return 'UTC';
  const abs = Math.abs(minutes);
  return `UTC${minutes < 0 ? '-' : '+'}${Math.floor(abs / 60)}${abs % 60 ? `:${String(abs % 60).padStart(2, '0')}` : ''}`;
}

/**
 * The Asterisk host's UTC offset in minutes as a fresh Cdr shows it: cdr_manager posts the event
 * as the leg ends, so its EndTime (the host's local time) read as UTC, minus the real time now, is
 * the host's offset, in steps of 15 minutes. Null when the event is not fresh (more than 2 minutes
 * off a step, or more than 14 hours): a late or replayed Cdr tells nothing.
 */
export function hostOffsetMinutes(endTime: string, nowMs: number): number | null {
  const asUtc = DateTime.fromFormat(endTime, 'yyyy-MM-dd HH:mm:ss', { zone: 'utc' });
  if (!asUtc.isValid) return null;
  const minutes = (asUtc.toMillis() - nowMs) / 60_000;
  const rounded = Math.round(minutes / 15) * 15 || 0;
  if (Math.abs(minutes - rounded) > 2 || Math.abs(rounded) > 14 * 60) return null;
  return rounded;
}

/** `+02:00`, `-03:30`, `+00:00`. */
const offsetText = (minutes: number) =>
  `${minutes < 0 ? '-' : '+'}${String(Math.floor(Math.abs(minutes) / 60)).padStart(2, '0')}:${String(Math.abs(minutes) % 60).padStart(2, '0')}`;

/**
 * The warning when the host's clock and `pbx_timezone` disagree (null when they agree): every
 * call time would be stored that far off.
 */
export function zoneMismatch(hostOffset: number, zone: string, nowMs: number): string | null {
  const configured = DateTime.fromMillis(nowMs, { zone }).offset;
  if (configured === hostOffset) return null;
  return (
    `The Asterisk host's clock runs at UTC${offsetText(hostOffset)} but pbx_timezone ${zone} is UTC${offsetText(configured)} now: ` +
    `call times are stored ${offsetText(configured - hostOffset).replace(/^\+/, '')} off. Set pbx_timezone to the Asterisk host's zone.`
  );
}

const uniqueidOf = (event: AmiMessage) => (event.get('UniqueID') ?? event.get('Uniqueid') ?? '').trim();
const linkedIdOf = (event: AmiMessage) => (event.get('LinkedID') ?? event.get('Linkedid'))?.trim() || null;

/**
 * The call a Cdr event belongs to: its LinkedID (cdr_manager `[mappings]` `linkedid => LinkedID`,
 * the first channel's uniqueid, kept through Local helpers and queues), else its uniqueid without
 * a Local half's `;N` (the placed call's helper half is `pbxapi-<call id>;2`).
 */
export function callKeyOf(event: AmiMessage): string {
  return linkedIdOf(event) ?? uniqueidOf(event).replace(/;\d+$/, '');
}

/**
 * A Local channel (`Local/ring@t…-ring-00000001;2`): a helper of the dialplan, never a call of its
 * own. Told by its prefix, not its `;N` marker: Asterisk cuts a CDR's channel at 80 characters,
 * and the marker of a long name (a queue's `Local/s@t<32 hex>-queue-<32 hex>-…`) goes with it.
 */
const isLocal = (channel: string | undefined) => /^Local\//i.test(channel ?? '');

/** The device a channel name is of: `PJSIP/alice-0000002a` is `alice`. */
const deviceOf = (channel: string | undefined) => /^(?:PJSIP|SIP|IAX2)\/(.+)-[0-9a-f]+$/i.exec(channel ?? '')?.[1] ?? null;

/** A UUID from the 32 hex digits the compiler names a tenant's objects with. */
const uuidOf = (hex: string) => `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;

/** The queue a `Queue(t…-queue-<32 hex>,…)` leg ran, as a queue id. */
const queueIdOf = (leg: AmiMessage) =>
  (leg.get('LastApplication') ?? '').toLowerCase() === 'queue' ? (/-queue-([0-9a-f]{32})\b/i.exec(leg.get('LastData') ?? '')?.[1] ?? null) : null;

/** The tenant's helper contexts a Local half runs in: receivers' paths, not calls. */
const helperContextOf = (channel: string | undefined) =>
  /@t[0-9a-f]{32}-(ring-external|ring|twinning|agents)\b/i.exec(channel ?? '')?.[1]?.toLowerCase() ?? null;

/** A stable id of one Cdr event: one channel's uniqueid may end several Dial forks, one Cdr each. */
function legIdOf(event: AmiMessage): string {
  const fields = event.fields.filter(([name]) => !/^(Timestamp|Privilege|SystemName|EventTV)$/i.test(name));
  const digest = createHash('sha256').update(JSON.stringify(fields)).digest('hex').slice(0, 16);
  return `${uniqueidOf(event).slice(0, 60)}#${digest}`;
}

interface LegTimes {
  start: string;
  answer: string | null;
  end: string;
}

function timesOf(event: AmiMessage, zone: string): LegTimes | null {
  const start = event.get('StartTime') ?? '';
  const end = event.get('EndTime') ?? '';
  if (!CALL_TIME.test(start) || !CALL_TIME.test(end)) return null;
  // A fork that was not answered keeps the answer time of its caller's channel (an Originate answers it first).
  const answered = (event.get('Disposition') ?? '').toUpperCase() === 'ANSWERED';
  const answer = event.get('AnswerTime') ?? '';
  return { start: pbxLocalToUtc(start, zone), answer: answered && CALL_TIME.test(answer) ? pbxLocalToUtc(answer, zone) : null, end: pbxLocalToUtc(end, zone) };
}

const statusOf = (leg: AmiMessage): Leg['status'] => DISPOSITIONS[(leg.get('Disposition') ?? '').toUpperCase()] ?? 'FAILED';
const secondsOf = (leg: AmiMessage, key: string) => Math.max(0, Number(leg.get(key) ?? 0) || 0);
/** Billable seconds only of an answered leg (a fork that was not answered counts its caller's talk). */
const billsecOf = (leg: AmiMessage) => (statusOf(leg) === 'ANSWERED' ? secondsOf(leg, 'BillableSeconds') : 0);

/**
 * The history record of one Asterisk call from all its Cdr events (its legs, merged by LinkedID):
 * the legs of the call's first channel (uniqueid = the key; one per Dial fork) are the call
 * (caller, times, the dialled destination, the fork that was answered). Every leg, the call's own
 * and the Local helpers' (the placing user's devices through `[t…-ring]`, a twinning through
 * `[t…-ring-external]` or `[t…-twinning]`, a queue member through `[t…-agents]`), that reached a
 * phone or the trunk is a receiver; a leg into another Local channel is only a path. Null while
 * the call's own leg has not arrived, or lacks its times.
 */
export async function cdrFromAmiLegs(ctx: AppContext, tenant: Tenant, key: string, legs: AmiMessage[], zone: string): Promise<IngestCdrView | null> {
  const mains = legs.filter((leg) => uniqueidOf(leg) === key && timesOf(leg, zone));
  if (mains.length === 0) return null;
  // The call's leg: the fork that was answered, else the last to end.
  const main =
    mains.find((leg) => statusOf(leg) === 'ANSWERED') ?? [...mains].sort((a, b) => (b.get('EndTime') ?? '').localeCompare(a.get('EndTime') ?? ''))[0];
  const mainTimes = timesOf(main, zone)!;
  const allTimes = mains.map((leg) => timesOf(leg, zone)!);
  const times: LegTimes = {
    start: allTimes.map((time) => time.start).sort()[0],
    answer: mainTimes.answer,
    end: allTimes
      .map((time) => time.end)
      .sort()
      .at(-1)!,
  };
  const placed = await findPlacedCallByUniqueid(ctx.db, tenant, key);
  const placedEndpoints = placed ? (JSON.parse(placed.endpoints) as { ringing: RingEndpoint[] }).ringing : [];
  const placedUser = placed ? await findUserName(ctx.db, tenant, placed.user_id) : undefined;
  const callerId = parseCallerId(main.get('CallerID'));
  const source = main.get('Source') || callerId.number;
  // A placed call's own leg names `s` as its destination until the user's phone answers: the number asked for, then.
  const destination = placed?.destination || (main.get('Destination') ?? '');
  const devices = await devicesByUsername(ctx.db, tenant, [
    deviceOf(main.get('Channel')) ?? '',
    ...legs.map((leg) => deviceOf(leg.get('DestinationChannel')) ?? ''),
  ]);
  const extensions = await extensionsByNumber(ctx.db, tenant, [source, destination, ...legs.map((leg) => leg.get('Destination') ?? '')]);
  const callerDevice = devices.get(deviceOf(main.get('Channel')) ?? '');
  const caller = extensions.get(source) ?? (callerDevice?.userId ? { userId: callerDevice.userId, name: callerDevice.name } : undefined);
  const callee = extensions.get(destination);
  // The queues the call went through (a member's leg is rung by the queue's Local member channel).
  const queueIds = [...new Set(legs.map(queueIdOf).filter((id): id is string => id !== null))];
  const queueNames = await queueNamesOf(ctx.db, tenant, queueIds.map(uuidOf));

  // Receivers by start time; legs that started together in the order the call rang its endpoints.
  const rank = (leg: AmiMessage) => {
    const index = placedEndpoints.findIndex((e) => e.address === deviceOf(leg.get('DestinationChannel')) || e.address === leg.get('Destination'));
    return index === -1 ? placedEndpoints.length : index;
  };
  const ordered = [...legs].sort(
    (a, b) => (a.get('StartTime') ?? '').localeCompare(b.get('StartTime') ?? '') || Number(mains.includes(a)) - Number(mains.includes(b)) || rank(a) - rank(b),
  );
  const receivers: Leg[] = [];
  for (const leg of ordered) {
    const legTimes = timesOf(leg, zone);
    const reached = leg.get('DestinationChannel') ?? '';
    // A leg into another Local channel (a queue's member, a flow) is only the path to a receiver.
    if (!legTimes || !reached.trim() || isLocal(reached)) continue;
    const isMain = mains.includes(leg);
    // The device the leg reached (PJSIP/alice-…) or the number it dialled (a twinning's, through the trunk).
    const deviceName = deviceOf(reached);
    const device = deviceName ? devices.get(deviceName) : undefined;
    const dialled = leg.get('Destination') ?? '';
    const endpoint = isMain
      ? undefined
      : (placedEndpoints.find((candidate) => candidate.address === deviceName) ?? placedEndpoints.find((candidate) => candidate.address === dialled));
    const context = helperContextOf(leg.get('Channel'));
    const queueId = context === 'agents' && queueIds.length > 0 ? queueIds[0] : null;
    // A phone of another tenant or removed since: its name, unless the leg dialled a number (through the trunk).
    const number = isMain
      ? destination
      : (endpoint?.address ?? device?.extension ?? (device || !/^\+?[0-9*#]+$/.test(dialled) ? (deviceName ?? dialled) : dialled));
    const extension = extensions.get(number);
    const via =
      endpoint && (endpoint.type === 'twinning' || endpoint.type === 'teams')
        ? { via_id: endpoint.id, via_name: endpoint.name, via_number: endpoint.address, via_type: 'TWINNING' as const }
        : context === 'twinning' || (context === 'ring-external' && !isMain)
          ? { via_id: /^[0-9a-f]{32}$/i.test(dialled) ? uuidOf(dialled.toLowerCase()) : null, via_name: null, via_number: null, via_type: 'TWINNING' as const }
          : queueId
            ? { via_id: uuidOf(queueId), via_name: queueNames.get(uuidOf(queueId)) ?? null, via_number: null, via_type: 'QUEUE' as const }
            : {};
    receivers.push({
      user_id: endpoint && placed ? placed.user_id : (device?.userId ?? extension?.userId ?? (isMain ? (callee?.userId ?? null) : null)),
      status: statusOf(leg),
      name: endpoint?.name ?? device?.name ?? extension?.name ?? (isMain ? (callee?.name ?? '') : ''),
      number,
      start_time: legTimes.start,
      answer_time: legTimes.answer,
      end_time: legTimes.end,
      duration: secondsOf(leg, 'Duration'),
      billsec: billsecOf(leg),
      ...via,
    });
  }
  // A placed call whose user never answered: the user's endpoints are what rang (the destination never did).
  const mainReached = (main.get('DestinationChannel') ?? '').trim();
  if (receivers.length === 0 && placed && !mainReached && statusOf(main) !== 'ANSWERED') {
    for (const endpoint of placedEndpoints) {
      receivers.push({
        user_id: placed.user_id,
        status: statusOf(main),
        name: endpoint.name,
        number: endpoint.address,
        start_time: times.start,
        answer_time: null,
        end_time: times.end,
        duration: secondsOf(main, 'Duration'),
        billsec: 0,
      });
    }
  }
  // Nobody rang (an announcement, a queue nobody answered): the dialled destination is the receiver.
  if (receivers.length === 0) {
    receivers.push({
      user_id: callee?.userId ?? null,
      status: statusOf(main),
      name: callee?.name ?? '',
      number: destination,
      start_time: times.start,
      answer_time: times.answer,
      end_time: times.end,
      duration: secondsOf(main, 'Duration'),
      billsec: billsecOf(main),
    });
  }
  const mainStatus = statusOf(main);
  // Answered by a person only when the call's leg reached a phone or the trunk; a leg answered by the
  // dialplan itself (an IVR, a queue playing music) counts the talk of the receivers who answered.
  const billsec = mainReached && !isLocal(mainReached) ? billsecOf(main) : Math.max(0, ...receivers.map((receiver) => receiver.billsec));
  // Internal when both parties are the tenant's: a user placing the call or an extension calling, and an extension called.
  const callerInternal = !!placed || !!caller;
  const calleeInternal = !!callee;
  return {
    cdr_id: cdrIdOf(key),
    type: placed || caller ? 'OUTGOING' : 'INCOMING',
    start_time: times.start,
    answer_time: times.answer,
    end_time: times.end,
    duration: secondsOf(main, 'Duration'),
    billsec,
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

/**
 * One leg of a call arrived: kept, and the call's record (re)written from all its legs once the
 * call's own leg is there. With a LinkedID every leg joins its call. Without one, a Local helper
 * leg joins only a call placed here (`pbxapi-<call id>;N`); any other is dropped, never a call of
 * its own (its uniqueid may be its own when Asterisk cut the `;N` marker off a long name).
 */
async function ingestCdrLeg(ctx: AppContext, tenant: Tenant, event: AmiMessage, onZone?: ZoneCheck): Promise<void> {
  const uniqueid = uniqueidOf(event);
  if (!uniqueid || !CALL_TIME.test(event.get('StartTime') ?? '') || !CALL_TIME.test(event.get('EndTime') ?? '')) return;
  const key = callKeyOf(event);
  if (!linkedIdOf(event) && isLocal(event.get('Channel')) && !(await findPlacedCallByUniqueid(ctx.db, tenant, key))) return;
  const setting = await amiZoneSettingOf(ctx.db, tenant);
  const zone = onZone ? await onZone(event, setting) : setting.name;
  await saveCdrLeg(ctx.db, tenant, {
    call_key: key,
    uniqueid: legIdOf(event),
    fields: JSON.stringify(event.fields),
    created_at: ctx.clock.now().toISOString(),
  });
  const legs = (await cdrLegsOf(ctx.db, tenant, key)).map((row) => new AmiMessage(JSON.parse(row.fields) as AmiFields));
  const record = await cdrFromAmiLegs(ctx, tenant, key, legs, zone);
  if (!record) return;
  await ingestCdrs(ctx, tenant, [record], 'ami', { replace: legs.length > 1 });
  const placed = await findPlacedCallByUniqueid(ctx.db, tenant, key);
  if (placed?.cdr_id === null) await linkPlacedCallRecord(ctx, tenant, placed.id, record.cdr_id);
  else if (placed && String(placed.cdr_id) !== String(record.cdr_id)) {
    await updatePlacedCall(ctx.db, tenant, placed.id, { cdr_id: String(record.cdr_id), updated_at: ctx.clock.now().toISOString() });
  }
}

/** The record of a single Cdr event (no other legs), in the ingestion format; null when it lacks what a record needs. */
export async function cdrFromAmiEvent(ctx: AppContext, tenant: Tenant, event: AmiMessage): Promise<IngestCdrView | null> {
  return cdrFromAmiLegs(ctx, tenant, callKeyOf(event), [event], await amiZoneOf(ctx.db, tenant));
}

/** Applies one AMI event: call progress of calls placed here, Cdr events into the history, the SIP devices' presence. */
export async function handleAmiEvent(
  ctx: AppContext,
  tenant: Tenant,
  event: AmiMessage,
  options: { checkZone?: ZoneCheck; presence?: ContactPresence } = {},
): Promise<void> {
  const name = event.get('Event')?.toLowerCase();
  if (name === 'originateresponse') {
    const placed = await findPlacedCallByAction(ctx.db, event.get('ActionID') ?? '');
    if (!placed || placed.pbx_id !== tenant.pbxId) return;
    const reason = originateReason(event.get('Reason'));
    if (event.get('Response')?.toLowerCase() !== 'success') {
      await endPlacedCall(ctx, tenant, placed.id, 'failed', `${reason.text} (OriginateResponse reason ${event.get('Reason') ?? 'missing'})`);
    } else if (placed.status === 'queued' || placed.status === 'ringing') {
      await advancePlacedCall(ctx, tenant, placed.id, 'answered', { reason: reason.text });
    }
  } else if (name === 'newchannel' || name === 'hangup') {
    const placed = await findPlacedCallByUniqueid(ctx.db, tenant, event.get('Uniqueid') ?? '');
    if (!placed) return;
    if (name === 'newchannel' && placed.status === 'queued') await advancePlacedCall(ctx, tenant, placed.id, 'ringing');
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
    await ingestCdrLeg(ctx, tenant, event, options.checkZone);
  } else if (name === 'contactstatus') {
    await applyContactStatus(ctx, tenant, event, options.presence);
  }
}

export interface ListenerOptions {
  backoffBaseMs?: number;
  backoffMaxMs?: number;
  log?: { warn(obj: object, msg: string): void; info?(obj: object, msg: string): void };
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
  /** The host offset and zone last compared (a mismatch is told once, not on every Cdr). */
  private zoneCompared: string | null = null;
  /** The host's offset its last fresh Cdr showed, used while `pbx_timezone` is not set. */
  private learnedOffset: number | null = null;

  /**
   * cdr_manager writes times in the host's local time, which AMI tells nowhere else: a fresh Cdr
   * shows the host's offset (its EndTime against the real clock, Asterisk's being real too), so
   * each Cdr is read in the zone the host runs on. While `pbx_timezone` is not set the times are
   * read at that learned offset (DST changes show in the next Cdr); a `pbx_timezone` that is set
   * overrides it, and when the two disagree the mismatch is logged and shown as the settings'
   * `connection.last_error`.
   */
  private readonly zoneFor: ZoneCheck = async (event, setting) => {
    const now = Date.now();
    const host = hostOffsetMinutes(event.get('EndTime') ?? '', now);
    if (host !== null) this.learnedOffset = host;
    const mismatch = host === null ? null : zoneMismatch(host, setting.name, now);
    if (!setting.explicit) {
      const offset = this.learnedOffset;
      if (offset === null || DateTime.fromMillis(now, { zone: setting.name }).offset === offset) return setting.name;
      if (this.zoneCompared !== `learned ${offset} ${setting.name}`) {
        this.zoneCompared = `learned ${offset} ${setting.name}`;
        this.options.log?.info?.(
          { pbx_id: this.tenant.pbxId, host_offset_minutes: offset, pbx_zone: setting.name },
          `pbx_timezone is not set: call times are read at the Asterisk host's offset ${offsetZone(offset)}, which its Cdrs show (the PBX's zone ${setting.name} differs)`,
        );
      }
      return offsetZone(offset);
    }
    if (host === null || !mismatch || this.zoneCompared === `${host} ${setting.name}`) return setting.name;
    this.zoneCompared = `${host} ${setting.name}`;
    this.options.log?.warn({ pbx_id: this.tenant.pbxId, host_offset_minutes: host, pbx_timezone: setting.name }, mismatch);
    await recordSettingsWarning(this.ctx.db, this.tenant, mismatch);
    return setting.name;
  };

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
      // The devices' presence as this connection hears it (only its changes are events); a reconnect starts afresh, it may have missed some.
      const presence = new ContactPresence();
      client.on('event', (event) => {
        this.chain = this.chain
          .then(() => handleAmiEvent(this.ctx, this.tenant, event, { checkZone: this.zoneFor, presence }))
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
