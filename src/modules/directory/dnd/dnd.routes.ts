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
    params: UserParams,
    querystring: DndListQuery,
    fetch: ({ tenant, principal, params, query }) => service.list(tenant, principal, params.user, query['filter[type]']),
  });
  rules.create('/users/:user/dnds', {
    auth: AUTH,
    operationId: 'createDnd',
    summary: 'Create a DND rule (needs allow_dnd)',
    params: UserParams,
    body: CreateDndBody,
    run: ({ tenant, principal, params, body }) => service.create(tenant, principal, params.user, body),
  });
  rules.update('/users/:user/dnds/:userDnd', {
    method: 'PUT',
    auth: AUTH,
    operationId: 'replaceDnd',
    summary: 'Replace a DND rule (omitted fields reset to defaults)',
    params: DndParams,
    body: ReplaceDndBody,
    run: ({ tenant, principal, params, body }) => service.replace(tenant, principal, params.user, params.userDnd, body),
  });
  rules.delete('/users/:user/dnds/:userDnd', {
    auth: AUTH,
    operationId: 'deleteDnd',
    summary: 'Delete a DND rule',
    params: DndParams,
    run: ({ tenant, principal, params }) => service.delete(tenant, principal, params.user, params.userDnd),
  });

  app.withTypeProvider<TypeBoxTypeProvider>().post('/users/:user/dnds/bulk', {
    config: { auth: AUTH },
    schema: {
      tags: USER_SETTINGS_TAGS,
      operationId: 'bulkDnds',
      summary: 'Set several DND rules at once (created when missing)',
      params: UserParams,
      body: BulkDndBody,
      response: { 200: BulkDndResponse },
    },
    handler: async (request) => ({ data: await service.bulk(tenantOfRequest(request), principalOf(request), request.params.user, request.body) }),
  });
}
