import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../../platform/context.js';
import { resourceRoutes } from '../../../http/resource-routes.js';
import { USER_SETTINGS_TAGS } from '../shared/tags.js';
import { UserParams } from '../users/users.schemas.js';
import { ForwardsService, presentForward, type ForwardRow } from './forwards.service.js';
import { CreateForwardBody, Forward, ForwardListQuery, ForwardParams, UpdateForwardBody } from './forwards.schemas.js';

const AUTH = { user: true, pbx: true } as const;

export async function forwardRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }): Promise<void> {
  const service = new ForwardsService(ctx);
  const forwards = resourceRoutes(app, ctx.config.baseUrl, {
    tags: USER_SETTINGS_TAGS,
    schema: Forward,
    present: (rows: ForwardRow[]) => rows.map(presentForward),
  });

  forwards.all('/users/:user/forwards', {
    auth: AUTH,
    operationId: 'listForwards',
    summary: 'Call forwards of a user',
    params: UserParams,
    querystring: ForwardListQuery,
    fetch: ({ tenant, principal, params, query }) =>
      service.list(tenant, principal, params.user, { type: query['filter[type]'], enabled: query['filter[enabled]'] }),
  });
  forwards.create('/users/:user/forwards', {
    auth: AUTH,
    operationId: 'createForward',
    summary: 'Create a call forward (needs allow_call_forwarding)',
    params: UserParams,
    body: CreateForwardBody,
    run: ({ tenant, principal, params, body }) => service.create(tenant, principal, params.user, body),
  });
  forwards.update('/users/:user/forwards/:forward', {
    auth: AUTH,
    operationId: 'updateForward',
    summary: 'Change a call forward (only supplied fields)',
    params: ForwardParams,
    body: UpdateForwardBody,
    run: ({ tenant, principal, params, body }) => service.update(tenant, principal, params.user, params.forward, body),
  });
  forwards.delete('/users/:user/forwards/:forward', {
    auth: AUTH,
    operationId: 'deleteForward',
    summary: 'Delete a call forward',
    params: ForwardParams,
    run: ({ tenant, principal, params }) => service.delete(tenant, principal, params.user, params.forward),
  });
}
