import { TrashedFilterParam } from '../../../http/soft-delete.js';
import { Type } from '@sinclair/typebox';
import { DateTime, Embedded, Nullable, PbxText, Uuid } from '../../../http/schema.js';
import { ListQuery } from '../../../http/list-query.js';
import { IncludeParam } from '../../../http/include.js';
import { UserSummary } from '../shared/user-summary.js';
import { SipDevice } from '../sip-devices/sip-devices.schemas.js';
import { UserGroup } from '../user-groups/user-groups.schemas.js';

/** What `include` may embed: the owner (`user`), the owner with its groups, the device it rings on. */
export const EXTENSION_INCLUDES = ['user.groups', 'sipDevice'] as const;

const ExtensionUser = Type.Object(
  { ...UserSummary.properties, groups: Type.Optional(Type.Array(Embedded(UserGroup), { description: 'With include=user.groups: the user\u2019s groups.' })) },
  { description: 'With include=user (or user.groups): the owner; null when the extension has none.' },
);

export const EXTENSION_SORTS = ['number', 'name', 'created_at'] as const;

export const Extension = Type.Object(
  {
    id: Uuid(),
    pbx_id: Uuid(),
    voip_id: Type.Integer({ description: 'Numeric id of the extension on the PBX engine (DND rules refer to it).' }),
    number: Type.String({ examples: ['201'] }),
    name: Type.String(),
    user_id: Nullable(Uuid()),
    voicemail_enabled: Type.Boolean(),
    is_favorite: Type.Optional(Type.Boolean({ description: 'PRINCIPAL-CONDITIONAL: present for user tokens only.' })),
    user: Type.Optional(Nullable(ExtensionUser)),
    sipDevice: Type.Optional(
      Nullable(Embedded(SipDevice), {
        description:
          'With include=sipDevice: the SIP device the extension rings on (logged in there by roaming, else its home device, the oldest first); null when none.',
      }),
    ),
    created_at: DateTime(),
    updated_at: DateTime(),
    deleted_at: Nullable(DateTime()),
  },
  {
    $id: 'Extension',
    examples: [
      {
        id: 'bb1bf3a8-8efe-442f-9f7e-1f044aaae0b7',
        pbx_id: '5b434841-6826-4eb7-9e1e-52f33261ad31',
        voip_id: 1,
        number: '201',
        name: 'anna.schmit',
        user_id: 'e84e9823-c8fa-4b5e-982c-30baaf0f0efc',
        voicemail_enabled: true,
        created_at: '2026-11-02T08:30:00.000Z',
        updated_at: '2026-11-02T08:30:00.000Z',
        deleted_at: null,
        is_favorite: false,
      },
    ],
  },
);

const number = Type.String({ pattern: '^[0-9]{2,16}$', description: 'Dialable digits, unique within the PBX.', examples: ['201'] });
export const CreateExtensionBody = Type.Object(
  {
    number,
    name: Type.Optional(PbxText({ maxLength: 255 })),
    user_id: Type.Optional(Nullable(Uuid())),
    voicemail_enabled: Type.Optional(Type.Boolean()),
  },
  {
    additionalProperties: false,
    examples: [{ number: '201', name: 'Claire Schmit', user_id: '3f6c1a52-8d4e-4b7a-9c2f-5e1d7a9b0c31', voicemail_enabled: true }],
  },
);
export const UpdateExtensionBody = Type.Partial(CreateExtensionBody, { additionalProperties: false });

export const ExtensionParams = Type.Object({ extension: Uuid() });
export const ExtensionInclude = Type.Object({ include: IncludeParam(EXTENSION_INCLUDES) });
export const ExtensionListQuery = ListQuery({
  sort: EXTENSION_SORTS,
  include: EXTENSION_INCLUDES,
  filters: {
    user_id: Uuid(),
    trashed: TrashedFilterParam('extensions'),
  },
});
