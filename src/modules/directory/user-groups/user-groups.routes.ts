import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { AppContext } from '../../../platform/context.js';
import { principalOf, tenantOfRequest } from '../../../platform/auth/auth-plugin.js';
import { isAdmin } from '../../../platform/auth/principal.js';
import { parseInclude } from '../../../http/include.js';
import { pageRequest, parseSort } from '../../../http/list-query.js';
import { Paginated, paginate } from '../../../http/pagination.js';
import { DataEnvelope } from '../../../http/schema.js';
import { UserParams } from '../users/users.schemas.js';
import { UserGroupsService } from './user-groups.service.js';
import { CreateUserGroupBody, UpdateUserGroupBody, UserGroup, UserGroupInclude, UserGroupListQuery, UserGroupMembersBody, UserGroupParams } from './user-groups.schemas.js';

const tags = ['User groups'];
const AUTH = { auth: { user: true, pbx: true } } as const;

export async function userGroupRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }): Promise<void> {
  const service = new UserGroupsService(ctx);
  app.addSchema(UserGroup);
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const one = DataEnvelope(Type.Ref(UserGroup));
  const withMembers = async (row: Parameters<UserGroupsService['present']>[0][number]) => ({ data: (await service.present([row], true))[0] });

  r.get('/user-groups', {
    config: AUTH,
    schema: {
      tags,
      operationId: 'listUserGroups',
      summary: 'User groups: a user\u2019s own; every group of the PBX for an administrator (filter[user_id] narrows)',
      querystring: UserGroupListQuery,
      response: { 200: Paginated(Type.Ref(UserGroup)) },
    },
    handler: async (request) => {
      const query = request.query as { search?: string; sort?: string; page?: number; perPage?: number; include?: string; 'filter[user_id]'?: string };
      const principal = principalOf(request);
      const ownOnly = principal.kind === 'user' && !isAdmin(principal);
      const page = pageRequest(query);
      const filters = { search: query.search, userId: ownOnly && principal.kind === 'user' ? principal.userId : query['filter[user_id]'] };
      const { rows, total } = await service.list(tenantOfRequest(request), filters, parseSort(query.sort, [{ field: 'position', direction: 'asc' }]), page);
      return paginate(await service.present(rows, parseInclude(query.include).has('users')), total, page, `${ctx.config.baseUrl}/user-groups`, query);
    },
  });

  r.post('/users/:user/user-groups', {
    config: AUTH,
    schema: { tags, operationId: 'createUserGroup', summary: 'Create a group for a user', params: UserParams, body: CreateUserGroupBody, response: { 201: one } },
    handler: async (request, reply) => {
      const row = await service.create(tenantOfRequest(request), principalOf(request), request.params.user, request.body);
      reply.code(201);
      return withMembers(row);
    },
  });

  r.get('/users/:user/user-groups/:userGroup', {
    config: AUTH,
    schema: { tags, operationId: 'getUserGroup', summary: 'One group', params: UserGroupParams, querystring: UserGroupInclude, response: { 200: one } },
    handler: async (request) => {
      const row = await service.get(tenantOfRequest(request), principalOf(request), request.params.user, request.params.userGroup);
      return { data: (await service.present([row], parseInclude(request.query.include).has('users')))[0] };
    },
  });

  r.patch('/users/:user/user-groups/:userGroup', {
    config: AUTH,
    schema: { tags, operationId: 'updateUserGroup', summary: 'Rename or reorder a group (position)', params: UserGroupParams, body: UpdateUserGroupBody, response: { 200: one } },
    handler: async (request) => withMembers(await service.update(tenantOfRequest(request), principalOf(request), request.params.user, request.params.userGroup, request.body)),
  });

  r.put('/users/:user/user-groups/:userGroup/users', {
    config: AUTH,
    schema: { tags, operationId: 'setUserGroupMembers', summary: 'Replace the members of a group', params: UserGroupParams, body: UserGroupMembersBody, response: { 200: one } },
    handler: async (request) =>
      withMembers(await service.setMembers(tenantOfRequest(request), principalOf(request), request.params.user, request.params.userGroup, request.body.users)),
  });

  r.delete('/users/:user/user-groups/:userGroup', {
    config: AUTH,
    schema: { tags, operationId: 'deleteUserGroup', summary: 'Delete a group', params: UserGroupParams, response: { 204: Type.Null() } },
    handler: async (request, reply) => {
      await service.delete(tenantOfRequest(request), principalOf(request), request.params.user, request.params.userGroup);
      return reply.code(204).send(null);
    },
  });
}
