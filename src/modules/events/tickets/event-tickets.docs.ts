import type { OperationDocs } from '../../../http/resource-routes.js';

/** The OpenAPI text of event-tickets.routes.ts, by operation id. */
export const EVENT_TICKETS_DOCS = {
  createEventTicket: {
    summary: 'A one-time ticket to open a live event stream from a browser',
    description:
      'A browser cannot send an `Authorization` header with `EventSource` or a WebSocket, and a token in a URL ends up in logs. ' +
      'Ask for a ticket with your header, then open `GET /events/stream?ticket=…` (or `/events/socket?ticket=…`): the ticket works once, within 30 seconds, ' +
      'as the credential that asked for it (which must still be valid then), and receives what that credential may receive. ' +
      'Only its digest is stored. A stream that ends (its longest life, a slow client) needs a new ticket to resume.',
  },
} satisfies OperationDocs;
