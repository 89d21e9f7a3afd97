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
  { $id: 'PushDevice' },
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
export const DeviceListResponse = Type.Object({ message: Type.String(), devices: Type.Array(Type.Ref(PushDevice)), total: Type.Integer({ minimum: 0 }) });
export const DeviceResponse = Type.Object({ message: Type.String(), device: Type.Ref(PushDevice) });
