import type { FastifyInstance } from 'fastify';
import { resourceRoutes } from '../../../http/resource-routes.js';
import type { AppContext } from '../../../platform/context.js';
import { ROUTING_MANAGE, ROUTING_READ } from '../shared/access.js';
import { registerIvrStepRoutes } from './ivr-steps.routes.js';
import { IVRS_DOCS } from './ivrs.docs.js';
import { CreateIvrBody, Ivr, IvrInclude, IvrListQuery, IvrParams, UpdateIvrBody } from './ivrs.schemas.js';
import { IvrsService, type IvrRow } from './ivrs.service.js';

/** IVR menus (`/ivrs`) and their steps (`/ivrs/{ivr}/steps`). */
export async function ivrRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }): Promise<void> {
  const service = new IvrsService(ctx);
  const ivrs = resourceRoutes(app, ctx.config.baseUrl, {
    tags: ['IVRs'],
    docs: IVRS_DOCS,
    schema: Ivr,
    present: (rows: IvrRow[], { call, include }) => service.present(call.tenant, rows, include),
  });

  ivrs.list('/ivrs', {
    auth: ROUTING_READ,
    operationId: 'listIvrs',
    querystring: IvrListQuery,
    defaultSort: [{ field: 'name', direction: 'asc' }],
    fetch: ({ tenant, query }, { sort, page }) => service.list(tenant, { search: query.search, trashed: query['filter[trashed]'] }, sort, page),
  });
  ivrs.create('/ivrs', {
    auth: ROUTING_MANAGE,
    operationId: 'createIvr',
    body: CreateIvrBody,
    run: ({ tenant, body }) => service.create(tenant, body),
  });
  ivrs.read('/ivrs/:ivr', {
    auth: ROUTING_READ,
    operationId: 'getIvr',
    params: IvrParams,
    querystring: IvrInclude,
    load: ({ tenant, params }) => service.get(tenant, params.ivr),
  });
  ivrs.update('/ivrs/:ivr', {
    auth: ROUTING_MANAGE,
    operationId: 'updateIvr',
    params: IvrParams,
    body: UpdateIvrBody,
    run: ({ tenant, params, body }) => service.update(tenant, params.ivr, body),
  });
  ivrs.delete('/ivrs/:ivr', {
    auth: ROUTING_MANAGE,
    operationId: 'deleteIvr',
    refusedWhileUsed: true,
    params: IvrParams,
    run: ({ tenant, params }) => service.delete(tenant, params.ivr),
  });
  ivrs.restore('/ivrs/:ivr/restore', {
    auth: ROUTING_MANAGE,
    operationId: 'restoreIvr',
    params: IvrParams,
    run: ({ tenant, params }) => service.restore(tenant, params.ivr),
  });

  registerIvrStepRoutes(app, ctx);
}
