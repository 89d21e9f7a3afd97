import type { FastifyInstance } from 'fastify';
import { Type } from '@sinclair/typebox';
import type { AppContext } from '../../../platform/context.js';
import { resourceRoutes } from '../../../http/resource-routes.js';
import { EXTENSIONS_DOCS } from './extensions.docs.js';
import { ExtensionsService, type ExtensionRow } from './extensions.service.js';
import { CreateExtensionBody, Extension, ExtensionInclude, ExtensionListQuery, ExtensionParams, UpdateExtensionBody } from './extensions.schemas.js';
import { UserParams } from '../users/users.schemas.js';

const READ = { user: true, pbx: true } as const;
const MANAGE = { user: 'admin', pbx: true } as const;

export async function extensionRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }): Promise<void> {
  const service = new ExtensionsService(ctx);
  const extensions = resourceRoutes(app, ctx.config.baseUrl, {
    tags: ['Extensions'],
    docs: EXTENSIONS_DOCS,
    schema: Extension,
    present: (rows: ExtensionRow[], { call, include }) => service.present(call.tenant, call.principal, rows, include),
  });

  extensions.list('/extensions', {
    auth: READ,
    operationId: 'listExtensions',
    querystring: ExtensionListQuery,
    defaultSort: [{ field: 'number', direction: 'asc' }],
    fetch: ({ tenant, query }, { sort, page }) =>
      service.list(tenant, { search: query.search, userId: query['filter[user_id]'], trashed: query['filter[trashed]'] }, sort, page),
  });
  extensions.create('/extensions', {
    auth: MANAGE,
    operationId: 'createExtension',
    body: CreateExtensionBody,
    run: ({ tenant, body }) => service.create(tenant, body),
  });
  extensions.read('/extensions/:extension', {
    auth: READ,
    operationId: 'getExtension',
    params: ExtensionParams,
    querystring: ExtensionInclude,
    load: ({ tenant, params }) => service.get(tenant, params.extension),
  });
  extensions.update('/extensions/:extension', {
    auth: MANAGE,
    operationId: 'updateExtension',
    params: ExtensionParams,
    body: UpdateExtensionBody,
    run: ({ tenant, params, body }) => service.update(tenant, params.extension, body),
  });
  extensions.delete('/extensions/:extension', {
    auth: MANAGE,
    operationId: 'deleteExtension',
    refusedWhileUsed: true,
    params: ExtensionParams,
    run: ({ tenant, params }) => service.delete(tenant, params.extension),
  });
  extensions.restore('/extensions/:extension/restore', {
    auth: MANAGE,
    operationId: 'restoreExtension',
    params: ExtensionParams,
    run: ({ tenant, params }) => service.restore(tenant, params.extension),
  });

  for (const [method, favorite] of [
    ['PUT', true],
    ['DELETE', false],
  ] as const) {
    extensions.route('/extensions/:extension/favorite', {
      method,
      auth: { user: true },
      operationId: favorite ? 'favoriteExtension' : 'unfavoriteExtension',
      params: ExtensionParams,
      response: { 204: Type.Null() },
      handle: async ({ tenant, user, params, reply }) => {
        await service.favorite(tenant, user.userId, params.extension, favorite);
        return reply.code(204).send(null);
      },
    });
  }

  extensions.all('/users/:user/extensions', {
    auth: READ,
    operationId: 'listUserExtensions',
    params: UserParams,
    fetch: ({ tenant, principal, params }) => service.ofUser(tenant, principal, params.user),
  });
}
