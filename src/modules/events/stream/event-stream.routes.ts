import { PassThrough } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import type { Static } from '@sinclair/typebox';
import websocket from '@fastify/websocket';
import { operationRoutes } from '../../../http/resource-routes.js';
import type { AppContext } from '../../../platform/context.js';
import { ClientError } from '../../../platform/errors.js';
import { STREAM_AUTH } from '../stream-auth.js';
import { LIVE_EVENTS_TAGS } from '../tags.js';
import { EventTicketsService } from '../tickets/event-tickets.service.js';
import { EVENT_STREAM_DOCS } from './event-stream.docs.js';
import { EVENT_SOCKET_ANSWER, EVENT_STREAM_ANSWER, EventStreamHeaders, EventStreamQuery, NOT_AN_UPGRADE } from './event-stream.schemas.js';
import { EventStreamService } from './event-stream.service.js';
import { SocketTransport } from './socket.js';
import { SSE_OPENING, SseTransport } from './sse.js';
import { streamCredentials } from './stream-credentials.js';
import { LiveStreams } from './stream-session.js';

/** Clients send nothing on the socket; a message that large is no client of ours. */
const SOCKET_MAX_PAYLOAD = 4096;

/** The live event streams: Server-Sent Events and WebSocket, from one subscription model; each ended before the app closes. */
export async function eventStreamRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }): Promise<void> {
  const service = new EventStreamService(ctx);
  const streams = new LiveStreams(ctx.events, ctx.config.eventStream);
  // First: its hooks mark an upgrade request (and end its socket after a refusal), whatever refuses it.
  await app.register(websocket, {
    options: { maxPayload: SOCKET_MAX_PAYLOAD },
    // Every open stream (SSE and WebSocket) ends saying why, before Fastify waits for open answers and the bus closes (onClose).
    preClose(done) {
      streams.endAll('server shutting down');
      this.websocketServer.close();
      done();
    },
  });
  app.addHook('onRequest', streamCredentials(new EventTicketsService(ctx)));
  const { route } = operationRoutes(app, { tags: LIVE_EVENTS_TAGS, docs: EVENT_STREAM_DOCS });

  route('/events/stream', {
    method: 'GET',
    auth: STREAM_AUTH,
    operationId: 'streamEvents',
    querystring: EventStreamQuery,
    headers: EventStreamHeaders,
    response: { 200: EVENT_STREAM_ANSWER },
    handle: async ({ tenant, principal, query, request, reply }) => {
      // Checked by EventStreamHeaders; the header (what EventSource sends on reconnecting) wins over the query.
      const headers = request.headers as Static<typeof EventStreamHeaders>;
      const opening = await service.prepare(tenant, principal, { ...query, lastEventId: headers['last-event-id'] ?? query.last_event_id });
      const out = new PassThrough();
      out.write(SSE_OPENING);
      const session = streams.start(opening, new SseTransport(out, reply.raw));
      out.once('close', () => session.gone());
      // Proxies (nginx) must pass each frame on at once rather than buffer the answer.
      return reply.header('content-type', 'text/event-stream; charset=utf-8').header('x-accel-buffering', 'no').send(out);
    },
  });

  route('/events/socket', {
    method: 'GET',
    auth: STREAM_AUTH,
    operationId: 'streamEventsOverWebSocket',
    querystring: EventStreamQuery,
    response: { 101: EVENT_SOCKET_ANSWER, 426: NOT_AN_UPGRADE },
    handle: async () => {
      const refusal = new ClientError(
        426,
        'This address speaks WebSocket: send an Upgrade: websocket request (GET /events/stream serves the same events over HTTP).',
      );
      refusal.headers.upgrade = 'websocket';
      throw refusal;
    },
    websocket: async ({ tenant, principal, query }) => {
      const opening = await service.prepare(tenant, principal, { ...query, lastEventId: query.last_event_id });
      return (socket) => {
        const session = streams.start(opening, new SocketTransport(socket));
        socket.once('close', () => session.gone());
      };
    },
  });
}
