import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../../platform/context.js';
import { resourceRoutes } from '../../../http/resource-routes.js';
import { ROUTING_MANAGE, ROUTING_READ } from '../shared/access.js';
import { CALL_FLOW_NODES } from './call-flow-nodes.js';
import { CallFlowsService, presentCallFlow, type CallFlowRow } from './call-flows.service.js';
import { CallFlow, CallFlowListQuery, CallFlowParams, CallFlowReadQuery, CreateCallFlowBody, UpdateCallFlowBody } from './call-flows.schemas.js';

const WRITE_NOTE =
  'The whole routing graph of the PBX is checked: a write that brings a new problem (a target that does not exist or is deleted, a loop without a caller choice, an unreachable node, a time condition without a closed branch, a disabled user or an empty queue as the only target) is refused with 422, `errors` keyed by the path of each problem and `problems` listing them.';

export async function callFlowRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }): Promise<void> {
  const service = new CallFlowsService(ctx);
  for (const node of CALL_FLOW_NODES) app.addSchema(node);
  const flows = resourceRoutes(app, ctx.config.baseUrl, {
    tags: ['Call flows'],
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
    summary: 'Call flows of the PBX',
    description:
      'Any user of the PBX, its PBX key, or an integration key with the call-routing scope. ' +
      '`search` matches name and description; `filter[node_type]` keeps flows having a node of that type, `filter[target_id]` flows whose nodes point at that user, extension, queue, IVR, call flow or sound file; `filter[trashed]` (without, with, only). ' +
      'Sorted by name unless `sort` says otherwise; `include=used_by` lists what routes into each flow.',
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
    summary: 'Create a call flow',
    description: WRITE_NOTE,
    body: CreateCallFlowBody,
    run: ({ tenant, body }) => service.create(tenant, body),
  });
  flows.read('/call-flows/:callFlow', {
    auth: ROUTING_READ,
    operationId: 'getCallFlow',
    summary: 'One call flow',
    description:
      'Any user of the PBX, its PBX key, or an integration key with the call-routing scope. ' +
      'The flow with its entry and nodes; a deleted flow, or another PBX’s, is 404 (list it with filter[trashed]). ' +
      '`include=used_by` lists the phone numbers, IVR steps, flows, queues and contacts that route into it.',
    params: CallFlowParams,
    querystring: CallFlowReadQuery,
    load: ({ tenant, params }) => service.get(tenant, params.callFlow),
  });
  flows.update('/call-flows/:callFlow', {
    auth: ROUTING_MANAGE,
    operationId: 'updateCallFlow',
    summary: 'Change a call flow (nodes given replace them all)',
    description: WRITE_NOTE,
    params: CallFlowParams,
    body: UpdateCallFlowBody,
    run: ({ tenant, params, body }) => service.update(tenant, params.callFlow, body),
  });
  flows.delete('/call-flows/:callFlow', {
    auth: ROUTING_MANAGE,
    operationId: 'deleteCallFlow',
    summary: 'Delete a call flow (soft; restorable)',
    description:
      'Administrators of the PBX only. Refused with 409 and `used_by` while a phone number, an IVR step, another flow, a queue overflow or a contact routes into it.',
    refusedWhileUsed: true,
    params: CallFlowParams,
    run: ({ tenant, params }) => service.delete(tenant, params.callFlow),
  });
  flows.restore('/call-flows/:callFlow/restore', {
    auth: ROUTING_MANAGE,
    operationId: 'restoreCallFlow',
    summary: 'Restore a deleted call flow',
    description: WRITE_NOTE,
    params: CallFlowParams,
    run: ({ tenant, params }) => service.restore(tenant, params.callFlow),
  });
}
