import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { AppContext } from '../../../platform/context.js';
import { principalOf, tenantOfRequest } from '../../../platform/auth/auth-plugin.js';
import { isAdmin } from '../../../platform/auth/principal.js';
import { pageRequest, parseSort } from '../../../http/list-query.js';
import { Paginated, paginate } from '../../../http/pagination.js';
import { DataEnvelope } from '../../../http/schema.js';
import type { TrashedFilter } from '../../../http/soft-delete.js';
import { targetUser } from '../shared/access.js';
import { UserParams } from '../users/users.schemas.js';
import { CallerIdentitiesService, callerIdentitiesOfUsers, presentCallerIdentity } from './caller-identities.service.js';
import { CallerIdentity, CallerIdentityListQuery, CallerIdentityParams, CreateCallerIdentityBody, UpdateCallerIdentityBody } from './caller-identities.schemas.js';

const tags = ['Caller identities'];
const READ = { auth: { user: true, pbx: true } } as const;
const MANAGE = { auth: { user: 'admin', pbx: true } } as const;

export async function callerIdentityRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }): Promise<void> {
  const service = new CallerIdentitiesService(ctx);
  app.addSchema(CallerIdentity);
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const one = DataEnvelope(Type.Ref(CallerIdentity));

  r.get('/caller-identities', {
    config: READ,
    schema: {
      tags,
      operationId: 'listCallerIdentities',
      summary: 'Caller identities (a user sees those it may present)',
      querystring: CallerIdentityListQuery,
      response: { 200: Paginated(Type.Ref(CallerIdentity)) },
    },
    handler: async (request) => {
      const query = request.query as { search?: string; sort?: string; page?: number; perPage?: number; 'filter[user_id]'?: string; 'filter[trashed]'?: TrashedFilter };
      const principal = principalOf(request);
      const page = pageRequest(query);
      const restricted = principal.kind === 'user' && !isAdmin(principal);
      const filters = {
        search: query.search,
        userId: query['filter[user_id]'],
        availableTo: restricted ? principal.userId : undefined,
        trashed: restricted ? undefined : query['filter[trashed]'],
      };
      const { rows, total } = await service.list(tenantOfRequest(request), filters, parseSort(query.sort, [{ field: 'name', direction: 'asc' }]), page);
      return paginate(rows.map(presentCallerIdentity), total, page, `${ctx.config.baseUrl}/caller-identities`, query);
    },
  });

  r.post('/caller-identities', {
    config: MANAGE,
    schema: { tags, operationId: 'createCallerIdentity', summary: 'Create a caller identity', body: CreateCallerIdentityBody, response: { 201: one } },
    handler: async (request, reply) => {
      const row = await service.create(tenantOfRequest(request), request.body);
      reply.code(201);
      return { data: presentCallerIdentity(row) };
    },
  });

  r.get('/caller-identities/:callerIdentity', {
    config: READ,
    schema: { tags, operationId: 'getCallerIdentity', summary: 'One caller identity', params: CallerIdentityParams, response: { 200: one } },
    handler: async (request) => ({ data: presentCallerIdentity(await service.getFor(tenantOfRequest(request), principalOf(request), request.params.callerIdentity)) }),
  });

  r.patch('/caller-identities/:callerIdentity', {
    config: MANAGE,
    schema: { tags, operationId: 'updateCallerIdentity', summary: 'Change a caller identity', params: CallerIdentityParams, body: UpdateCallerIdentityBody, response: { 200: one } },
    handler: async (request) => ({ data: presentCallerIdentity(await service.update(tenantOfRequest(request), request.params.callerIdentity, request.body)) }),
  });

  r.delete('/caller-identities/:callerIdentity', {
    config: MANAGE,
    schema: { tags, operationId: 'deleteCallerIdentity', summary: 'Delete a caller identity (soft; restorable)', params: CallerIdentityParams, response: { 204: Type.Null() } },
    handler: async (request, reply) => {
      await service.delete(tenantOfRequest(request), request.params.callerIdentity);
      return reply.code(204).send(null);
    },
  });

  r.post('/caller-identities/:callerIdentity/restore', {
    config: MANAGE,
    schema: { tags, operationId: 'restoreCallerIdentity', summary: 'Restore a deleted caller identity', params: CallerIdentityParams, response: { 200: one } },
    handler: async (request) => ({ data: presentCallerIdentity(await service.restore(tenantOfRequest(request), request.params.callerIdentity)) }),
  });

  r.get('/users/:user/caller-identities', {
    config: READ,
    schema: { tags, operationId: 'listUserCallerIdentities', summary: 'Caller identities one user may present', params: UserParams, response: { 200: DataEnvelope(Type.Array(Type.Ref(CallerIdentity))) } },
    handler: async (request) => {
      const tenant = tenantOfRequest(request);
      const user = await targetUser(ctx.db, tenant, principalOf(request), request.params.user);
      return { data: ((await callerIdentitiesOfUsers(ctx.db, tenant, [user.id])).get(user.id) ?? []).map(presentCallerIdentity) };
    },
  });
}
