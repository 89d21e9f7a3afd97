import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { AppContext } from '../../../platform/context.js';
import { tenantOfRequest, userPrincipalOf } from '../../../platform/auth/auth-plugin.js';
import { resourceRoutes } from '../../../http/resource-routes.js';
import { targetUser } from '../shared/access.js';
import { extensionsOfUsers } from './extensions.queries.js';
import { ExtensionsService, type ExtensionRow } from './extensions.service.js';
import { CreateExtensionBody, Extension, ExtensionInclude, ExtensionListQuery, ExtensionParams, UpdateExtensionBody } from './extensions.schemas.js';
import { UserParams } from '../users/users.schemas.js';

const tags = ['Extensions'];
const READ = { user: true, pbx: true } as const;
const MANAGE = { user: 'admin', pbx: true } as const;

export async function extensionRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }): Promise<void> {
  const service = new ExtensionsService(ctx);
  const extensions = resourceRoutes(app, ctx.config.baseUrl, {
    tags,
    schema: Extension,
    present: (rows: ExtensionRow[], { call, include }) => service.present(call.tenant, call.principal, rows, include),
  });

  extensions.list('/extensions', {
    auth: READ,
    operationId: 'listExtensions',
    summary: 'The PBX extension directory',
    querystring: ExtensionListQuery,
    defaultSort: [{ field: 'number', direction: 'asc' }],
    fetch: ({ tenant, query }, { sort, page }) =>
      service.list(tenant, { search: query.search, userId: query['filter[user_id]'], trashed: query['filter[trashed]'] }, sort, page),
  });
  extensions.create('/extensions', {
    auth: MANAGE,
    operationId: 'createExtension',
    summary: 'Create an extension',
    body: CreateExtensionBody,
    run: ({ tenant, body }) => service.create(tenant, body),
  });
  extensions.read('/extensions/:extension', {
    auth: READ,
    operationId: 'getExtension',
    summary: 'One extension',
    params: ExtensionParams,
    querystring: ExtensionInclude,
    load: ({ tenant, params }) => service.get(tenant, params.extension),
  });
  extensions.update('/extensions/:extension', {
    auth: MANAGE,
    operationId: 'updateExtension',
    summary: 'Change an extension (only supplied fields)',
    params: ExtensionParams,
    body: UpdateExtensionBody,
    run: ({ tenant, params, body }) => service.update(tenant, params.extension, body),
  });
  extensions.delete('/extensions/:extension', {
    auth: MANAGE,
    operationId: 'deleteExtension',
    summary: 'Delete an extension (soft; restorable)',
    description: 'Refused with 409 and `used_by` while a phone number, a call flow or a queue rings it.',
    refusedWhileUsed: true,
    params: ExtensionParams,
    run: ({ tenant, params }) => service.delete(tenant, params.extension),
  });
  extensions.restore('/extensions/:extension/restore', {
    auth: MANAGE,
    operationId: 'restoreExtension',
    summary: 'Restore a deleted extension',
    params: ExtensionParams,
    run: ({ tenant, params }) => service.restore(tenant, params.extension),
  });

  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  for (const [method, favorite] of [
    ['PUT', true],
    ['DELETE', false],
  ] as const) {
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

  extensions.all('/users/:user/extensions', {
    auth: READ,
    operationId: 'listUserExtensions',
    summary: 'Extensions of one user',
    params: UserParams,
    fetch: async ({ tenant, principal, params }) => extensionsOfUsers(ctx.db, tenant, [(await targetUser(ctx.db, tenant, principal, params.user)).id]),
  });
}
