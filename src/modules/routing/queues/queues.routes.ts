import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { resourceRoutes } from '../../../http/resource-routes.js';
import { tenantOfRequest } from '../../../platform/auth/auth-plugin.js';
import type { AppContext } from '../../../platform/context.js';
import { ROUTING_MANAGE, ROUTING_READ } from '../shared/access.js';
import type { QueueRow } from './queues.queries.js';
import { QueuesService } from './queues.service.js';
import { CreateQueueBody, Queue, QueueInclude, QueueListQuery, QueueParams, UpdateQueueBody } from './queues.schemas.js';

const tags = ['Queues'];

export async function queueRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }): Promise<void> {
  const service = new QueuesService(ctx);
  const queues = resourceRoutes(app, ctx.config.baseUrl, {
    tags,
    schema: Queue,
    present: (rows: QueueRow[], { call, include }) => service.present(call.tenant, rows, include),
  });

  queues.list('/queues', {
    auth: ROUTING_READ,
    operationId: 'listQueues',
    summary: 'Call queues of the PBX',
    description:
      'Any user of the PBX, its PBX key, or an integration key with the call-routing scope. ' +
      '`search` matches the name; `filter[strategy]`, `filter[member_id]` (a user or extension) and `filter[trashed]` narrow the page; sorted by name unless `sort` says otherwise. ' +
      '`include`: members.user, members.extension, announcement, musicOnHold.',
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
    summary: 'Create a call queue with its members',
    description:
      'Administrators of the PBX only. ' +
      'Defaults: strategy ringall, max_wait_seconds 300, no max_callers, member_timeout_seconds 20, wrap_up_seconds 10, overflow hangup, no members. music_on_hold_id must be a live sound file of type music, announcement_id of type announcement, the overflow a live target of the PBX, each member a live user or extension listed once (up to 200); every bad field is reported in one 422. ' +
      'The routing graph is checked as for call flows: a write that brings a new problem is 422 with `problems`.',
    body: CreateQueueBody,
    run: ({ tenant, body }) => service.create(tenant, body),
  });
  queues.read('/queues/:queue', {
    auth: ROUTING_READ,
    operationId: 'getQueue',
    summary: 'One call queue',
    description:
      'Any user of the PBX, its PBX key, or an integration key with the call-routing scope. ' +
      'The queue with its members in ring order; a deleted queue, or another PBX’s, is 404. ' +
      '`include`: members.user, members.extension, announcement, musicOnHold.',
    params: QueueParams,
    querystring: QueueInclude,
    load: ({ tenant, params }) => service.get(tenant, params.queue),
  });
  queues.update('/queues/:queue', {
    auth: ROUTING_MANAGE,
    operationId: 'updateQueue',
    summary: 'Change a call queue (only supplied fields; members replaces the whole list)',
    description:
      'Administrators of the PBX only. ' +
      'The fields sent change, with the limits and checks of the creation; `members` replaces the whole list, and a queue cannot overflow into itself (422). ' +
      'A deleted queue is 404. The routing graph is checked as for call flows (422 with `problems`).',
    params: QueueParams,
    body: UpdateQueueBody,
    run: ({ tenant, params, body }) => service.update(tenant, params.queue, body),
  });
  queues.restore('/queues/:queue/restore', {
    auth: ROUTING_MANAGE,
    operationId: 'restoreQueue',
    summary: 'Restore a deleted call queue',
    description:
      'Administrators of the PBX only. Its sound files and overflow target must still exist (else 422 naming the field); members whose user or extension was deleted meanwhile are dropped.',
    params: QueueParams,
    run: ({ tenant, params }) => service.restore(tenant, params.queue),
  });

  // Explicit beside the table: a delete that can be refused answers 409 with what still uses the queue.
  app.withTypeProvider<TypeBoxTypeProvider>().route({
    method: 'DELETE',
    url: '/queues/:queue',
    config: { auth: ROUTING_MANAGE },
    schema: {
      tags,
      operationId: 'deleteQueue',
      summary: 'Delete a call queue (soft; restorable)',
      description:
        'Administrators of the PBX only. Refused with 409 while an IVR, a call flow, a phone number or another queue’s overflow sends calls to it (listed in used_by).',
      params: QueueParams,
      response: { 204: Type.Null(), 409: { $ref: 'InUseError#' } },
    },
    handler: async (request, reply) => {
      await service.delete(tenantOfRequest(request), request.params.queue);
      return reply.code(204).send(null);
    },
  });
}
