import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { AppContext } from '../../../platform/context.js';
import { principalOf, tenantOfRequest } from '../../../platform/auth/auth-plugin.js';
import { resourceRoutes } from '../../../http/resource-routes.js';
import { USER_SETTINGS_TAGS } from '../shared/tags.js';
import { UserParams } from '../users/users.schemas.js';
import type { DndRow } from './dnd.queries.js';
import { DndService, presentDnd } from './dnd.service.js';
import { BulkDndBody, BulkDndResponse, CreateDndBody, DndListQuery, DndParams, DndRule, ReplaceDndBody } from './dnd.schemas.js';

const AUTH = { user: true, pbx: true } as const;

export async function dndRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }): Promise<void> {
  const service = new DndService(ctx);
  const rules = resourceRoutes(app, ctx.config.baseUrl, { tags: USER_SETTINGS_TAGS, schema: DndRule, present: (rows: DndRow[]) => rows.map(presentDnd) });

  rules.all('/users/:user/dnds', {
    auth: AUTH,
    operationId: 'listDnds',
    summary: 'DND rules of a user',
    description:
      'A user for itself; another user of the PBX only for an administrator or the PBX key (403); a deleted user, or another PBX’s, is 404. ' +
      'Answers `{data: [...]}` (not paginated) with every rule of the user, narrowed by `filter[type]`. Reading needs no allow_dnd permission.',
    params: UserParams,
    querystring: DndListQuery,
    fetch: ({ tenant, principal, params, query }) => service.list(tenant, principal, params.user, query['filter[type]']),
  });
  rules.create('/users/:user/dnds', {
    auth: AUTH,
    operationId: 'createDnd',
    summary: 'Create a DND rule (needs allow_dnd)',
    description:
      'A user for itself, only with its allow_dnd permission (403 otherwise); an administrator or the PBX key for any user of the PBX. ' +
      'An external rule needs `caller_identity_id`, an identity the user may present; an internal rule must have none; `extension_id` must be one of the user’s extensions, null for all (422 otherwise). ' +
      'One rule per target: a second rule for the same type, identity and extension is 422.',
    params: UserParams,
    body: CreateDndBody,
    run: ({ tenant, principal, params, body }) => service.create(tenant, principal, params.user, body),
  });
  rules.update('/users/:user/dnds/:userDnd', {
    method: 'PUT',
    auth: AUTH,
    operationId: 'replaceDnd',
    summary: 'Replace a DND rule (omitted fields reset to defaults)',
    description:
      'Who may: as for creating (allow_dnd for a user acting itself). ' +
      'The rule becomes exactly the body: omitted fields reset to internal, no caller identity, all extensions; the same checks as creating apply, and a target another rule of the user already has is 422. ' +
      'A rule of another user than the one in the path is 404.',
    params: DndParams,
    body: ReplaceDndBody,
    run: ({ tenant, principal, params, body }) => service.replace(tenant, principal, params.user, params.userDnd, body),
  });
  rules.delete('/users/:user/dnds/:userDnd', {
    auth: AUTH,
    operationId: 'deleteDnd',
    summary: 'Delete a DND rule',
    description:
      'Who may: as for creating (allow_dnd for a user acting itself). Removed for good (no restore); a rule of another user than the one in the path is 404.',
    params: DndParams,
    run: ({ tenant, principal, params }) => service.delete(tenant, principal, params.user, params.userDnd),
  });

  app.withTypeProvider<TypeBoxTypeProvider>().post('/users/:user/dnds/bulk', {
    config: { auth: AUTH },
    schema: {
      tags: USER_SETTINGS_TAGS,
      operationId: 'bulkDnds',
      summary: 'Set several DND rules at once (created when missing)',
      description:
        'Who may: as for creating (allow_dnd for a user acting itself). ' +
        'Sets the status of each target (1 to 200 items; rules over all of the user’s extensions): an existing rule for the target is updated, a missing one is created. ' +
        'All or nothing: an invalid item is 422 with its field as `dnds.{index}.caller_identity_id`, and nothing changes. ' +
        'Answers `{data: [{id, status}]}` in the order sent.',
      params: UserParams,
      body: BulkDndBody,
      response: { 200: BulkDndResponse },
    },
    handler: async (request) => ({ data: await service.bulk(tenantOfRequest(request), principalOf(request), request.params.user, request.body) }),
  });
}
