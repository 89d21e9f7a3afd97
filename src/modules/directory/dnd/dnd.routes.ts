import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../../platform/context.js';
import { resourceRoutes } from '../../../http/resource-routes.js';
import { USER_SETTINGS_TAGS } from '../shared/tags.js';
import { DND_DOCS } from './dnd.docs.js';
import { UserParams } from '../users/users.schemas.js';
import { presentDnd } from './dnd.presenter.js';
import { DndService, type DndRow } from './dnd.service.js';
import { BulkDndBody, BulkDndResponse, CreateDndBody, DndListQuery, DndParams, DndRule, ReplaceDndBody } from './dnd.schemas.js';

const AUTH = { user: true, pbx: true } as const;

export async function dndRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }): Promise<void> {
  const service = new DndService(ctx);
  const rules = resourceRoutes(app, ctx.config.baseUrl, {
    tags: USER_SETTINGS_TAGS,
    docs: DND_DOCS,
    schema: DndRule,
    present: (rows: DndRow[]) => rows.map(presentDnd),
  });

  rules.all('/users/:user/dnds', {
    auth: AUTH,
    operationId: 'listDnds',
    params: UserParams,
    querystring: DndListQuery,
    fetch: ({ tenant, principal, params, query }) => service.list(tenant, principal, params.user, query['filter[type]']),
  });
  rules.create('/users/:user/dnds', {
    auth: AUTH,
    operationId: 'createDnd',
    params: UserParams,
    body: CreateDndBody,
    run: ({ tenant, principal, params, body }) => service.create(tenant, principal, params.user, body),
  });
  rules.read('/users/:user/dnds/:userDnd', {
    auth: AUTH,
    operationId: 'getDnd',
    params: DndParams,
    load: ({ tenant, principal, params }) => service.get(tenant, principal, params.user, params.userDnd),
  });
  rules.update('/users/:user/dnds/:userDnd', {
    method: 'PUT',
    auth: AUTH,
    operationId: 'replaceDnd',
    params: DndParams,
    body: ReplaceDndBody,
    run: ({ tenant, principal, params, body }) => service.replace(tenant, principal, params.user, params.userDnd, body),
  });
  rules.delete('/users/:user/dnds/:userDnd', {
    auth: AUTH,
    operationId: 'deleteDnd',
    params: DndParams,
    run: ({ tenant, principal, params }) => service.delete(tenant, principal, params.user, params.userDnd),
  });

  rules.route('/users/:user/dnds/bulk', {
    method: 'POST',
    auth: AUTH,
    operationId: 'bulkDnds',
    params: UserParams,
    body: BulkDndBody,
    response: { 200: BulkDndResponse },
    handle: async ({ tenant, principal, params, body }) => ({ data: await service.bulk(tenant, principal, params.user, body) }),
  });
}
