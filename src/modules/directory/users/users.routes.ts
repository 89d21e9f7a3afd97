import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { AppContext } from '../../../platform/context.js';
import { principalOf, tenantOfRequest } from '../../../platform/auth/auth-plugin.js';
import { IncludeParam, parseInclude } from '../../../http/include.js';
import { pageRequest, parseSort } from '../../../http/list-query.js';
import { Paginated, paginate } from '../../../http/pagination.js';
import { DataEnvelope } from '../../../http/schema.js';
import type { TrashedFilter } from '../../../http/soft-delete.js';
import { UsersService } from './users.service.js';
import { CreateUserBody, UpdateUserBody, User, USER_INCLUDES, UserListQuery, UserParams } from './users.schemas.js';

const tags = ['Users'];
const ADMIN = { auth: { user: 'admin', pbx: true } } as const;

export async function userRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }): Promise<void> {
  const service = new UsersService(ctx);
  app.addSchema(User);
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const one = DataEnvelope(Type.Ref(User));

  r.get('/users', {
    config: ADMIN,
    schema: { tags, operationId: 'listUsers', summary: 'Users of the PBX', querystring: UserListQuery, response: { 200: Paginated(Type.Ref(User)) } },
    handler: async (request) => {
      const query = request.query as {
        search?: string;
        sort?: string;
        page?: number;
        perPage?: number;
        include?: string;
        'filter[status]'?: 'active' | 'disabled';
        'filter[role]'?: 'admin' | 'user';
        'filter[trashed]'?: TrashedFilter;
      };
      const tenant = tenantOfRequest(request);
      const page = pageRequest(query);
      const filters = { search: query.search, status: query['filter[status]'], role: query['filter[role]'], trashed: query['filter[trashed]'] };
      const { rows, total } = await service.list(tenant, filters, parseSort(query.sort, [{ field: 'last_name', direction: 'asc' }, { field: 'first_name', direction: 'asc' }]), page);
      return paginate(await service.present(tenant, rows, parseInclude(query.include)), total, page, `${ctx.config.baseUrl}/users`, query);
    },
  });

  r.post('/users', {
    config: ADMIN,
    schema: { tags, operationId: 'createUser', summary: 'Create a user', body: CreateUserBody, response: { 201: one } },
    handler: async (request, reply) => {
      const tenant = tenantOfRequest(request);
      const row = await service.create(tenant, request.body);
      reply.code(201);
      return { data: (await service.present(tenant, [row], new Set()))[0] };
    },
  });

  r.get('/users/:user', {
    config: { auth: { user: true, pbx: true } },
    schema: {
      tags,
      operationId: 'getUserById',
      summary: 'One user (yourself, or any user of the PBX for an administrator)',
      params: UserParams,
      querystring: Type.Object({ include: IncludeParam(USER_INCLUDES) }),
      response: { 200: one },
    },
    handler: async (request) => {
      const tenant = tenantOfRequest(request);
      const row = await service.get(tenant, principalOf(request), request.params.user);
      return { data: (await service.present(tenant, [row], parseInclude(request.query.include)))[0] };
    },
  });

  r.patch('/users/:user', {
    config: ADMIN,
    schema: { tags, operationId: 'updateUser', summary: 'Change a user (only supplied fields); disabling revokes its tokens', params: UserParams, body: UpdateUserBody, response: { 200: one } },
    handler: async (request) => {
      const tenant = tenantOfRequest(request);
      const row = await service.update(tenant, request.params.user, request.body);
      return { data: (await service.present(tenant, [row], new Set()))[0] };
    },
  });

  r.delete('/users/:user', {
    config: ADMIN,
    schema: { tags, operationId: 'deleteUser', summary: 'Delete a user (soft; restorable); revokes its tokens', params: UserParams, response: { 204: Type.Null() } },
    handler: async (request, reply) => {
      await service.delete(tenantOfRequest(request), principalOf(request), request.params.user);
      return reply.code(204).send(null);
    },
  });

  r.post('/users/:user/restore', {
    config: ADMIN,
    schema: { tags, operationId: 'restoreUser', summary: 'Restore a deleted user', params: UserParams, response: { 200: one } },
    handler: async (request) => {
      const tenant = tenantOfRequest(request);
      const row = await service.restore(tenant, request.params.user);
      return { data: (await service.present(tenant, [row], new Set()))[0] };
    },
  });
}
