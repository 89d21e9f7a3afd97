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
    description:
      'Any user of the PBX and its PBX key. ' +
      '`search` matches number and name; `filter[user_id]` and `filter[trashed]` narrow the page; sorted by number unless `sort` says otherwise. ' +
      '`is_favorite` is present for user tokens only. `include`: user, user.groups, sipDevice.',
    querystring: ExtensionListQuery,
    defaultSort: [{ field: 'number', direction: 'asc' }],
    fetch: ({ tenant, query }, { sort, page }) =>
      service.list(tenant, { search: query.search, userId: query['filter[user_id]'], trashed: query['filter[trashed]'] }, sort, page),
  });
  extensions.create('/extensions', {
    auth: MANAGE,
    operationId: 'createExtension',
    summary: 'Create an extension',
    description:
      'Administrators of the PBX and its PBX key. ' +
      '`number` (2-16 digits) must be unused in the PBX, deleted extensions included (422 otherwise); `user_id`, when given, must be a live user of the PBX (422). ' +
      'The PBX engine id (`voip_id`) is assigned by the server; voicemail is enabled unless `voicemail_enabled` is false.',
    body: CreateExtensionBody,
    run: ({ tenant, body }) => service.create(tenant, body),
  });
  extensions.read('/extensions/:extension', {
    auth: READ,
    operationId: 'getExtension',
    summary: 'One extension',
    description: 'Any user of the PBX and its PBX key. A deleted extension, or another PBX’s, is 404. `include`: user, user.groups, sipDevice.',
    params: ExtensionParams,
    querystring: ExtensionInclude,
    load: ({ tenant, params }) => service.get(tenant, params.extension),
  });
  extensions.update('/extensions/:extension', {
    auth: MANAGE,
    operationId: 'updateExtension',
    summary: 'Change an extension (only supplied fields)',
    description:
      'Administrators of the PBX and its PBX key. ' +
      'The fields of the creation, all optional: a number taken by another extension is 422, a `user_id` that is not a live user of the PBX is 422, null unassigns the extension. ' +
      'A deleted extension is 404.',
    params: ExtensionParams,
    body: UpdateExtensionBody,
    run: ({ tenant, params, body }) => service.update(tenant, params.extension, body),
  });
  extensions.delete('/extensions/:extension', {
    auth: MANAGE,
    operationId: 'deleteExtension',
    summary: 'Delete an extension (soft; restorable)',
    description:
      'Administrators of the PBX and its PBX key. Refused with 409 and `used_by` while a phone number, a call flow or a queue rings it. Restorable with POST /extensions/{extension}/restore.',
    refusedWhileUsed: true,
    params: ExtensionParams,
    run: ({ tenant, params }) => service.delete(tenant, params.extension),
  });
  extensions.restore('/extensions/:extension/restore', {
    auth: MANAGE,
    operationId: 'restoreExtension',
    summary: 'Restore a deleted extension',
    description: 'Administrators of the PBX and its PBX key. Clears deleted_at and answers the extension; one that is not deleted, or another PBX’s, is 404.',
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
        description: favorite
          ? 'User tokens only; the favourite belongs to the calling user and shows as `is_favorite` in its extension reads. Marking one already marked is no error (204). A deleted extension, or another PBX\u2019s, is 404.'
          : 'User tokens only. Removing an extension that was not a favourite is no error (204). A deleted extension, or another PBX\u2019s, is 404.',
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
    description:
      'Any user for itself; another user of the PBX only for an administrator or the PBX key (403). ' +
      'Answers `{data: [...]}` (not paginated), the user’s live extensions by number. A deleted user, or another PBX’s, is 404.',
    params: UserParams,
    fetch: async ({ tenant, principal, params }) => extensionsOfUsers(ctx.db, tenant, [(await targetUser(ctx.db, tenant, principal, params.user)).id]),
  });
}
