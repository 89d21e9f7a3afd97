import type { OperationDocs } from '../../../http/resource-routes.js';

const AUTH =
  'Authenticate with the Authorization header, or, from a browser, with `?ticket=` from POST /events/tickets (used up by the request); a token in the URL is refused. ' +
  'Each principal receives the events it may read over REST: a user its own and the PBX’s shared ones, an administrator all of the PBX’s, ' +
  'an API key those of the kinds its scopes read. Filters (`kinds`, `subject`) narrow that down.';

/** The OpenAPI text of event-stream.routes.ts, by operation id. */
export const EVENT_STREAM_DOCS = {
  streamEvents: {
    summary: 'The PBX’s live events as Server-Sent Events',
    description:
      'Calls, device presence, user state, pushes, imports, absences and routing changes as they commit, in order, each once. ' +
      `${AUTH} Reconnect with the \`Last-Event-ID\` header (\`EventSource\` sends it) or \`last_event_id\` to get exactly the events missed, ` +
      'as long as they are kept (EVENT_RETENTION_HOURS); otherwise a `reset` event says to reload over REST. ' +
      '`curl -N -H "Authorization: Bearer $TOKEN" "$BASE/events/stream?kinds=call.*"`.',
  },
  streamEventsOverWebSocket: {
    summary: 'The PBX’s live events over a WebSocket',
    description:
      `The same events as GET /events/stream, each a JSON text message. ${AUTH} ` +
      'Resume with `last_event_id`. Input is checked before the upgrade: a refusal is an ordinary HTTP answer (401, 403, 422).',
  },
} satisfies OperationDocs;
