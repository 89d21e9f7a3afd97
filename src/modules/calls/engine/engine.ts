import { HttpError } from '../../../platform/errors.js';
import type { AmiTraceEntry } from './ami/client.js';

/** An endpoint of the calling user that rings first (click-to-call), then is bridged to the destination. */
export interface RingEndpoint {
  type: 'sip_device' | 'webrtc' | 'twinning' | 'teams';
  id: string;
  name: string;
  /** How the engine dials it: a SIP account name, or a number. */
  address: string;
}

export interface OriginateRequest {
  callId: string;
  /** Correlates the engine's answer and events with this call (the AMI ActionID and channel id). */
  actionId: string;
  pbxId: string;
  user: { id: string; name: string };
  destination: string;
  callerId: { name: string; number: string } | null;
  anonymous: boolean;
  autoAnswer: boolean;
  forceDialBack: boolean;
  endpoints: RingEndpoint[];
  trace: boolean;
}

export interface OriginateResult {
  engine: 'simulated' | 'asterisk';
  message: string;
  uniqueid: string | null;
  trace: AmiTraceEntry[] | null;
  /** The PBX already reported the call answered (an early OriginateResponse). */
  answered?: boolean;
}

export interface PbxEngine {
  readonly name: 'simulated' | 'asterisk';
  originate(request: OriginateRequest): Promise<OriginateResult>;
}

/**
 * The engine could not place the call. The contract gives call initiation failures the body
 * `{status: "error", message}`: 502 when the PBX is unreachable, refuses the login or the call,
 * 504 when it does not answer in time.
 */
export class EngineFailure extends HttpError {
  constructor(
    readonly statusCode: 502 | 503 | 504,
    message: string,
    readonly trace: AmiTraceEntry[] | null = null,
    /** More of the answer's `data` (the connection test's checks). */
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
  }
  body() {
    const data = { ...this.extra, ...(this.trace ? { ami_trace: this.trace } : {}) };
    return { status: 'error', message: this.message, ...(Object.keys(data).length ? { data } : {}) };
  }
}
