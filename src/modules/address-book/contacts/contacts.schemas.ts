import { TrashedFilterParam } from '../../../http/soft-delete.js';
import { Type, type Static } from '@sinclair/typebox';
import { DateTime, Nullable, StringEnum, Uuid } from '../../../http/schema.js';
import { ListQuery } from '../../../http/list-query.js';
import { IncludeParam } from '../../../http/include.js';

/** Kinds of phone number a contact may have (the contract leaves the list open; this is ours). */
export const NUMBER_TYPES = ['work', 'mobile', 'home', 'fax', 'other'] as const;
/**
 * How the PBX routes a call from this contact: `default` (normal routing) or to one call flow,
 * extension, user or SIP device, whose id is then required and must exist in the PBX.
 */
export const HANDLING_TYPES = ['default', 'call_flow', 'extension', 'user', 'sip_device'] as const;

export const UserRef = Type.Object({ id: Uuid(), first_name: Type.String(), last_name: Type.String(), email: Type.String() });

export const ContactNumber = Type.Object({
  id: Uuid(),
  phone_number: Type.String({ description: 'E.164, normalised with the PBX country as default region.', examples: ['+352621123456'] }),
  phone_number_as_typed: Type.String({ description: 'The number exactly as it was entered.', examples: ['621 123 456'] }),
  label: Nullable(Type.String()),
  type: StringEnum(NUMBER_TYPES),
  speed_dial: Nullable(Type.String()),
  created_at: DateTime(),
  updated_at: DateTime(),
});

export const HandlingStrategy = Type.Object({
  type: StringEnum(HANDLING_TYPES),
  call_flow_id: Nullable(Uuid()),
  extension_id: Nullable(Uuid()),
  user_id: Nullable(Uuid()),
  sip_device_id: Nullable(Uuid()),
});

export const ContactGroup = Type.Object(
  {
    id: Uuid(),
    pbx_id: Uuid(),
    default_internal_call_flow_id: Nullable(Uuid()),
    default_external_call_flow_id: Nullable(Uuid()),
    extension_id_shown_outside_the_group: Nullable(Uuid()),
    default_caller_identity_id: Nullable(Uuid()),
    external_uid: Nullable(Type.String()),
    allow_call_pickups: Type.Boolean(),
    name: Type.String(),
    description: Nullable(Type.String()),
    allow_default_pbxes_outgoing_phone_numbers: Type.Boolean(),
    display_tab_to_everyone_inside_voxbi: Type.Boolean(),
    created_at: DateTime(),
    updated_at: DateTime(),
    users: Type.Array(UserRef),
  },
  {
    $id: 'ContactGroup',
    examples: [
      {
        id: 'ad6faf0e-bc6e-4123-a0ce-376b0c8bd3de',
        pbx_id: '5b434841-6826-4eb7-9e1e-52f33261ad31',
        default_internal_call_flow_id: null,
        default_external_call_flow_id: null,
        extension_id_shown_outside_the_group: null,
        default_caller_identity_id: null,
        external_uid: null,
        allow_call_pickups: true,
        name: 'Suppliers',
        description: 'Companies we buy from',
        allow_default_pbxes_outgoing_phone_numbers: false,
        display_tab_to_everyone_inside_voxbi: false,
        created_at: '2026-11-02T08:30:00.000Z',
        updated_at: '2026-11-02T08:30:00.000Z',
        users: [{ id: 'e84e9823-c8fa-4b5e-982c-30baaf0f0efc', first_name: 'Anna', last_name: 'Schmit', email: 'anna.schmit@acme.example' }],
      },
    ],
  },
);

