import type { Selectable } from 'kysely';
import type { AppContext } from '../../../../platform/context.js';
import type { AmiSettingsTable } from '../../calls.tables.js';
import { EngineFailure, type OriginateRequest, type OriginateResult, type PbxEngine } from '../engine.js';
import { AmiError, type AmiClient, type AmiTraceEntry } from './client.js';
import { connectAmi } from './host-guard.js';
import type { AmiFields } from './protocol.js';

export interface AmiConnection {
  host: string;
  port: number;
  username: string;
  secret: string;
  context: string;
}

/** How to reach a PBX's AMI, from its stored settings (the secret unsealed). */
export function amiConnectionOf(ctx: AppContext, row: Selectable<AmiSettingsTable>): AmiConnection {
  return { host: row.host, port: row.port, username: row.username, secret: ctx.secrets.open(row.secret_sealed), context: row.context };
}

/** Dialplan context the engine uses to ring several endpoints at once (see the README). */
export const RING_CONTEXT = 'pbxapi-ring';

/**
 * 502 for an unreachable PBX, a refused login or call; 504 when it does not answer in time; 503
 * when the stored host is no longer admitted by the allow-list (no usable engine, nothing tried).
 */
export function engineFailure(error: unknown, trace: AmiTraceEntry[] | null): EngineFailure {
  if (error instanceof AmiError) return new EngineFailure(error.kind === 'timeout' ? 504 : error.kind === 'not_admitted' ? 503 : 502, error.message, trace);
  return new EngineFailure(502, `The PBX engine failed: ${(error as Error).message}`, trace);
}

/** The Originate action of a click-to-call: ring the user's endpoints, then dial the destination. */
export function originateAction(request: OriginateRequest, context: string): AmiFields {
  const channel = request.endpoints.length === 1 ? dialString(request.endpoints[0]) : `Local/ring@${RING_CONTEXT}`;
  const fields: AmiFields = [
    ['Action', 'Originate'],
    ['ActionID', request.actionId],
    ['ChannelId', request.actionId],
    ['Channel', channel],
    ['Context', context],
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

function dialString(endpoint: OriginateRequest['endpoints'][number]): string {
  return endpoint.type === 'sip_device' || endpoint.type === 'webrtc' ? `PJSIP/${endpoint.address}` : `Local/${endpoint.address}@${RING_CONTEXT}-external`;
}

/** Opens a connection, logs in, and runs `work`; always logs off. Failures become EngineFailure. */
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
    client?.close();
    throw engineFailure(error, trace && client ? client.trace : null);
  }
}

/** Places calls on an Asterisk PBX over AMI: one short connection per call (login, Originate, logoff). */
export class AsteriskEngine implements PbxEngine {
  readonly name = 'asterisk' as const;
  constructor(
    private readonly ctx: AppContext,
    private readonly connection: AmiConnection,
  ) {}

  async originate(request: OriginateRequest): Promise<OriginateResult> {
    const { value: response, trace } = await withAmi(this.ctx, this.connection, request.trace, async (client) => {
      const { response } = await client.action(originateAction(request, this.connection.context));
      if (response.get('Response')?.toLowerCase() !== 'success') {
        throw new AmiError('rejected', `The PBX refused the call: ${response.get('Message') ?? 'Originate failed'}.`);
      }
      return response;
    });
    return { engine: 'asterisk', message: response.get('Message') ?? 'Originate successfully queued', uniqueid: request.actionId, trace };
  }
}

/** Logs in and asks the PBX for its version: what the connection-test endpoint reports. */
export async function testAmiConnection(ctx: AppContext, connection: AmiConnection, trace: boolean) {
  const started = Date.now();
  const { value, trace: exchange } = await withAmi(ctx, connection, trace, async (client) => {
    await client.action([['Action', 'Ping']]);
    const { response } = await client.action([
      ['Action', 'Command'],
      ['Command', 'core show version'],
    ]);
    return { banner: client.banner, version: response.output.find((line) => line.trim())?.trim() ?? null };
  });
  return {
    ami_version: value.banner.replace(/^Asterisk Call Manager\//, ''),
    asterisk_version: value.version,
    latency_ms: Date.now() - started,
    trace: exchange,
  };
}
