import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { AppContext } from '../../../platform/context.js';
import { principalOf, tenantOfRequest, userPrincipalOf } from '../../../platform/auth/auth-plugin.js';
import { parseInclude } from '../../../http/include.js';
import { pageRequest, parseSort } from '../../../http/list-query.js';
import { Paginated, paginate } from '../../../http/pagination.js';
import { DataEnvelope } from '../../../http/schema.js';
import type { TrashedFilter } from '../../../http/soft-delete.js';
import { targetUser } from '../shared/access.js';
import { extensionsOfUsers } from './extensions.queries.js';
import { ExtensionsService } from './extensions.service.js';
import { CreateExtensionBody, Extension, ExtensionInclude, ExtensionListQuery, ExtensionParams, UpdateExtensionBody } from './extensions.schemas.js';
import { UserParams } from '../users/users.schemas.js';

const tags = ['Extensions'];
const READ = { auth: { user: true, pbx: true } } as const;
const MANAGE = { auth: { user: 'admin', pbx: true } } as const;

export async function extensionRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }): Promise<void> {
  const service = new ExtensionsService(ctx);
  app.addSchema(Extension);
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const one = DataEnvelope(Type.Ref(Extension));

  r.get('/extensions', {
    config: READ,
    schema: { tags, operationId: 'listExtensions', summary: 'The PBX extension directory', querystring: ExtensionListQuery, response: { 200: Paginated(Type.Ref(Extension)) } },
    handler: async (request) => {
      const query = request.query as { search?: string; sort?: string; page?: number; perPage?: number; include?: string; 'filter[user_id]'?: string; 'filter[trashed]'?: TrashedFilter };
      const tenant = tenantOfRequest(request);
      const page = pageRequest(query);
      const { rows, total } = await service.list(tenant, { search: query.search, userId: query['filter[user_id]'], trashed: query['filter[trashed]'] }, parseSort(query.sort, [{ field: 'number', direction: 'asc' }]), page);
      const items = await service.present(tenant, principalOf(request), rows, parseInclude(query.include));
      return paginate(items, total, page, `${ctx.config.baseUrl}/extensions`, query);
    },
  });

  r.post('/extensions', {
    config: MANAGE,
    schema: { tags, operationId: 'createExtension', summary: 'Create an extension', body: CreateExtensionBody, response: { 201: one } },
    handler: async (request, reply) => {
      const tenant = tenantOfRequest(request);
      const row = await service.create(tenant, request.body);
      reply.code(201);
      return { data: (await service.present(tenant, principalOf(request), [row], new Set()))[0] };
    },
  });

  r.get('/extensions/:extension', {
    config: READ,
    schema: { tags, operationId: 'getExtension', summary: 'One extension', params: ExtensionParams, querystring: ExtensionInclude, response: { 200: one } },
    handler: async (request) => {
      const tenant = tenantOfRequest(request);
      const row = await service.get(tenant, request.params.extension);
      return { data: (await service.present(tenant, principalOf(request), [row], parseInclude(request.query.include)))[0] };
    },
  });

  r.patch('/extensions/:extension', {
    config: MANAGE,
    schema: { tags, operationId: 'updateExtension', summary: 'Change an extension (only supplied fields)', params: ExtensionParams, body: UpdateExtensionBody, response: { 200: one } },
    handler: async (request) => {
      const tenant = tenantOfRequest(request);
      const row = await service.update(tenant, request.params.extension, request.body);
      return { data: (await service.present(tenant, principalOf(request), [row], new Set()))[0] };
    },
  });

  r.delete('/extensions/:extension', {
    config: MANAGE,
    schema: { tags, operationId: 'deleteExtension', summary: 'Delete an extension (soft; restorable)', params: ExtensionParams, response: { 204: Type.Null() } },
    handler: async (request, reply) => {
      await service.delete(tenantOfRequest(request), request.params.extension);
      return reply.code(204).send(null);
    },
  });

  r.post('/extensions/:extension/restore', {
    config: MANAGE,
    schema: { tags, operationId: 'restoreExtension', summary: 'Restore a deleted extension', params: ExtensionParams, response: { 200: one } },
    handler: async (request) => {
      const tenant = tenantOfRequest(request);
      const row = await service.restore(tenant, request.params.extension);
      return { data: (await service.present(tenant, principalOf(request), [row], new Set()))[0] };
    },
  });

  for (const [method, favorite] of [['PUT', true], ['DELETE', false]] as const) {
    r.route({
      method,
      url: '/extensions/:extension/favorite',
      config: { auth: { user: true } },
      schema: {
        tags,
        operationId: favorite ? 'favoriteExtension' : 'unfavoriteExtension',
        summary: favorite ? 'Mark an extension as a favourite of the caller' : 'Remove an extension from the caller\u2019s favourites',
        params: ExtensionParams,
        response: { 204: Type.Null() },
      },
      handler: async (request, reply) => {
        await service.favorite(tenantOfRequest(request), userPrincipalOf(request).userId, request.params.extension, favorite);
        return reply.code(204).send(null);
      },
    });
  }

  r.get('/users/:user/extensions', {
    config: READ,
    schema: { tags, operationId: 'listUserExtensions', summary: 'Extensions of one user', params: UserParams, response: { 200: DataEnvelope(Type.Array(Type.Ref(Extension))) } },
    handler: async (request) => {
      const tenant = tenantOfRequest(request);
      const principal = principalOf(request);
      const user = await targetUser(ctx.db, tenant, principal, request.params.user);
      return { data: await service.present(tenant, principal, await extensionsOfUsers(ctx.db, tenant, [user.id]), new Set()) };
    },
  });
}