export const Contact = Type.Object(
  {
    id: Uuid(),
    pbx_id: Uuid(),
    company_name: Nullable(Type.String()),
    department: Nullable(Type.String()),
    job_title: Nullable(Type.String()),
    name1: Type.String(),
    name2: Nullable(Type.String()),
    email: Nullable(Type.String()),
    notes: Nullable(Type.String()),
    vip: Type.Boolean(),
    numbers: Type.Array(ContactNumber),
    is_private: Type.Boolean({ description: 'Derived from private_owner_id.' }),
    private_owner_id: Nullable(Uuid()),
    editable: Type.Optional(Type.Boolean({ description: 'PRINCIPAL-CONDITIONAL: omitted for API keys.' })),
    is_favorite: Type.Optional(Type.Boolean({ description: 'PRINCIPAL-CONDITIONAL: omitted for API keys.' })),
    groups: Type.Array(Type.Ref(ContactGroup)),
    is_blocked_globally: Type.Boolean(),
    blocked_by_users: Type.Array(UserRef),
    handling_strategy: HandlingStrategy,
    private_owner: Type.Optional(Nullable(UserRef, { description: 'Only with include=private_owner.' })),
    created_at: DateTime(),
    updated_at: DateTime(),
    deleted_at: Nullable(DateTime()),
  },
  {
    $id: 'Contact',
    examples: [
      {
        id: '2aa13663-c2d3-46b1-a0b8-3a9ce2d348cf',
        pbx_id: '5b434841-6826-4eb7-9e1e-52f33261ad31',
        company_name: 'Nordwerk Supplies',
        department: null,
        job_title: null,
        name1: 'Becker',
        name2: 'Anna',
        email: 'anna.becker@nordwerk.example',
        notes: null,
        vip: false,
        numbers: [
          {
            id: 'af1e5e07-e963-4b5f-a863-2369253fba8e',
            phone_number: '+352621123456',
            phone_number_as_typed: '621 123 456',
            label: 'Office',
            type: 'work',
            speed_dial: null,
            created_at: '2026-11-02T08:30:00.000Z',
            updated_at: '2026-11-02T08:30:00.000Z',
          },
        ],
        is_private: false,
        private_owner_id: null,
        groups: [
          {
            id: 'ad6faf0e-bc6e-4123-a0ce-376b0c8bd3de',
            pbx_id: '5b434841-6826-4eb7-9e1e-52f33261ad31',
            default_internal_call_flow_id: null,
            default_external_call_flow_id: null,
            extension_id_shown_outside_the_group: null,
            default_caller_identity_id: null,
            external_uid: null,
            allow_call_pickups: true,
            name: 'Suppliers',
            description: 'Companies we buy from',
            allow_default_pbxes_outgoing_phone_numbers: false,
            display_tab_to_everyone_inside_voxbi: false,
            created_at: '2026-11-02T08:30:00.000Z',
            updated_at: '2026-11-02T08:30:00.000Z',
            users: [{ id: 'e84e9823-c8fa-4b5e-982c-30baaf0f0efc', first_name: 'Anna', last_name: 'Schmit', email: 'anna.schmit@acme.example' }],
          },
        ],
        is_blocked_globally: false,
        blocked_by_users: [],
        handling_strategy: { type: 'default', call_flow_id: null, extension_id: null, user_id: null, sip_device_id: null },
        created_at: '2026-11-02T08:30:00.000Z',
        updated_at: '2026-11-02T08:30:00.000Z',
        deleted_at: null,
        editable: true,
        is_favorite: true,
      },
    ],
  },
);
export type ContactView = Static<typeof Contact>;

const text = (maxLength = 255) => Type.Optional(Nullable(Type.String({ maxLength })));

export const ContactNumberBody = Type.Object(
  {
    phone_number: Type.String({ minLength: 1, maxLength: 64, description: 'Any common format; stored as typed and as E.164.', examples: ['621 123 456'] }),
    label: Type.Optional(Nullable(Type.String({ maxLength: 255 }))),
    type: StringEnum(NUMBER_TYPES),
    speed_dial: Type.Optional(Nullable(Type.String({ pattern: '^[0-9*#]{1,16}$', description: 'Unique per PBX.' }))),
  },
  { additionalProperties: false },
);

