import { TrashedFilterParam } from '../../../http/soft-delete.js';
import { Type } from '@sinclair/typebox';
import { DateTime, Nullable, PbxText, StringEnum, Uuid } from '../../../http/schema.js';
import { ListQuery } from '../../../http/list-query.js';
import { USER_SORTS } from './users.queries.js';

/** Every permission and telephony flag of a user; stored as 0/1, exposed and edited as booleans. */
export const USER_FLAGS = [
  'allow_telephony',
  'allow_dnd',
  'allow_change_twinning_dest',
  'allow_call_forwarding',
  'allow_manage_global_contacts',
  'extension_roaming',
  'allow_status_changer',
  'allow_manage_voicemail_parameters',
  'show_in_address_book',
  'vip',
  'allow_anonymous_calls',
  'is_shadow',
] as const;
export type UserFlag = (typeof USER_FLAGS)[number];

export const VISIBILITIES = ['own_calls', 'own_group_only', 'none'] as const;
export const VOICEMAIL_TYPES = ['enabled', 'external', 'internal'] as const;
export const VOICEMAIL_DESTINATIONS = ['email_only', 'email_and_phone'] as const;
export const USER_INCLUDES = ['extensions', 'sipDevices', 'twinnings', 'groups', 'callerIdentities'] as const;

const Flags = Type.Object({
  allow_telephony: Type.Boolean(),
  allow_dnd: Type.Boolean(),
  allow_change_twinning_dest: Type.Boolean(),
  allow_call_forwarding: Type.Boolean(),
  allow_manage_global_contacts: Type.Boolean(),
  extension_roaming: Type.Boolean(),
  allow_status_changer: Type.Boolean(),
  allow_manage_voicemail_parameters: Type.Boolean(),
  show_in_address_book: Type.Boolean(),
  vip: Type.Boolean(),
  allow_anonymous_calls: Type.Boolean(),
  is_shadow: Type.Boolean(),
});

const Embedded = Type.Array(Type.Object({}, { additionalProperties: true }));

export const User = Type.Object(
  {
    id: Uuid(),
    pbx_id: Uuid(),
    email: Type.String({ format: 'email' }),
    first_name: Type.String(),
    last_name: Type.String(),
    language: Type.String(),
    role: StringEnum(['admin', 'user']),
    status: StringEnum(['active', 'disabled']),
    email_verified_at: Nullable(DateTime()),
    ...Flags.properties,
    call_recordings_visibility: Nullable(Type.String()),
    call_information_visibility: Nullable(Type.String()),
    voicemail_type: Nullable(Type.String()),
    voicemail_destination: Nullable(Type.String()),
    concurrent_calls: Nullable(Type.Integer()),
    sync_source: Nullable(Type.String()),
    identity_provider_uid: Nullable(Type.String()),
    employee_id: Nullable(
      Uuid({
        description:
          'The employee this user is (workforce); null for none. Read-only here: set with user_id on PATCH /{pbx_id}/employees/{employee}. A deleted user or employee is linked to no one.',
      }),
    ),
    tempus: Nullable(Type.String()),
    created_at: DateTime(),
    updated_at: DateTime(),
    deleted_at: Nullable(DateTime()),
    extensions: Type.Optional(Embedded),
    sipDevices: Type.Optional(Embedded),
    twinnings: Type.Optional(Embedded),
    groups: Type.Optional(Embedded),
    callerIdentities: Type.Optional(Embedded),
  },
  {
    $id: 'User',
    examples: [
      {
        id: '2d7d40fc-5d58-4887-9624-db2cc510214d',
        pbx_id: '5b434841-6826-4eb7-9e1e-52f33261ad31',
        email: 'marie.hoffmann@acme.example',
        first_name: 'Marie',
        last_name: 'Hoffmann',
        language: 'en',
        role: 'user',
        status: 'active',
        email_verified_at: '2026-11-02T08:30:00.000Z',
        allow_telephony: true,
        allow_dnd: true,
        allow_change_twinning_dest: true,
        allow_call_forwarding: true,
        allow_manage_global_contacts: false,
        extension_roaming: false,
        allow_status_changer: true,
        allow_manage_voicemail_parameters: true,
        show_in_address_book: true,
        vip: false,
        allow_anonymous_calls: false,
        is_shadow: false,
        call_recordings_visibility: 'own_calls',
        call_information_visibility: 'own_group_only',
        voicemail_type: 'enabled',
        voicemail_destination: 'email_only',
        concurrent_calls: 2,
        sync_source: null,
        identity_provider_uid: null,
        employee_id: 'c0520a4b-eaf9-4b5d-bf35-586af4f62723',
        tempus: null,
        created_at: '2026-11-02T08:30:00.000Z',
        updated_at: '2026-11-02T08:30:00.000Z',
        deleted_at: null,
      },
    ],
  },
);

const Editable = Type.Object({
  email: Type.String({ format: 'email', maxLength: 255 }),
  first_name: PbxText({ minLength: 1, maxLength: 255 }),
  last_name: PbxText({ maxLength: 255 }),
  language: Type.String({ pattern: '^[a-z]{2}(-[A-Z]{2})?$', examples: ['en'] }),
  role: StringEnum(['admin', 'user']),
  status: StringEnum(['active', 'disabled'], { description: 'Disabling a user revokes every token it holds.' }),
  password: Type.String({ minLength: 8, maxLength: 255 }),
  call_recordings_visibility: Nullable(StringEnum(VISIBILITIES)),
  call_information_visibility: Nullable(StringEnum(VISIBILITIES)),
  voicemail_type: Nullable(StringEnum(VOICEMAIL_TYPES)),
  voicemail_destination: Nullable(StringEnum(VOICEMAIL_DESTINATIONS)),
  concurrent_calls: Nullable(Type.Integer({ minimum: 1, maximum: 100 })),
  identity_provider_uid: Nullable(Type.String({ maxLength: 255 })),
  employee_id: Nullable(
    Uuid({
      description:
        'Read-only: shown, never changed here. Send it only with its current value (null on create); any change is 422, since the link is set with user_id on PATCH /{pbx_id}/employees/{employee}.',
    }),
  ),
  tempus: Nullable(Type.String({ maxLength: 255 })),
  ...Flags.properties,
});

export const UpdateUserBody = Type.Partial(Editable, {
  additionalProperties: false,
  examples: [{ language: 'fr', allow_call_forwarding: true, voicemail_type: 'enabled', voicemail_destination: 'email_and_phone' }],
});
export const CreateUserBody = Type.Composite([Type.Partial(Type.Omit(Editable, ['email', 'first_name'])), Type.Pick(Editable, ['email', 'first_name'])], {
  additionalProperties: false,
  examples: [
    {
      email: 'claire.schmit@acme.example',
      first_name: 'Claire',
      last_name: 'Schmit',
      language: 'de',
      role: 'user',
      password: 'Kirchberg-2026!',
      allow_telephony: true,
      allow_dnd: true,
      extension_roaming: true,
      concurrent_calls: 2,
    },
  ],
});

export const UserParams = Type.Object({ user: Uuid() });
export const UserListQuery = ListQuery({
  sort: USER_SORTS,
  include: USER_INCLUDES,
  filters: {
    status: StringEnum(['active', 'disabled']),
    role: StringEnum(['admin', 'user']),
    trashed: TrashedFilterParam('users'),
  },
});
