import type { FastifyInstance } from 'fastify';
import { Type } from '@sinclair/typebox';
import type { AppContext } from '../../../platform/context.js';
import { IncludeParam } from '../../../http/include.js';
import { resourceRoutes } from '../../../http/resource-routes.js';
import type { UserRow } from '../shared/access.js';
import { USERS_DOCS } from './users.docs.js';
import { UsersService } from './users.service.js';
import { CreateUserBody, UpdateUserBody, User, USER_INCLUDES, UserListQuery, UserParams } from './users.schemas.js';

const ADMIN = { user: 'admin', pbx: true } as const;

export async function userRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }): Promise<void> {
  const service = new UsersService(ctx);
  const users = resourceRoutes(app, ctx.config.baseUrl, {
    tags: ['Users'],
    docs: USERS_DOCS,
    schema: User,
    present: (rows: UserRow[], { call, include }) => service.present(call.tenant, rows, include),
  });

  users.list('/users', {
    auth: ADMIN,
    operationId: 'listUsers',
    querystring: UserListQuery,
    defaultSort: [
      { field: 'last_name', direction: 'asc' },
      { field: 'first_name', direction: 'asc' },
    ],
    fetch: ({ tenant, query }, { sort, page }) =>
      service.list(
        tenant,
        { search: query.search, status: query['filter[status]'], role: query['filter[role]'], trashed: query['filter[trashed]'] },
        sort,
        page,
      ),
  });
  users.create('/users', {
    auth: ADMIN,
    operationId: 'createUser',
    body: CreateUserBody,
    run: ({ tenant, body }) => service.create(tenant, body),
  });
  users.read('/users/:user', {
    auth: { user: true, pbx: true },
    operationId: 'getUserById',
    params: UserParams,
    querystring: Type.Object({ include: IncludeParam(USER_INCLUDES) }),
    load: ({ tenant, principal, params }) => service.get(tenant, principal, params.user),
  });
  users.update('/users/:user', {
    auth: ADMIN,
    operationId: 'updateUser',
    params: UserParams,
    body: UpdateUserBody,
    run: ({ tenant, params, body }) => service.update(tenant, params.user, body),
  });
  users.delete('/users/:user', {
    auth: ADMIN,
    operationId: 'deleteUser',
    refusedWhileUsed: true,
    params: UserParams,
    run: ({ tenant, principal, params }) => service.delete(tenant, principal, params.user),
  });
  users.restore('/users/:user/restore', {
    auth: ADMIN,
    operationId: 'restoreUser',
    params: UserParams,
    run: ({ tenant, params }) => service.restore(tenant, params.user),
  });
}
