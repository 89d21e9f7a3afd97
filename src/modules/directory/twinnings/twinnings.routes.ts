import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../../platform/context.js';
import { resourceRoutes } from '../../../http/resource-routes.js';
import { UserParams } from '../users/users.schemas.js';
import { TWINNINGS_DOCS } from './twinnings.docs.js';
import { presentTwinning } from './twinnings.presenter.js';
import { TwinningsService, type TwinningRow } from './twinnings.service.js';
import { CreateTwinningBody, Twinning, TwinningListQuery, TwinningParams, UpdateTwinningBody } from './twinnings.schemas.js';

const AUTH = { user: true, pbx: true } as const;

export async function twinningRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }): Promise<void> {
  const service = new TwinningsService(ctx);
  const twinnings = resourceRoutes(app, ctx.config.baseUrl, {
    tags: ['Twinnings'],
    docs: TWINNINGS_DOCS,
    schema: Twinning,
    present: (rows: TwinningRow[]) => rows.map(presentTwinning),
  });

  twinnings.list('/users/:user/twinnings', {
    auth: AUTH,
    operationId: 'listTwinnings',
    params: UserParams,
    querystring: TwinningListQuery,
    defaultSort: [{ field: 'created_at', direction: 'asc' }],
    fetch: ({ tenant, principal, params, query }, { sort, page }) =>
      service.list(
        tenant,
        principal,
        params.user,
        { search: query.search, status: query['filter[status]'], type: query['filter[type]'], syncSource: query['filter[sync_source]'] },
        sort,
        page,
      ),
  });
  twinnings.create('/users/:user/twinnings', {
    auth: AUTH,
    operationId: 'createTwinning',
    params: UserParams,
    body: CreateTwinningBody,
    run: ({ tenant, principal, params, body }) => service.create(tenant, principal, params.user, body),
  });
  twinnings.read('/users/:user/twinnings/:twinning', {
    auth: AUTH,
    operationId: 'getTwinning',
    params: TwinningParams,
    load: ({ tenant, principal, params }) => service.get(tenant, principal, params.user, params.twinning),
  });
  for (const [method, operationId] of [
    ['PUT', 'replaceTwinning'],
    ['PATCH', 'updateTwinning'],
  ] as const) {
    twinnings.update('/users/:user/twinnings/:twinning', {
      method,
      auth: AUTH,
      operationId,
      params: TwinningParams,
      body: UpdateTwinningBody,
      run: ({ tenant, principal, params, body }) => service.update(tenant, principal, params.user, params.twinning, body),
    });
  }
  twinnings.delete('/users/:user/twinnings/:twinning', {
    auth: AUTH,
    operationId: 'deleteTwinning',
    params: TwinningParams,
    run: ({ tenant, principal, params }) => service.delete(tenant, principal, params.user, params.twinning),
  });
}
