import { Type } from '@sinclair/typebox';
import { PbxText, Uuid } from '../../../http/schema.js';
import { IncludeParam } from '../../../http/include.js';
import { ListQuery } from '../../../http/list-query.js';

export const USER_GROUP_SORTS = ['position', 'name'] as const;

export const UserGroup = Type.Object(
  {
    id: Uuid(),
    name: Type.String(),
    user_id: Uuid({ description: 'Owner: a group belongs to one user.' }),
    position: Type.Integer({ minimum: 1, description: 'Order among the owner\u2019s groups, from 1.' }),
    users: Type.Optional(Type.Array(Uuid(), { description: 'Member user ids; present only with include=users.' })),
  },
  {
    $id: 'UserGroup',
    examples: [{ id: '39c1055e-b7de-465e-825e-e3fc6bb7cf93', name: 'Sales team', user_id: 'cc54d4ae-8057-438f-8cd8-f22406bd64cd', position: 1 }],
  },
);

const members = Type.Array(Uuid(), { uniqueItems: true, maxItems: 500 });
export const CreateUserGroupBody = Type.Object(
  {
    name: PbxText({ minLength: 1, maxLength: 255 }),
    position: Type.Optional(Type.Integer({ minimum: 1, description: 'Where to insert; appended when omitted.' })),
    users: Type.Optional(members),
  },
  {
    additionalProperties: false,
    examples: [{ name: 'Sales team Kirchberg', position: 1, users: ['3f6c1a52-8d4e-4b7a-9c2f-5e1d7a9b0c31', '8d2f4b6a-1c3e-4a5b-9d7f-2e4c6a8b0d13'] }],
  },
);
export const UpdateUserGroupBody = Type.Object(
  {
    name: Type.Optional(PbxText({ minLength: 1, maxLength: 255 })),
    position: Type.Optional(Type.Integer({ minimum: 1, description: 'Moves the group; the others shift to keep 1..n.' })),
  },
  { additionalProperties: false, examples: [{ name: 'Support team Esch', position: 2 }] },
);
export const UserGroupMembersBody = Type.Object(
  { users: members },
  { additionalProperties: false, examples: [{ users: ['3f6c1a52-8d4e-4b7a-9c2f-5e1d7a9b0c31', '8d2f4b6a-1c3e-4a5b-9d7f-2e4c6a8b0d13'] }] },
);

export const UserGroupParams = Type.Object({ user: Uuid(), userGroup: Uuid() });
export const UserGroupInclude = Type.Object({ include: IncludeParam(['users']) });
export const UserGroupListQuery = ListQuery({ sort: USER_GROUP_SORTS, include: ['users'], filters: { user_id: Uuid() } });
