import { Type } from '@sinclair/typebox';
import { ListQuery } from '../../../http/list-query.js';
import { DateTime, Nullable, StringEnum, Uuid } from '../../../http/schema.js';

export const DEVICE_TYPES = ['ios', 'android', 'web', 'desktop'] as const;

export const PushDevice = Type.Object(
  {
    id: Uuid(),
    name: Nullable(Type.String()),
    user_id: Uuid(),
    twinning_id: Nullable(Uuid()),
    type: Type.String({ description: `Platform of the push channel: ${DEVICE_TYPES.join(', ')}.` }),
    token: Type.String({ description: 'Push token of the app installation.' }),
    is_active: Type.Boolean(),
    last_used_at: Nullable(DateTime()),
    created_at: DateTime(),
    updated_at: DateTime(),
  },
  {
    $id: 'PushDevice',
    examples: [
      {
        id: '6f1d2c3b-8a4e-4f5d-9c6b-7a8e9f0d1c2b',
        name: "Luc's iPhone",
        user_id: 'cc54d4ae-8057-438f-8cd8-f22406bd64cd',
        twinning_id: 'b80a7fe3-cc8b-4bf5-91fa-a7bf643b5c12',
        type: 'ios',
        token: '8f3b2c1d0e9a7b6c5d4e3f2a1b0c9d8e7f6a5b4c3d2e1f0a9b8c7d6e5f4a3b2c',
        is_active: true,
        last_used_at: '2026-11-24T09:12:40.000Z',
        created_at: '2026-11-23T08:30:00.000Z',
        updated_at: '2026-11-24T09:12:40.000Z',
      },
    ],
  },
);

export const RegisterDeviceBody = Type.Object(
  {
    type: StringEnum(DEVICE_TYPES),
    token: Type.String({ minLength: 8, maxLength: 512 }),
    name: Type.Optional(Nullable(Type.String({ maxLength: 255 }))),
    twinning_id: Type.Optional(Nullable(Uuid({ description: 'The user\u2019s twinning this app answers for (VoIP push).' }))),
  },
  {
    additionalProperties: false,
    examples: [
      {
        type: 'ios',
        token: '740f4707bebcf74f9b7c25d48e3358945f6aa01da5ddb387462c7eaf61bb78ad',
        name: 'iPhone Claire',
        twinning_id: 'a3c5e7f9-1b2d-4e6f-8a0b-c2d4e6f8a0b2',
      },
    ],
  },
);

export const DeviceParams = Type.Object({ device: Uuid() });
/** The standard list parameters, with the contract's plain `type` and `active` filters. */
export const DeviceListQuery = ListQuery({
  sort: ['created_at', 'last_used_at', 'name'],
  extra: { type: Type.Optional(StringEnum(DEVICE_TYPES)), active: Type.Optional(Type.Boolean()) },
});
export const DeviceListResponse = Type.Object({
  message: Type.String(),
  devices: Type.Array(Type.Ref(PushDevice)),
  total: Type.Integer({ minimum: 0, examples: [1] }),
});
export const DeviceResponse = Type.Object({ message: Type.String(), device: Type.Ref(PushDevice) });
/** The read of one device: the writes' `{message, device}`, its message stated here (the writes' come from the OpenAPI document's answer messages). */
export const DeviceReadResponse = Type.Object({
  message: Type.String({ examples: ['Device retrieved successfully.'] }),
  device: Type.Ref(PushDevice),
});
