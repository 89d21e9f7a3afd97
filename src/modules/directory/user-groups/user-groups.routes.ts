import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../../platform/context.js';
import { resourceRoutes } from '../../../http/resource-routes.js';
import { UserParams } from '../users/users.schemas.js';
import { USER_GROUPS_DOCS } from './user-groups.docs.js';
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
    docs: USER_GROUPS_DOCS,
    schema: UserGroup,
    present: (rows: UserGroupRow[], { include }) => service.present(rows, include.has('users')),
  });

  groups.list('/user-groups', {
    auth: AUTH,
    operationId: 'listUserGroups',
    querystring: UserGroupListQuery,
    defaultSort: [{ field: 'position', direction: 'asc' }],
    fetch: ({ tenant, principal, query }, { sort, page }) =>
      service.list(tenant, principal, { search: query.search, userId: query['filter[user_id]'] }, sort, page),
  });
  groups.create('/users/:user/user-groups', {
    auth: AUTH,
    operationId: 'createUserGroup',
    params: UserParams,
    body: CreateUserGroupBody,
    include: WITH_MEMBERS,
    run: ({ tenant, principal, params, body }) => service.create(tenant, principal, params.user, body),
  });
  groups.read('/users/:user/user-groups/:userGroup', {
    auth: AUTH,
    operationId: 'getUserGroup',
    params: UserGroupParams,
    querystring: UserGroupInclude,
    load: ({ tenant, principal, params }) => service.get(tenant, principal, params.user, params.userGroup),
  });
  groups.update('/users/:user/user-groups/:userGroup', {
    auth: AUTH,
    operationId: 'updateUserGroup',
    params: UserGroupParams,
    body: UpdateUserGroupBody,
    include: WITH_MEMBERS,
    run: ({ tenant, principal, params, body }) => service.update(tenant, principal, params.user, params.userGroup, body),
  });
  groups.update('/users/:user/user-groups/:userGroup/users', {
    method: 'PUT',
    auth: AUTH,
    operationId: 'setUserGroupMembers',
    params: UserGroupParams,
    body: UserGroupMembersBody,
    include: WITH_MEMBERS,
    run: ({ tenant, principal, params, body }) => service.setMembers(tenant, principal, params.user, params.userGroup, body.users),
  });
  groups.delete('/users/:user/user-groups/:userGroup', {
    auth: AUTH,
    operationId: 'deleteUserGroup',
    params: UserGroupParams,
    run: ({ tenant, principal, params }) => service.delete(tenant, principal, params.user, params.userGroup),
  });
}
