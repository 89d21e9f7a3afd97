import { Type } from '@sinclair/typebox';
import { DateTime, Nullable, StringEnum, Uuid } from '../../../http/schema.js';

export const BUTTON_TYPES = ['line', 'blf', 'speed_dial', 'park', 'dnd', 'forward', 'voicemail'] as const;
/** Types whose button needs a value (the watched extension, the number to dial, the park slot). */
export const BUTTON_TYPES_WITH_VALUE = ['blf', 'speed_dial', 'park'] as const;

export const PhoneButton = Type.Object(
  {
    id: Uuid(),
    user_id: Uuid(),
    sip_device_id: Uuid(),
    position: Type.Integer({ minimum: 1 }),
    type: StringEnum(BUTTON_TYPES),
    value: Nullable(Type.String()),
    label: Nullable(Type.String()),
    created_at: DateTime(),
    updated_at: DateTime(),
  },
  { $id: 'PhoneButton' },
);

export const PhoneButtonPreview = Type.Object(
  {
    model: Nullable(Type.String()),
    total_buttons: Type.Integer({ minimum: 0 }),
    buttons: Type.Array(
      Type.Object({
        position: Type.Integer(),
        type: Type.String({ description: `${BUTTON_TYPES.join(', ')}, or none for an unprogrammed key.` }),
        value: Nullable(Type.String()),
        label: Nullable(Type.String()),
      }),
    ),
  },
  { $id: 'PhoneButtonPreview' },
);

const fields = {
  sip_device_id: Uuid({ description: 'One of the user\u2019s SIP devices.' }),
  position: Type.Integer({ minimum: 1, maximum: 200 }),
  type: StringEnum(BUTTON_TYPES),
  value: Nullable(Type.String({ maxLength: 64 })),
  label: Nullable(Type.String({ maxLength: 64 })),
};
export const CreatePhoneButtonBody = Type.Object(
  { sip_device_id: fields.sip_device_id, position: fields.position, type: fields.type, value: Type.Optional(fields.value), label: Type.Optional(fields.label) },
  {
    additionalProperties: false,
    examples: [{ sip_device_id: '7e9a1c3b-5d2f-4a6e-8b0c-1d3f5a7c9e20', position: 3, type: 'blf', value: '204', label: 'Marc Hoffmann' }],
  },
);
export const UpdatePhoneButtonBody = Type.Object(
  { position: Type.Optional(fields.position), type: Type.Optional(fields.type), value: Type.Optional(fields.value), label: Type.Optional(fields.label) },
  { additionalProperties: false, examples: [{ position: 4, type: 'speed_dial', value: '+35227999888', label: 'Service desk' }] },
);
export const PhoneButtonParams = Type.Object({ user: Uuid(), phoneButtonId: Uuid() });
export const PhoneButtonQuery = Type.Object({
  sip_device_id: Type.Optional(Uuid({ description: 'Which of the user\u2019s devices; the first one by name when omitted.' })),
});
