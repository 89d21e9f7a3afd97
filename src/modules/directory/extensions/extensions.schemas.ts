import { Type } from '@sinclair/typebox';
import { DateTime, Nullable, StringEnum, Uuid } from '../../../http/schema.js';
import { ListQuery } from '../../../http/list-query.js';
import { IncludeParam } from '../../../http/include.js';
import { UserSummary } from '../shared/user-summary.js';

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
    user: Type.Optional(Nullable(UserSummary)),
    created_at: DateTime(),
    updated_at: DateTime(),
    deleted_at: Nullable(DateTime()),
  },
  { $id: 'Extension' },
);

const number = Type.String({ pattern: '^[0-9]{2,16}$', description: 'Dialable digits, unique within the PBX.', examples: ['201'] });
export const CreateExtensionBody = Type.Object(
  {
    number,
    name: Type.Optional(Type.String({ maxLength: 255 })),
    user_id: Type.Optional(Nullable(Uuid())),
    voicemail_enabled: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);
export const UpdateExtensionBody = Type.Partial(CreateExtensionBody, { additionalProperties: false });

export const ExtensionParams = Type.Object({ extension: Uuid() });
export const ExtensionInclude = Type.Object({ include: IncludeParam(['user']) });
export const ExtensionListQuery = ListQuery({
  sort: EXTENSION_SORTS,
  include: ['user'],
  filters: {
    user_id: Uuid(),
    trashed: StringEnum(['without', 'with', 'only']),
  },
});
