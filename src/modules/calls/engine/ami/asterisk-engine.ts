import type { Selectable } from 'kysely';
import type { AppContext } from '../../../../platform/context.js';
import { ringContext, ringExternalContext, tenantPrefix } from '../../../../platform/pbx-names.js';
import type { AmiSettingsTable } from '../../calls.tables.js';
import { EngineFailure, type OriginateRequest, type OriginateResult, type PbxEngine } from '../engine.js';
import { AmiError, answerText, type AmiClient, type AmiTraceEntry } from './client.js';
import { connectAmi } from './host-guard.js';
import type { AmiFields, AmiMessage } from './protocol.js';
import { originateReason } from './causes.js';

export interface AmiConnection {
  host: string;
  port: number;
  username: string;
  secret: string;
  /** Where click-to-call dials the destination: the tenant's own context unless the settings name another. */
  context: string;
  /** The tenant's prefix: its names on the Asterisk (contexts, files), see platform/pbx-names. */
  prefix: string;
}

/** How to reach a PBX's AMI, from its stored settings (the secret unsealed). */
export function amiConnectionOf(ctx: AppContext, row: Selectable<AmiSettingsTable>): AmiConnection {
  const prefix = tenantPrefix(row.pbx_id);
  return { host: row.host, port: row.port, username: row.username, secret: ctx.secrets.open(row.secret_sealed), context: row.context ?? prefix, prefix };
}

/**
 * 502 for an unreachable PBX, a refused login or call; 504 when it does not answer in time; 503
 * when the stored host is no longer admitted by the allow-list (no usable engine, nothing tried).
 */
export function engineFailure(error: unknown, trace: AmiTraceEntry[] | null): EngineFailure {
  if (error instanceof AmiError) return new EngineFailure(error.kind === 'timeout' ? 504 : error.kind === 'not_admitted' ? 503 : 502, error.message, trace);
  return new EngineFailure(502, `The PBX engine failed: ${(error as Error).message}`, trace);
}

/**
 * The Originate action of a click-to-call: ring the user's endpoints, then dial the destination in
 * `connection.context`. Several endpoints ring at once through the tenant's `[t…-ring]`; a twinning
 * leaves through its `[t…-ring-external]` (both in the pushed dialplan).
 */
export function originateAction(request: OriginateRequest, connection: Pick<AmiConnection, 'context' | 'prefix'>): AmiFields {
  const dialString = (endpoint: OriginateRequest['endpoints'][number]) =>
    endpoint.type === 'sip_device' || endpoint.type === 'webrtc'
      ? `PJSIP/${endpoint.address}`
      : `Local/${endpoint.address}@${ringExternalContext(connection.prefix)}`;
  const channel = request.endpoints.length === 1 ? dialString(request.endpoints[0]) : `Local/ring@${ringContext(connection.prefix)}`;
  const fields: AmiFields = [
    ['Action', 'Originate'],
    ['ActionID', request.actionId],
    ['ChannelId', request.actionId],
    ['Channel', channel],
    ['Context', connection.context],
    ['Exten', request.destination],
    ['Priority', '1'],
    ['Timeout', '30000'],
    ['Async', 'true'],
  ];
  if (request.anonymous) fields.push(['CallerID', '"Anonymous" <anonymous>']);
  else if (request.callerId) fields.push(['CallerID', `"${request.callerId.name.replace(/"/g, '')}" <${request.callerId.number}>`]);
  fields.push(['Variable', `PBXAPI_CALL_ID=${request.callId}`]);
  if (request.endpoints.length > 1) fields.push(['Variable', `PBXAPI_RING=${request.endpoints.map(dialString).join('&')}`]);
  if (request.anonymous) fields.push(['Variable', 'PBXAPI_ANONYMOUS=1']);
  if (request.autoAnswer) fields.push(['Variable', 'PBXAPI_AUTO_ANSWER=1']);
  if (request.forceDialBack) fields.push(['Variable', 'PBXAPI_FORCE_DIAL_BACK=1']);
  return fields;
}

/**
 * Opens a connection, logs in, and runs `work`; logs off afterwards, also after a refused login or
 * call (Asterisk logs a session closed without Logoff). Failures become EngineFailure.
 */
export async function withAmi<T>(
  ctx: AppContext,
  connection: AmiConnection,
  trace: boolean,
  work: (client: AmiClient) => Promise<T>,
): Promise<{ value: T; trace: AmiTraceEntry[] | null }> {
  let client: AmiClient | null = null;
  try {
    client = await connectAmi(ctx.config, connection, { trace });
    await client.login(connection.username, connection.secret);
    const value = await work(client);
    await client.logoff();
    return { value, trace: trace ? client.trace : null };
  } catch (error) {
    // The connection still works after a refusal: say goodbye. After a time-out or a drop, just close.
    if (client && error instanceof AmiError && (error.kind === 'rejected' || error.kind === 'login_failed')) await client.logoff();
    else client?.close();
    throw engineFailure(error, trace && client ? client.trace : null);
  }
}

/** The first OriginateResponse of an action on this connection (Asterisk sends it to the originating session too). */
function originateResponseOf(client: AmiClient, actionId: string): { event: Promise<AmiMessage>; stop(): void } {
  let listener: (event: AmiMessage) => void = () => undefined;
  const event = new Promise<AmiMessage>((resolve) => {
    listener = (message) => {
      if (message.get('Event')?.toLowerCase() === 'originateresponse' && message.get('ActionID') === actionId) resolve(message);
    };
    client.on('event', listener);
  });
  return { event, stop: () => client.off('event', listener) };
}

/** Places calls on an Asterisk PBX over AMI: one short connection per call (login, Originate, logoff). */
export class AsteriskEngine implements PbxEngine {
  readonly name = 'asterisk' as const;
  constructor(
    private readonly ctx: AppContext,
    private readonly connection: AmiConnection,
  ) {}

  /**
   * `Async: true` answers at once ("successfully queued"); a call Asterisk cannot place at all is
   * told by an OriginateResponse within milliseconds. That early answer is awaited for
   * AMI_ORIGINATE_WAIT_MS: a failure is the caller's 502, a call still ringing after it a success.
   */
  async originate(request: OriginateRequest): Promise<OriginateResult> {
    const { value, trace } = await withAmi(this.ctx, this.connection, request.trace, async (client) => {
      const early = originateResponseOf(client, request.actionId);
      try {
        const { response } = await client.action(originateAction(request, this.connection));
        if (response.get('Response')?.toLowerCase() !== 'success') {
          throw new AmiError('rejected', `The PBX refused the call: ${answerText(response.get('Message') ?? 'Originate failed')}.`);
        }
        let timer: NodeJS.Timeout | undefined;
        const window = new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), this.ctx.config.amiOriginateWaitMs)));
        const outcome = await Promise.race([early.event, window]);
        clearTimeout(timer);
        if (outcome && outcome.get('Response')?.toLowerCase() !== 'success') {
          const reason = originateReason(outcome.get('Reason'));
          throw new AmiError('rejected', `The PBX could not place the call: ${reason.text} (OriginateResponse reason ${outcome.get('Reason') ?? 'missing'}).`);
        }
        return { response, answered: outcome !== null };
      } finally {
        early.stop();
      }
    });
    return {
      engine: 'asterisk',
      message: value.response.get('Message') ?? 'Originate successfully queued',
      uniqueid: request.actionId,
      trace,
      answered: value.answered,
    };
  }
}
