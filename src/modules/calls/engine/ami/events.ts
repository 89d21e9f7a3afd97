import { createHash } from 'node:crypto';
import type { AppContext } from '../../../../platform/context.js';
import type { Tenant } from '../../../../platform/tenancy.js';
import { ingestCdrs } from '../../cdrs/cdrs.service.js';
import type { IngestCdrView } from '../../cdrs/cdrs.schemas.js';
import { findPlacedCallByAction, findPlacedCallByUniqueid, updatePlacedCall, usersByExtension } from '../pbx-engine.queries.js';
import type { AmiClient } from './client.js';
import { connectAmi, type AmiHostGuard } from './host-guard.js';
import type { AmiMessage } from './protocol.js';
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
const isExtension = (number: string) => /^\d{1,6}$/.test(number);

/** `"Name" <number>` as Asterisk writes a caller id. */
function parseCallerId(value: string | undefined): { name: string; number: string } {
  const match = /^\s*"?([^"<]*?)"?\s*<([^>]*)>\s*$/.exec(value ?? '');
  return match ? { name: match[1].trim(), number: match[2].trim() } : { name: '', number: (value ?? '').trim() };
}

/** The call detail record of an AMI `Cdr` event, in the ingestion format; null when it lacks what a record needs. */
export async function cdrFromAmiEvent(ctx: AppContext, tenant: Tenant, event: AmiMessage): Promise<IngestCdrView | null> {
  const uniqueid = event.get('UniqueID') ?? event.get('Uniqueid');
  const start = event.get('StartTime') ?? '';
  const end = event.get('EndTime') ?? '';
  if (!uniqueid || !CALL_TIME.test(start) || !CALL_TIME.test(end)) return null;
  const answer = CALL_TIME.test(event.get('AnswerTime') ?? '') ? event.get('AnswerTime')! : null;
  const callerId = parseCallerId(event.get('CallerID'));
  const source = event.get('Source') || callerId.number;
  const destination = event.get('Destination') ?? '';
  const placed = await findPlacedCallByUniqueid(ctx.db, tenant, uniqueid);
  const users = await usersByExtension(ctx.db, tenant, [source, destination]);
  const caller = users.get(source);
  const callee = users.get(destination);
  const duration = Math.max(0, Number(event.get('Duration') ?? 0) || 0);
  const billsec = Math.max(0, Number(event.get('BillableSeconds') ?? 0) || 0);
  const status = DISPOSITIONS[(event.get('Disposition') ?? '').toUpperCase()] ?? 'FAILED';
  const internal = isExtension(source) && isExtension(destination);
  const outgoing = !!placed || !!caller || (isExtension(source) && !isExtension(destination));
  return {
    cdr_id: cdrIdOf(uniqueid),
    type: outgoing ? 'OUTGOING' : 'INCOMING',
    start_time: start,
    answer_time: answer,
    end_time: end,
    duration,
    billsec,
    is_internal: internal,
    caller: { user_id: placed?.user_id ?? caller?.userId ?? null, name: callerId.name || caller?.name || '', number: source },
    receivers: [
      {
        user_id: callee?.userId ?? null,
        status,
        name: callee?.name ?? '',
        number: destination,
        start_time: start,
        answer_time: answer,
        end_time: end,
        duration,
        billsec,
      },
    ],
    call_flow: [
      { color: 'info', text: 'Call started', sub_text: event.get('Channel') ?? null, time: start },
      ...(answer ? [{ color: 'success' as const, text: 'Answered', sub_text: event.get('DestinationChannel') || null, time: answer }] : []),
      {
        color: status === 'ANSWERED' ? 'secondary' : 'warning',
        text: status === 'ANSWERED' ? 'Hung up' : `Ended: ${(event.get('Disposition') ?? 'failed').toLowerCase()}`,
        sub_text: null,
        time: end,
      },
    ],
  };
}

/** OriginateResponse reasons (Asterisk's AST_CONTROL values). */
const ORIGINATE_REASONS: Record<string, string> = {
  '0': 'no such extension or number',
  '1': 'no answer',
  '3': 'no answer',
  '4': 'answered',
  '5': 'busy',
  '8': 'congested',
};

/** Applies one AMI event: call progress of calls placed here, and Cdr events into the history. */
export async function handleAmiEvent(ctx: AppContext, tenant: Tenant, event: AmiMessage): Promise<void> {
  const name = event.get('Event')?.toLowerCase();
  const now = ctx.clock.now().toISOString();
  if (name === 'originateresponse') {
    const placed = await findPlacedCallByAction(ctx.db, event.get('ActionID') ?? '');
    if (!placed || placed.pbx_id !== tenant.pbxId) return;
    const success = event.get('Response')?.toLowerCase() === 'success';
    const reason = ORIGINATE_REASONS[event.get('Reason') ?? ''] ?? `reason ${event.get('Reason') ?? 'unknown'}`;
    await updatePlacedCall(ctx.db, tenant, placed.id, {
      status: success ? 'answered' : 'failed',
      uniqueid: event.get('Uniqueid') || placed.uniqueid,
      reason,
      updated_at: now,
    });
  } else if (name === 'newchannel' || name === 'hangup') {
    const placed = await findPlacedCallByUniqueid(ctx.db, tenant, event.get('Uniqueid') ?? '');
    if (!placed) return;
    if (name === 'newchannel' && placed.status === 'queued') await updatePlacedCall(ctx.db, tenant, placed.id, { status: 'ringing', updated_at: now });
    if (name === 'hangup')
      await updatePlacedCall(ctx.db, tenant, placed.id, {
        status: placed.status === 'failed' ? 'failed' : 'ended',
        reason: event.get('Cause-txt') ?? placed.reason,
        updated_at: now,
      });
  } else if (name === 'cdr') {
    const record = await cdrFromAmiEvent(ctx, tenant, event);
    if (record) await ingestCdrs(ctx, tenant, [record], 'ami');
  }
}

export interface ListenerOptions {
  backoffBaseMs?: number;
  backoffMaxMs?: number;
  log?: { warn(obj: object, msg: string): void };
  /** Checks the host on every (re)connection; by default one built from the configuration. */
  guard?: AmiHostGuard;
}

/**
 * A long-lived AMI session per PBX that listens to call events. When the connection drops or
 * cannot be made it retries with exponential back-off (base * 2^n, capped), reset by a login.
 */
export class AmiEventListener {
  private client: AmiClient | null = null;
  private stopped = false;
  private timer: NodeJS.Timeout | null = null;
  private chain: Promise<void> = Promise.resolve();
  /** Consecutive failed attempts; exposed for tests and logs. */
  failures = 0;
  connections = 0;

  constructor(
    private readonly ctx: AppContext,
    private readonly tenant: Tenant,
    private readonly connection: AmiConnection,
    private readonly options: ListenerOptions = {},
  ) {}

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

  nextDelayMs(): number {
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
      if (this.stopped) client.close();
    } catch (error) {
      this.options.log?.warn({ err: error, pbx_id: this.tenant.pbxId }, 'AMI event connection failed');
      client?.close();
      this.retry();
    }
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
