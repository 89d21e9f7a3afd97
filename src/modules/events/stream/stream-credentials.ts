import type { onRequestAsyncHookHandler } from 'fastify';
import { tokenKind } from '../../../platform/crypto.js';
import { Unauthorized } from '../../../platform/errors.js';
import type { EventTicketsService } from '../tickets/event-tickets.service.js';

const TOKEN_IN_URL =
  'A token in the URL is refused (URLs end up in logs): send it in the Authorization header, or ask POST /events/tickets for a one-time ticket and pass that.';

/**
 * The streams' second way in, for browsers: `?ticket=` from POST /events/tickets, used up here
 * and turned into the principal it stands for, before the route's auth is checked (as a header's
 * token is). A token anywhere in the query is refused, not ignored, so a client that leaks one
 * learns at once.
 */
export function streamCredentials(tickets: EventTicketsService): onRequestAsyncHookHandler {
  return async (request) => {
    // onRequest runs before validation: the query is still whatever the client sent.
    const query = request.query as Record<string, unknown>;
    for (const value of Object.values(query).flat()) if (typeof value === 'string' && tokenKind(value) !== null) throw new Unauthorized(TOKEN_IN_URL);
    const ticket = query.ticket;
    // Repeated, it is left to the query's schema to refuse.
    if (typeof ticket !== 'string' || ticket === '') return;
    if (request.headers.authorization !== undefined) throw new Unauthorized('Send the Authorization header or a ticket, not both.');
    request.principal = await tickets.redeem(ticket);
  };
}
