import { TrashedFilterParam } from '../../../http/soft-delete.js';
import { Type } from '@sinclair/typebox';
import { DateTime, Nullable, PbxSecret, PbxText, StringEnum, Uuid } from '../../../http/schema.js';
import { ListQuery } from '../../../http/list-query.js';
import { PHONE_MODEL_IDS } from './phone-models.js';

export const SIP_DEVICE_SORTS = ['name', 'username', 'created_at'] as const;
export const TRANSPORTS = ['udp', 'tcp', 'tls', 'wss'] as const;
export const CODECS = ['opus', 'g722', 'pcma', 'pcmu', 'g729'] as const;

export const SipDevice = Type.Object(
  {
    id: Uuid(),
    pbx_id: Uuid(),
    user_id: Nullable(Uuid()),
    extension_id: Nullable(Uuid({ description: 'Home extension of the device.' })),
    name: Type.String(),
    username: Type.String({ description: 'SIP authentication user name, unique on the platform.' }),
    transport: StringEnum(TRANSPORTS),
    codecs: Type.Array(StringEnum(CODECS), { description: 'In preference order.' }),
    mac_address: Nullable(Type.String({ examples: ['80:5E:C0:12:34:56'] })),
    model: Nullable(Type.String()),
    enabled: Type.Boolean(),
    roaming_extension_id: Nullable(Uuid({ description: 'Extension logged in by roaming (hot-desking), if any.' })),
    roaming_user_id: Nullable(Uuid()),
    roaming_since: Nullable(DateTime()),
    created_at: DateTime(),
    updated_at: DateTime(),
    deleted_at: Nullable(DateTime()),
  },
  {
    $id: 'SipDevice',
    examples: [
      {
        id: 'e75a570a-57f6-485d-b05c-e5356ed292d3',
        pbx_id: '5b434841-6826-4eb7-9e1e-52f33261ad31',
        user_id: 'cc54d4ae-8057-438f-8cd8-f22406bd64cd',
        extension_id: '05041bb3-8686-4a4e-b603-d0108b61b666',
        name: 'Front desk phone',
        username: 'sip13421c5c8b56',
        transport: 'tls',
        codecs: ['opus', 'g722', 'pcma'],
        mac_address: 'B8:16:62:C5:38:C1',
        model: 'yealink-t54w',
        enabled: true,
        roaming_extension_id: null,
        roaming_user_id: null,
        roaming_since: null,
        created_at: '2026-11-02T08:30:00.000Z',
        updated_at: '2026-11-02T08:30:00.000Z',
        deleted_at: null,
      },
    ],
  },
);

const fields = {
  name: PbxText({ minLength: 1, maxLength: 255 }),
  username: Type.String({ pattern: '^[A-Za-z0-9._-]{4,64}$', description: 'Generated when omitted.' }),
  secret: PbxSecret({
    minLength: 12,
    maxLength: 128,
    description: 'SIP password; generated when omitted. Stored encrypted, shown only in the create answer.',
  }),
  transport: StringEnum(TRANSPORTS),
  codecs: Type.Array(StringEnum(CODECS), { minItems: 1, uniqueItems: true }),
  mac_address: Nullable(Type.String({ pattern: '^[0-9A-Fa-f]{2}([:-]?[0-9A-Fa-f]{2}){5}$', description: 'For provisioning; unique on the platform.' })),
  model: Nullable(StringEnum(PHONE_MODEL_IDS)),
  enabled: Type.Boolean(),
  user_id: Nullable(Uuid()),
  extension_id: Nullable(Uuid()),
};

export const CreateSipDeviceBody = Type.Object(
  {
    name: fields.name,
    username: Type.Optional(fields.username),
    secret: Type.Optional(fields.secret),
    transport: Type.Optional(fields.transport),
    codecs: Type.Optional(fields.codecs),
    mac_address: Type.Optional(fields.mac_address),
    model: Type.Optional(fields.model),
    enabled: Type.Optional(fields.enabled),
    user_id: Type.Optional(fields.user_id),
    extension_id: Type.Optional(fields.extension_id),
  },
  {
    additionalProperties: false,
    examples: [
      {
        name: 'Reception desk phone',
        transport: 'tls',
        codecs: ['opus', 'g722', 'pcma'],
        mac_address: '80:5E:C0:12:34:56',
        model: 'yealink-t46u',
        enabled: true,
        user_id: '3f6c1a52-8d4e-4b7a-9c2f-5e1d7a9b0c31',
        extension_id: '9b2e4c71-0a3d-4f58-b6e2-7c1d8a5f3e90',
      },
    ],
  },
);
export const UpdateSipDeviceBody = Type.Partial(CreateSipDeviceBody, { additionalProperties: false });

export const CreatedSipDevice = Type.Object({
  data: Type.Composite([Type.Omit(SipDevice, []), Type.Object({ secret: Type.String({ description: 'Shown once.' }) })], {
    examples: [
      {
        id: '4a7c2e91-5b3d-4f60-8e1a-9d2c7b5f0e43',
        pbx_id: '5b434841-6826-4eb7-9e1e-52f33261ad31',
        user_id: 'e84e9823-c8fa-4b5e-982c-30baaf0f0efc',
        extension_id: 'bb1bf3a8-8efe-442f-9f7e-1f044aaae0b7',
        name: 'Reception desk phone',
        username: 'sip7d41e2a09b3c',
        transport: 'tls',
        codecs: ['opus', 'g722', 'pcma'],
        mac_address: '80:5E:C0:12:34:56',
        model: 'yealink-t46u',
        enabled: true,
        roaming_extension_id: null,
        roaming_user_id: null,
        roaming_since: null,
        created_at: '2026-11-27T09:05:12.000Z',
        updated_at: '2026-11-27T09:05:12.000Z',
        deleted_at: null,
        secret: 'mV3q8Rk2xT7pL9wN4cB6hJ1z',
      },
    ],
  }),
});
export const SipDeviceParams = Type.Object({ sipDevice: Uuid() });
export const SipDeviceListQuery = ListQuery({
  sort: SIP_DEVICE_SORTS,
  filters: { user_id: Uuid(), model: Type.String(), trashed: TrashedFilterParam('SIP devices') },
});
