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
  {
    $id: 'PhoneButton',
    examples: [
      {
        id: 'fe5d6b3e-ba12-4e35-8b02-fbe6fc187b2c',
        user_id: 'cc54d4ae-8057-438f-8cd8-f22406bd64cd',
        sip_device_id: 'e75a570a-57f6-485d-b05c-e5356ed292d3',
        position: 1,
        type: 'line',
        value: null,
        label: 'Line',
        created_at: '2026-11-02T08:30:00.000Z',
        updated_at: '2026-11-02T08:30:00.000Z',
      },
    ],
  },
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
  {
    $id: 'PhoneButtonPreview',
    examples: [
      {
        model: 'yealink-t54w',
        total_buttons: 27,
        buttons: [
          { position: 1, type: 'line', value: null, label: 'Line' },
          { position: 2, type: 'blf', value: '203', label: 'Colleague' },
          { position: 3, type: 'speed_dial', value: '112', label: 'Emergency' },
          { position: 4, type: 'none', value: null, label: null },
        ],
      },
    ],
  },
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
