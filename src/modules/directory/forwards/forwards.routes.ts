import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../../platform/context.js';
import { resourceRoutes } from '../../../http/resource-routes.js';
import { USER_SETTINGS_TAGS } from '../shared/tags.js';
import { UserParams } from '../users/users.schemas.js';
import { FORWARDS_DOCS } from './forwards.docs.js';
import { presentForward } from './forwards.presenter.js';
import { ForwardsService, type ForwardRow } from './forwards.service.js';
import { CreateForwardBody, Forward, ForwardListQuery, ForwardParams, UpdateForwardBody } from './forwards.schemas.js';

const AUTH = { user: true, pbx: true } as const;

export async function forwardRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }): Promise<void> {
  const service = new ForwardsService(ctx);
  const forwards = resourceRoutes(app, ctx.config.baseUrl, {
    tags: USER_SETTINGS_TAGS,
    docs: FORWARDS_DOCS,
    schema: Forward,
    present: (rows: ForwardRow[]) => rows.map(presentForward),
  });

  forwards.all('/users/:user/forwards', {
    auth: AUTH,
    operationId: 'listForwards',
    params: UserParams,
    querystring: ForwardListQuery,
    fetch: ({ tenant, principal, params, query }) =>
      service.list(tenant, principal, params.user, { type: query['filter[type]'], enabled: query['filter[enabled]'] }),
  });
  forwards.create('/users/:user/forwards', {
    auth: AUTH,
    operationId: 'createForward',
    params: UserParams,
    body: CreateForwardBody,
    run: ({ tenant, principal, params, body }) => service.create(tenant, principal, params.user, body),
  });
  forwards.read('/users/:user/forwards/:forward', {
    auth: AUTH,
    operationId: 'getForward',
    params: ForwardParams,
    load: ({ tenant, principal, params }) => service.get(tenant, principal, params.user, params.forward),
  });
  forwards.update('/users/:user/forwards/:forward', {
    auth: AUTH,
    operationId: 'updateForward',
    params: ForwardParams,
    body: UpdateForwardBody,
    run: ({ tenant, principal, params, body }) => service.update(tenant, principal, params.user, params.forward, body),
  });
  forwards.delete('/users/:user/forwards/:forward', {
    auth: AUTH,
    operationId: 'deleteForward',
    params: ForwardParams,
    run: ({ tenant, principal, params }) => service.delete(tenant, principal, params.user, params.forward),
  });
}
