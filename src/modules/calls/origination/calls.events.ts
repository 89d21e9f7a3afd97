import { Type } from '@sinclair/typebox';
import { StringEnum } from '../../../http/schema.js';
import { defineEventKind, type Audience } from '../../../platform/events/index.js';
import { PlacedCall } from './calls.schemas.js';

/**
 * The live events of a call placed through `POST /calls/new`, one per change of its status (the
 * engine's events move it: the simulated engine's, or Asterisk's through the AMI listener). Each
 * carries the call as `GET /calls/{id}` shows it. They reach the caller and the administrators
 * (who read the call there) and `call-history` integration keys (which read its record in the
 * call history); the PBX key reads neither, so it does not receive them.
 */
export const callAudience = (userId: string): Audience => ({ scope: 'users', userIds: [userId] });

const call = PlacedCall.properties;
const CALL = { subject: 'call', pbxKey: false, integrationScope: 'call-history' } as const;

const example = {
  id: '21c4e99a-943e-47db-afbf-e75b4f4be60c',
  user_id: 'e84e9823-c8fa-4b5e-982c-30baaf0f0efc',
  engine: 'asterisk',
  destination: '+352621123456',
  caller_identity_id: null,
  status: 'queued',
  reason: null,
  cdr_id: null,
  created_at: '2026-11-26T09:55:31.000Z',
  updated_at: '2026-11-26T09:55:31.000Z',
  ended_at: null,
};

export const callPlaced = defineEventKind({
  ...CALL,
  kind: 'call.placed',
  description: 'A user placed a call (`POST /calls/new`): it is recorded and handed to the PBX, which rings the user’s own endpoints first.',
  data: Type.Object({ ...call, status: StringEnum(['queued']) }, { examples: [example] }),
});

const Receiver = Type.Object({
  type: StringEnum(['sip_device', 'webrtc', 'twinning', 'teams']),
  id: Type.String({ description: 'The SIP device’s or twinning’s id; the user’s for the WebRTC client.' }),
  name: Type.String(),
});

export const callRinging = defineEventKind({
  ...CALL,
  kind: 'call.ringing',
  description: 'The PBX rings the caller’s own endpoints (`receivers`); once one answers, it dials the destination.',
  data: Type.Object(
    {
      ...call,
      status: StringEnum(['ringing']),
      receivers: Type.Array(Receiver, { description: 'What rings: the endpoints `POST /calls/new` answered as `ringing`.' }),
    },
    {
      examples: [
        {
          ...example,
          status: 'ringing',
          receivers: [{ type: 'sip_device', id: 'e75a570a-57f6-485d-b05c-e5356ed292d3', name: 'Front desk phone' }],
        },
      ],
    },
  ),
});

export const callAnswered = defineEventKind({
  ...CALL,
  kind: 'call.answered',
  description: 'The caller answered on one of its endpoints: the PBX connects it to the destination.',
  data: Type.Object({ ...call, status: StringEnum(['answered']) }, { examples: [{ ...example, status: 'answered', reason: 'Remote end has answered' }] }),
});

export const callEnded = defineEventKind({
  ...CALL,
  kind: 'call.ended',
  description:
    'The call was answered, has ended and is in the call history: `cdr_id` is its record (`GET /cdrs/detail/{id}`). ' +
    'Asterisk reports the record a moment after the hang-up (cdr_manager), so this event waits for it.',
  data: Type.Object(
    {
      ...call,
      status: StringEnum(['ended']),
      cdr_id: Type.Integer({ format: 'int64', description: 'The call-history record (`GET /cdrs/detail/{id}`).' }),
      ended_at: Type.String({ format: 'date-time' }),
    },
    { examples: [{ ...example, status: 'ended', reason: 'Normal Clearing', cdr_id: 1795755422319, ended_at: '2026-11-26T09:55:57.000Z' }] },
  ),
});

export const callFailed = defineEventKind({
  ...CALL,
  kind: 'call.failed',
  description: 'The call never connected: the PBX refused it, or the caller’s endpoints did not answer (`reason`, in Asterisk’s words).',
  data: Type.Object(
    {
      ...call,
      status: StringEnum(['failed']),
      reason: Type.String({ description: 'Why, in Asterisk’s words (originate reason or Q.850 hangup cause).' }),
      ended_at: Type.String({ format: 'date-time' }),
    },
    { examples: [{ ...example, status: 'failed', reason: 'User busy', ended_at: '2026-11-26T09:55:40.000Z' }] },
  ),
});
