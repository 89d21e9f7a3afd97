import type { FastifyInstance } from 'fastify';
import { resourceRoutes } from '../../../http/resource-routes.js';
import type { AppContext } from '../../../platform/context.js';
import { ROUTING_MANAGE, ROUTING_READ } from '../shared/access.js';
import { QueuesService, type QueueRow } from './queues.service.js';
import { QUEUES_DOCS } from './queues.docs.js';
import { CreateQueueBody, Queue, QueueInclude, QueueListQuery, QueueParams, UpdateQueueBody } from './queues.schemas.js';

export async function queueRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }): Promise<void> {
  const service = new QueuesService(ctx);
  const queues = resourceRoutes(app, ctx.config.baseUrl, {
    tags: ['Queues'],
    docs: QUEUES_DOCS,
    schema: Queue,
    present: (rows: QueueRow[], { call, include }) => service.present(call.tenant, rows, include),
  });

  queues.list('/queues', {
    auth: ROUTING_READ,
    operationId: 'listQueues',
    querystring: QueueListQuery,
    defaultSort: [{ field: 'name', direction: 'asc' }],
    fetch: ({ tenant, query }, { sort, page }) =>
      service.list(
        tenant,
        { search: query.search, strategy: query['filter[strategy]'], memberId: query['filter[member_id]'], trashed: query['filter[trashed]'] },
        sort,
        page,
      ),
  });
  queues.create('/queues', {
    auth: ROUTING_MANAGE,
    operationId: 'createQueue',
    body: CreateQueueBody,
    run: ({ tenant, body }) => service.create(tenant, body),
  });
  queues.read('/queues/:queue', {
    auth: ROUTING_READ,
    operationId: 'getQueue',
    params: QueueParams,
    querystring: QueueInclude,
    load: ({ tenant, params }) => service.get(tenant, params.queue),
  });
  queues.update('/queues/:queue', {
    auth: ROUTING_MANAGE,
    operationId: 'updateQueue',
    params: QueueParams,
    body: UpdateQueueBody,
    run: ({ tenant, params, body }) => service.update(tenant, params.queue, body),
  });
  queues.delete('/queues/:queue', {
    auth: ROUTING_MANAGE,
    operationId: 'deleteQueue',
    refusedWhileUsed: true,
    params: QueueParams,
    run: ({ tenant, params }) => service.delete(tenant, params.queue),
  });
  queues.restore('/queues/:queue/restore', {
    auth: ROUTING_MANAGE,
    operationId: 'restoreQueue',
    params: QueueParams,
    run: ({ tenant, params }) => service.restore(tenant, params.queue),
  });
}