export const HandlingStrategyBody = Type.Object(
  {
    type: StringEnum(HANDLING_TYPES),
    call_flow_id: Type.Optional(Nullable(Uuid())),
    extension_id: Type.Optional(Nullable(Uuid())),
    user_id: Type.Optional(Nullable(Uuid())),
    sip_device_id: Type.Optional(Nullable(Uuid())),
  },
  { additionalProperties: false },
);

/** Create and PUT share this body; PUT replaces the whole contact (omitted fields are cleared). */
export const ContactBody = Type.Object(
  {
    name1: Type.String({ minLength: 1, maxLength: 255 }),
    name2: text(),
    email: Type.Optional(Nullable(Type.String({ format: 'email', maxLength: 255 }))),
    company_name: text(),
    department: text(),
    job_title: text(),
    notes: text(65535),
    vip: Type.Optional(Type.Boolean()),
    private_owner_id: Type.Optional(Nullable(Uuid({ description: "Only the caller's own user id; null or omitted makes the contact global." }))),
    is_private: Type.Optional(Type.Boolean({ description: 'Ignored: derived from private_owner_id.' })),
    groups: Type.Optional(Type.Array(Uuid(), { uniqueItems: true, maxItems: 100 })),
    contactPhoneNumbers: Type.Optional(Type.Array(ContactNumberBody, { maxItems: 50 })),
    handling_strategy: Type.Optional(Nullable(HandlingStrategyBody)),
  },
  {
    additionalProperties: false,
    examples: [
      {
        name1: 'Hoffmann',
        name2: 'Marc',
        email: 'marc.hoffmann@bauhaus-lux.example',
        company_name: 'Bauhaus Luxembourg S.à r.l.',
        department: 'Einkauf',
        job_title: 'Einkaufsleiter',
        notes: 'Prefers calls in German.',
        vip: true,
        private_owner_id: null,
        groups: ['b7d9f1a3-5c2e-4d6f-8a1b-3c5e7f9a1b2d'],
        contactPhoneNumbers: [
          { phone_number: '+352 26 12 34 56', label: 'Office', type: 'work', speed_dial: '12' },
          { phone_number: '621 123 456', label: null, type: 'mobile' },
        ],
        handling_strategy: { type: 'default' },
      },
    ],
  },
);
export type ContactInput = Static<typeof ContactBody>;

export const ContactParams = Type.Object({ contact: Uuid({ description: 'contact id (UUID)' }) });

export const CONTACT_SORTS = ['name1', 'name2', 'company_name', 'email', 'created_at', 'updated_at'] as const;
export const ContactListQuery = ListQuery({
  sort: CONTACT_SORTS,
  include: ['private_owner'],
  filters: {
    group_id: Uuid({ description: 'Contacts in this group.' }),
    is_private: Type.Boolean({ description: 'true: only private contacts; false: only global ones.' }),
    is_favorite: Type.Boolean({ description: "User tokens only: the caller's favorites (true) or the others (false)." }),
    is_blocked: Type.Boolean({ description: 'Blocked globally or by the caller.' }),
    vip: Type.Boolean(),
    trashed: TrashedFilterParam('contacts'),
  },
});
export type ContactListQueryT = Static<typeof ContactListQuery>;

export const ContactDetailQuery = Type.Object({ include: IncludeParam(['private_owner']) });

export const LookupQuery = Type.Object({
  number: Type.String({ minLength: 1, maxLength: 64, description: 'The calling number in any common format.', examples: ['+352 621 123 456'] }),
});

export const BlockBody = Type.Object(
  {
    scope: Type.Optional(
      StringEnum(['user', 'global'] as const, {
        description: 'user: only for the caller; global: for the whole PBX. Default: user for a user token, global for an API key.',
      }),
    ),
  },
  { additionalProperties: false, examples: [{ scope: 'global' }] },
);
export const BlockQuery = Type.Object({ scope: Type.Optional(StringEnum(['user', 'global'] as const)) });
