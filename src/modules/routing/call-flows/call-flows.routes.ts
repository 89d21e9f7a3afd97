import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../../platform/context.js';
import { resourceRoutes } from '../../../http/resource-routes.js';
import { ROUTING_MANAGE, ROUTING_READ } from '../shared/access.js';
import { CALL_FLOW_NODES } from './call-flow-nodes.js';
import { CALL_FLOWS_DOCS } from './call-flows.docs.js';
import { presentCallFlow } from './call-flows.presenter.js';
import { CallFlowsService, type CallFlowRow } from './call-flows.service.js';
import { CallFlow, CallFlowListQuery, CallFlowParams, CallFlowReadQuery, CreateCallFlowBody, UpdateCallFlowBody } from './call-flows.schemas.js';

export async function callFlowRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }): Promise<void> {
  const service = new CallFlowsService(ctx);
  for (const node of CALL_FLOW_NODES) app.addSchema(node);
  const flows = resourceRoutes(app, ctx.config.baseUrl, {
    tags: ['Call flows'],
    docs: CALL_FLOWS_DOCS,
    schema: CallFlow,
    present: async (rows: CallFlowRow[], { call, include }) => {
      const views = rows.map(presentCallFlow);
      if (include.has('used_by')) for (const view of views) view.used_by = await service.usedBy(call.tenant, view.id);
      return views;
    },
  });

  flows.list('/call-flows', {
    auth: ROUTING_READ,
    operationId: 'listCallFlows',
    querystring: CallFlowListQuery,
    defaultSort: [{ field: 'name', direction: 'asc' }],
    fetch: ({ tenant, query }, { sort, page }) =>
      service.list(
        tenant,
        { search: query.search, trashed: query['filter[trashed]'], nodeType: query['filter[node_type]'], targetId: query['filter[target_id]'] },
        sort,
        page,
      ),
  });
  flows.create('/call-flows', {
    auth: ROUTING_MANAGE,
    operationId: 'createCallFlow',
    body: CreateCallFlowBody,
    run: ({ tenant, body }) => service.create(tenant, body),
  });
  flows.read('/call-flows/:callFlow', {
    auth: ROUTING_READ,
    operationId: 'getCallFlow',
    params: CallFlowParams,
    querystring: CallFlowReadQuery,
    load: ({ tenant, params }) => service.get(tenant, params.callFlow),
  });
  flows.update('/call-flows/:callFlow', {
    auth: ROUTING_MANAGE,
    operationId: 'updateCallFlow',
    params: CallFlowParams,
    body: UpdateCallFlowBody,
    run: ({ tenant, params, body }) => service.update(tenant, params.callFlow, body),
  });
  flows.delete('/call-flows/:callFlow', {
    auth: ROUTING_MANAGE,
    operationId: 'deleteCallFlow',
    refusedWhileUsed: true,
    params: CallFlowParams,
    run: ({ tenant, params }) => service.delete(tenant, params.callFlow),
  });
  flows.restore('/call-flows/:callFlow/restore', {
    auth: ROUTING_MANAGE,
    operationId: 'restoreCallFlow',
    params: CallFlowParams,
    run: ({ tenant, params }) => service.restore(tenant, params.callFlow),
  });
}
