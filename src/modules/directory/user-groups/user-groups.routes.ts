import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../../platform/context.js';
import { isAdmin } from '../../../platform/auth/principal.js';
import { resourceRoutes } from '../../../http/resource-routes.js';
import { UserParams } from '../users/users.schemas.js';
import { UserGroupsService, type UserGroupRow } from './user-groups.service.js';
import {
  CreateUserGroupBody,
  UpdateUserGroupBody,
  UserGroup,
  UserGroupInclude,
  UserGroupListQuery,
  UserGroupMembersBody,
  UserGroupParams,
} from './user-groups.schemas.js';

const AUTH = { user: true, pbx: true } as const;
/** Writes answer with the members, so the caller sees the group it just shaped. */
const WITH_MEMBERS = ['users'];

export async function userGroupRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }): Promise<void> {
  const service = new UserGroupsService(ctx);
  const groups = resourceRoutes(app, ctx.config.baseUrl, {
    tags: ['User groups'],
    schema: UserGroup,
    present: (rows: UserGroupRow[], { include }) => service.present(rows, include.has('users')),
  });

  groups.list('/user-groups', {
    auth: AUTH,
    operationId: 'listUserGroups',
    summary: 'User groups: a user\u2019s own; every group of the PBX for an administrator (filter[user_id] narrows)',
    description:
      'Any user of the PBX and its PBX key. ' +
      'A user who is not an administrator gets only the groups it owns (`filter[user_id]` is ignored); administrators and the PBX key get every group of the PBX, narrowed by `filter[user_id]`. ' +
      '`search` matches the name; sorted by position unless `sort` says otherwise; `include=users` adds the member ids.',
    querystring: UserGroupListQuery,
    defaultSort: [{ field: 'position', direction: 'asc' }],
    fetch: ({ tenant, principal, query }, { sort, page }) => {
      const ownOnly = principal.kind === 'user' && !isAdmin(principal);
      return service.list(tenant, { search: query.search, userId: ownOnly ? principal.userId : query['filter[user_id]'] }, sort, page);
    },
  });
  groups.create('/users/:user/user-groups', {
    auth: AUTH,
    operationId: 'createUserGroup',
    summary: 'Create a group for a user',
    description:
      'A user for itself; another user of the PBX only for an administrator or the PBX key (403). ' +
      'The name must be unused among the owner’s groups (422); `position` inserts the group there (the others shift down), it is appended when omitted or beyond the end. ' +
      '`users` must be live users of the PBX (422 per item). Answers the group with its members.',
    params: UserParams,
    body: CreateUserGroupBody,
    include: WITH_MEMBERS,
    run: ({ tenant, principal, params, body }) => service.create(tenant, principal, params.user, body),
  });
  groups.read('/users/:user/user-groups/:userGroup', {
    auth: AUTH,
    operationId: 'getUserGroup',
    summary: 'One group',
    description:
      'A user for itself; another user’s group only for an administrator or the PBX key (403). ' +
      'A group not owned by the user in the path, or of another PBX, is 404. `include=users` adds the member ids.',
    params: UserGroupParams,
    querystring: UserGroupInclude,
    load: ({ tenant, principal, params }) => service.get(tenant, principal, params.user, params.userGroup),
  });
  groups.update('/users/:user/user-groups/:userGroup', {
    auth: AUTH,
    operationId: 'updateUserGroup',
    summary: 'Rename or reorder a group (position)',
    description:
      'A user for itself; another user’s group only for an administrator or the PBX key (403). ' +
      'A name already used by another group of the owner is 422; a new `position` (capped at the number of groups) moves the group and shifts the ones in between, keeping positions 1..n. ' +
      'Answers the group with its members.',
    params: UserGroupParams,
    body: UpdateUserGroupBody,
    include: WITH_MEMBERS,
    run: ({ tenant, principal, params, body }) => service.update(tenant, principal, params.user, params.userGroup, body),
  });
  groups.update('/users/:user/user-groups/:userGroup/users', {
    method: 'PUT',
    auth: AUTH,
    operationId: 'setUserGroupMembers',
    summary: 'Replace the members of a group',
    description:
      'A user for itself; another user’s group only for an administrator or the PBX key (403). ' +
      '`users` replaces the whole member list (an empty array empties it); each must be a live user of the PBX (422 per item), at most 500. ' +
      'Answers the group with its new members.',
    params: UserGroupParams,
    body: UserGroupMembersBody,
    include: WITH_MEMBERS,
    run: ({ tenant, principal, params, body }) => service.setMembers(tenant, principal, params.user, params.userGroup, body.users),
  });
  groups.delete('/users/:user/user-groups/:userGroup', {
    auth: AUTH,
    operationId: 'deleteUserGroup',
    summary: 'Delete a group',
    description:
      'A user for itself; another user’s group only for an administrator or the PBX key (403). ' +
      'Removed for good (no restore) with its memberships; the owner’s later groups move up one position.',
    params: UserGroupParams,
    run: ({ tenant, principal, params }) => service.delete(tenant, principal, params.user, params.userGroup),
  });
}
