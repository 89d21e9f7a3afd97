import { Type, type Static } from '@sinclair/typebox';
import { Nullable, StringEnum, Uuid } from '../../../http/schema.js';
import { AmiTraceEntrySchema } from '../engine/pbx-engine.schemas.js';

export const NewCallQuery = Type.Object({
  debugAmiTrace: Type.Optional(Type.Boolean({ description: 'Return the AMI exchange in `data.ami_trace`, secrets masked.' })),
  autoAnswer: Type.Optional(Type.Boolean({ description: "Ask the user's endpoint to answer by itself." })),
  forceDialBack: Type.Optional(Type.Boolean({ description: 'Ring the user back even on a device that could dial directly.' })),
  anonymous: Type.Optional(Type.Boolean({ description: 'Hide the caller number; only for users allowed anonymous calls (403 otherwise).' })),
});
export type NewCallQueryView = Static<typeof NewCallQuery>;

export const NewCallHeaders = Type.Object({
  'idempotency-key': Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 255,
      pattern: '^[\\x21-\\x7E]+$',
      description:
        'Retrying with the same key within 24 hours returns the first answer and places no second call; the same key with another request is refused with 422.',
    }),
  ),
});

export const NewCallBody = Type.Object(
  {
    destination: Type.String({
      minLength: 1,
      maxLength: 64,
      pattern: '^\\+?[0-9*#][0-9*# ().\\/-]*$',
      description: 'Number or extension to call; spaces, dashes, dots, slashes and parentheses are ignored.',
      examples: ['+352621123456', '102'],
    }),
    caller_identity: Type.Optional(Uuid({ description: 'A caller identity the user may present; the default identity when omitted.' })),
    targets: Type.Optional(
      Type.Object(
        {
          sip_devices: Type.Optional(
            Nullable(
              Type.Array(Type.String({ minLength: 1, maxLength: 64 }), {
                maxItems: 20,
                uniqueItems: true,
                description: "The user's own SIP devices to ring; omit or null to ring all of them.",
              }),
            ),
          ),
          webrtc: Type.Optional(Type.Boolean({ default: false, description: 'Ring the WebRTC client (when the user has a WebRTC account).' })),
          twinning: Type.Optional(Type.Boolean({ default: false, description: 'Ring the mobile twinning (when an enabled twinning with a number exists).' })),
          teams: Type.Optional(Type.Boolean({ default: false, description: 'Ring the team-collaboration endpoint (when an enabled teams twinning exists).' })),
        },
        { additionalProperties: false },
      ),
    ),
    webhook_url: Type.Optional(
      Nullable(
        Type.String({
          format: 'uri',
          maxLength: 2048,
          description:
            'Receives the signed webhook `call.ended` or `call.failed` (data: the call as `GET /calls/{id}` shows it) when the call ends; http(s), private addresses refused.',
        }),
      ),
    ),
  },
  {
    additionalProperties: false,
    examples: [
      { destination: '+352621123456', targets: { sip_devices: null, webrtc: true, twinning: false }, webhook_url: 'https://crm.example.com/hooks/pbx' },
    ],
  },
);
export type NewCallBodyView = Static<typeof NewCallBody>;

const Endpoint = Type.Object({ type: StringEnum(['sip_device', 'webrtc', 'twinning', 'teams']), id: Type.String(), name: Type.String() });
const Skipped = Type.Object({ target: StringEnum(['sip_device', 'webrtc', 'twinning', 'teams']), id: Nullable(Type.String()), reason: Type.String() });

export const NewCallResponse = Type.Object({
  status: Type.String({ examples: ['success'] }),
  message: Type.String(),
  data: Type.Object(
    {
      call_id: Uuid(),
      engine: StringEnum(['simulated', 'asterisk']),
      destination: Type.String(),
      caller_identity: Nullable(Type.Object({ id: Uuid(), name: Type.String(), number: Type.String() })),
      anonymous: Type.Boolean(),
      auto_answer: Type.Boolean(),
      force_dial_back: Type.Boolean(),
      ringing: Type.Array(Endpoint, { description: "The user's endpoints rung for this call." }),
      skipped_targets: Type.Array(Skipped, { description: 'Requested targets without a configuration, skipped while the rest ring.' }),
      engine_message: Type.String(),
      ami_trace: Type.Optional(Type.Array(AmiTraceEntrySchema)),
    },
    {
      additionalProperties: true,
      examples: [
        {
          call_id: '7e2d9c41-3b5a-4f86-a0c7-1d8e6b4f2a95',
          engine: 'simulated',
          destination: '+352621123456',
          caller_identity: { id: '3b749d4e-1609-4f53-9ec7-580652f9890c', name: 'Company main line', number: '+35227123400' },
          anonymous: false,
          auto_answer: false,
          force_dial_back: false,
          ringing: [
            { type: 'sip_device', id: 'e75a570a-57f6-485d-b05c-e5356ed292d3', name: 'Front desk phone' },
            { type: 'webrtc', id: 'cc54d4ae-8057-438f-8cd8-f22406bd64cd', name: 'WebRTC client' },
          ],
          skipped_targets: [],
          engine_message: 'Originate successfully queued (simulated engine)',
        },
      ],
    },
  ),
});
export type NewCallResponseView = Static<typeof NewCallResponse>;

export const CallParams = Type.Object({ id: Uuid({ description: 'The `call_id` of `POST /calls/new`.' }) });

export const PlacedCall = Type.Object(
  {
    id: Uuid(),
    user_id: Uuid({ description: 'Who placed the call.' }),
    engine: StringEnum(['simulated', 'asterisk']),
    destination: Type.String(),
    caller_identity_id: Nullable(Uuid()),
    status: StringEnum(['queued', 'ringing', 'answered', 'failed', 'ended'], {
      description: 'queued (sent to the PBX), ringing, answered, failed (never connected; see `reason`), ended (hung up after being answered).',
    }),
    reason: Nullable(Type.String({ description: "Why the call failed or ended, in Asterisk's words (originate reason or Q.850 hangup cause)." })),
    cdr_id: Nullable(Type.Integer({ format: 'int64', description: 'The call-history record (`GET /cdrs/detail/{id}`) once the PBX reported it.' })),
    created_at: Type.String({ format: 'date-time' }),
    updated_at: Type.String({ format: 'date-time' }),
    ended_at: Nullable(Type.String({ format: 'date-time' })),
  },
  {
    $id: 'PlacedCall',
    examples: [
      {
        id: '21c4e99a-943e-47db-afbf-e75b4f4be60c',
        user_id: 'e84e9823-c8fa-4b5e-982c-30baaf0f0efc',
        engine: 'simulated',
        destination: '202',
        caller_identity_id: null,
        status: 'ended',
        reason: 'Normal Clearing',
        cdr_id: 1795755422319,
        created_at: '2026-11-26T09:55:31.000Z',
        updated_at: '2026-11-26T09:55:57.000Z',
        ended_at: '2026-11-26T09:55:57.000Z',
      },
    ],
  },
);
