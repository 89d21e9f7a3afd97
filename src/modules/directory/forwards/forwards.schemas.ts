import { Type } from '@sinclair/typebox';
import { DateTime, Nullable, PbxText, StringEnum, Uuid } from '../../../http/schema.js';

export const FORWARD_TYPES = ['unconditional', 'busy', 'no_answer', 'unavailable'] as const;
export const FORWARD_DESTINATIONS = ['number', 'extension', 'voicemail'] as const;

export const Forward = Type.Object(
  {
    id: Uuid(),
    user_id: Uuid(),
    type: StringEnum(FORWARD_TYPES, { description: 'When the forward applies; one forward per type and user.' }),
    destination_type: StringEnum(FORWARD_DESTINATIONS),
    destination: Nullable(Type.String({ description: 'E.164 number, extension number, or null for voicemail.' })),
    delay: Type.Integer({ minimum: 0, description: 'Seconds of ringing before a no_answer forward applies.' }),
    enabled: Type.Boolean(),
    created_at: DateTime(),
    updated_at: DateTime(),
  },
  {
    $id: 'Forward',
    examples: [
      {
        id: '4e53fb36-c371-480b-9172-b1e6cde5f727',
        user_id: 'cc54d4ae-8057-438f-8cd8-f22406bd64cd',
        type: 'no_answer',
        destination_type: 'voicemail',
        destination: null,
        delay: 25,
        enabled: true,
        created_at: '2026-11-02T08:30:00.000Z',
        updated_at: '2026-11-02T08:30:00.000Z',
      },
    ],
  },
);

const fields = {
  type: StringEnum(FORWARD_TYPES),
  destination_type: StringEnum(FORWARD_DESTINATIONS),
  destination: Nullable(PbxText({ maxLength: 24 })),
  delay: Type.Integer({ minimum: 0, maximum: 300 }),
  enabled: Type.Boolean(),
};
export const CreateForwardBody = Type.Object(
  {
    type: fields.type,
    destination_type: fields.destination_type,
    destination: Type.Optional(fields.destination),
    delay: Type.Optional(fields.delay),
    enabled: Type.Optional(fields.enabled),
  },
  { additionalProperties: false, examples: [{ type: 'no_answer', destination_type: 'number', destination: '+352621987654', delay: 25, enabled: true }] },
);
export const UpdateForwardBody = Type.Partial(CreateForwardBody, { additionalProperties: false });
export const ForwardParams = Type.Object({ user: Uuid(), forward: Uuid() });
export const ForwardListQuery = Type.Object({ 'filter[type]': Type.Optional(fields.type), 'filter[enabled]': Type.Optional(Type.Boolean()) });
