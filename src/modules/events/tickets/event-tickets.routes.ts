import type { FastifyInstance } from 'fastify';
import { operationRoutes } from '../../../http/resource-routes.js';
import type { AppContext } from '../../../platform/context.js';
import { STREAM_AUTH } from '../stream-auth.js';
import { LIVE_EVENTS_TAGS } from '../tags.js';
import { EVENT_TICKETS_DOCS } from './event-tickets.docs.js';
import { EventTicket, EventTicketResponse } from './event-tickets.schemas.js';
import { EventTicketsService } from './event-tickets.service.js';

export async function eventTicketRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }): Promise<void> {
  const service = new EventTicketsService(ctx);
  app.addSchema(EventTicket);
  const { route } = operationRoutes(app, { tags: LIVE_EVENTS_TAGS, docs: EVENT_TICKETS_DOCS });

  route('/events/tickets', {
    method: 'POST',
    auth: STREAM_AUTH,
    // A ticket is no token nor profile change: issuing one leaves the tenant's caches be.
    config: { carriesSecret: true, keepsCaches: true },
    operationId: 'createEventTicket',
    response: { 201: EventTicketResponse },
    handle: async ({ principal, request, reply }) => {
      const ticket = await service.issue(principal, request.headers.authorization);
      reply.code(201);
      return { data: ticket };
    },
  });
}
