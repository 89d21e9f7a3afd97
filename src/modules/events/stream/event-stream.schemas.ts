import { Type } from '@sinclair/typebox';
import { KIND_PATTERN } from '../../../platform/events/kind-patterns.js';

const KIND_ITEM = KIND_PATTERN.slice(1, -1);
const EVENT_ID = '^[0-9]{1,15}$';

/** The filters and resume point both streams take, and the ticket a browser passes instead of a header. */
export const EventStreamQuery = Type.Object({
  kinds: Type.Optional(
    Type.String({
      maxLength: 2000,
      pattern: `^${KIND_ITEM}(,${KIND_ITEM})*$`,
      description:
        'Only these kinds, comma-separated: a kind (`call.answered`) or a prefix with `.*` (`call.*`). A name or prefix that no kind has is refused with 422, naming it. All kinds when left out.',
      examples: ['call.*,device.registered'],
    }),
  ),
  subject: Type.Optional(
    Type.String({
      maxLength: 300,
      pattern: '^[a-z][a-z0-9_]*:\\S+$',
      description: 'Only events about this subject, `<type>:<id>` (`call:…`); a type no kind is about is refused with 422.',
      examples: ['sip_device:0b8f8a52-3f6e-4c65-9a1e-7d7c1c2b4e11'],
    }),
  ),
  last_event_id: Type.Optional(
    Type.String({
      pattern: EVENT_ID,
      description:
        'Resume after this event id (the `Last-Event-ID` header wins when both are sent): the events after it, in order, then live ones. ' +
        'An id older than the retention (EVENT_RETENTION_HOURS), or one this PBX never gave, gets one `reset` event first.',
      examples: ['1042'],
    }),
  ),
  ticket: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 100,
      description:
        'A ticket from POST /events/tickets, for clients that cannot send the Authorization header (browsers): used up by this request. ' +
        'Never put a token in the URL: one there is refused with 401.',
    }),
  ),
});

export const EventStreamHeaders = Type.Object({
  'last-event-id': Type.Optional(
    Type.String({
      pattern: EVENT_ID,
      description: 'The last event id the client saw, as `EventSource` sends it when it reconnects: the stream resumes after it.',
    }),
  ),
});

const ENVELOPE = '`{"id": "<seq>", "kind": "<kind>", "time": "<ISO 8601>", "tenant": "<pbx_id>", "subject": {"type": "<type>", "id": "<id>"}, "data": {…}}`';

/** The Server-Sent Events answer: its frames, for the OpenAPI document. */
export const EVENT_STREAM_ANSWER = {
  description:
    'A stream of Server-Sent Events that stays open. Each event is one frame, `id: <seq>`, `event: <kind>`, `data: <envelope>`, then a blank line; ' +
    `the envelope is ${ENVELOPE}. Ids are the PBX's event numbers: in commit order, without gaps (a filtered stream skips some). ` +
    'A comment line (`: heartbeat`) comes every EVENT_STREAM_HEARTBEAT_SECONDS when nothing else does. Two control events carry `{"reason": "…"}`: ' +
    '`reset` (with the current id) when the events after the client’s last id are no longer kept: reload the state over REST, then carry on; ' +
    'and `close`, the last frame before the server ends the stream: `stream lifetime reached` (after EVENT_STREAM_MAX_SECONDS), `server shutting down`, ' +
    'or `slow consumer`: at most 1,000 frames or 1 MiB wait for a connection, and a client that takes none for a whole heartbeat interval while they wait is closed. ' +
    'Reconnect with the last id to resume.',
  content: { 'text/event-stream': { schema: { type: 'string', description: 'Frames as described above.' } } },
};

/** The WebSocket answer: the upgrade (no body) and its messages, for the OpenAPI document. */
export const EVENT_SOCKET_ANSWER = {
  type: 'null',
  description:
    `Switching to the WebSocket protocol. Each event is one text message, its envelope ${ENVELOPE}; ` +
    'a `reset` arrives as `{"id": "<seq>", "kind": "reset", "data": {"reason": "…"}}`. The server pings every EVENT_STREAM_HEARTBEAT_SECONDS ' +
    'and closes with a reason: 1000 `stream lifetime reached`, 1001 `server shutting down`, 1008 `slow consumer` (a client that answers no ping, ' +
    'or takes nothing for a whole interval while frames wait for it). Reconnect with `last_event_id` to resume. Messages from the client are ignored.',
};

export const NOT_AN_UPGRADE = {
  description: 'A request without `Upgrade: websocket`: this address speaks WebSocket only (GET /events/stream serves the same events over HTTP).',
  $ref: 'MessageError#',
};
