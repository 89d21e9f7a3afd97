import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.js';
import { eventKinds, type EventKind } from '../platform/events/index.js';

/**
 * The AsyncAPI 3.0 document of the live events, served at /asyncapi.json beside the OpenAPI
 * document: each registered event kind (platform/events, `defineEventKind`) is a message whose
 * payload is the event envelope with the kind's own TypeBox data schema, sent over three channels:
 * the Server-Sent Events stream, the WebSocket, and webhook subscriptions' deliveries. The
 * streams' query parameters, descriptions and security come from their operations in the OpenAPI
 * document (the same route schemas), its security schemes become this document's, so the two
 * documents cannot tell different stories.
 */

type Json = Record<string, unknown>;

interface OpenApiOperation {
  operationId?: string;
  description?: string;
  summary?: string;
  security?: Array<Record<string, string[]>>;
  parameters?: Array<{ name: string; in: string; description?: string; schema?: Json; example?: unknown; required?: boolean }>;
  responses?: Record<string, { description?: string }>;
}

interface OpenApiDocument {
  info: { version: string };
  paths: Record<string, Record<string, OpenApiOperation>>;
  components: { schemas?: Record<string, Json>; securitySchemes?: Record<string, Json> };
}

const STREAM_OPERATION = 'streamEvents';
const SOCKET_OPERATION = 'streamEventsOverWebSocket';

const WEBHOOK_HEADERS = {
  type: 'object',
  required: ['webhook-id', 'webhook-timestamp', 'webhook-signature'],
  properties: {
    'webhook-id': { type: 'string', pattern: '^msg_[0-9a-f]{32}$', description: 'The message’s id, the same on every attempt: deduplicate by it.' },
    'webhook-timestamp': { type: 'string', pattern: '^[0-9]+$', description: 'When this attempt was signed, in seconds since the Unix epoch.' },
    'webhook-signature': {
      type: 'string',
      description:
        '`v1,<base64 HMAC-SHA256 of "id.timestamp.body">` with the PBX’s secret (`GET /webhooks/signing-secret`); during a rotation’s overlap two, space-separated.',
    },
  },
};

const REASON = {
  type: 'object',
  required: ['reason'],
  properties: { reason: { type: 'string' } },
};

/** A copy of a TypeBox schema as plain JSON, its `$ref`s to named schemas pointing into `components.schemas`. */
function plain(schema: unknown, refs: Set<string>): unknown {
  if (Array.isArray(schema)) return schema.map((item) => plain(item, refs));
  if (schema === null || typeof schema !== 'object') return schema;
  const out: Json = {};
  for (const [key, value] of Object.entries(schema as Json)) {
    if (key === '$id') continue;
    if (key === '$ref' && typeof value === 'string') {
      const name = value.replace(/^#\/components\/schemas\//, '').replace(/#$/, '');
      refs.add(name);
      out.$ref = `#/components/schemas/${name}`;
    } else out[key] = plain(value, refs);
  }
  return out;
}

/** Who receives a kind, besides the users its events concern: the sentence the message's description ends with. */
function receivers(kind: EventKind): string {
  const keys = [
    ...(kind.pbxKey ? ['the PBX key'] : []),
    ...(kind.integrationScope ? [`integration keys with the \`${kind.integrationScope}\` scope`] : []),
    ...(kind.pbxServer ? ['the PBX server’s key'] : []),
  ];
  return `Received by the users it concerns and the administrators${keys.length ? `, and by ${keys.join(', ')}` : ''}.`;
}

/** The event envelope of one kind, as the streams send it and as a webhook's `data`. */
function envelopeOf(kind: EventKind, refs: Set<string>): Json {
  return {
    type: 'object',
    required: ['id', 'kind', 'time', 'tenant', 'subject', 'data'],
    properties: {
      id: { type: 'string', pattern: '^[0-9]+$', description: 'The PBX’s event number: in commit order, without gaps; resume after it.' },
      kind: { type: 'string', const: kind.kind },
      time: { type: 'string', format: 'date-time', description: 'When the change committed.' },
      tenant: { type: 'string', format: 'uuid', description: 'The PBX.' },
      subject: {
        type: 'object',
        required: ['type', 'id'],
        properties: { type: { type: 'string', const: kind.subject }, id: { type: 'string' } },
      },
      data: plain(kind.data, refs),
    },
  };
}

function operationOf(openapi: OpenApiDocument, operationId: string): { path: string; operation: OpenApiOperation } | undefined {
  for (const [path, methods] of Object.entries(openapi.paths))
    for (const operation of Object.values(methods)) if (operation.operationId === operationId) return { path, operation };
  return undefined;
}

/** OpenAPI's security schemes as AsyncAPI's: bearer schemes alike, an API key in a header `httpApiKey`. */
function securitySchemesOf(openapi: OpenApiDocument): Record<string, Json> {
  const schemes: Record<string, Json> = {};
  for (const [name, scheme] of Object.entries(openapi.components.securitySchemes ?? {}))
    schemes[name] = scheme.type === 'apiKey' ? { ...scheme, type: 'httpApiKey' } : { ...scheme };
  schemes.StreamTicket = {
    type: 'httpApiKey',
    in: 'query',
    name: 'ticket',
    description:
      'For browsers, which cannot send a header with EventSource or WebSocket: a one-time ticket from `POST /events/tickets`, valid 30 s, standing for the credential that asked for it.',
  };
  return schemes;
}

const securityOf = (operation: OpenApiOperation) => [
  ...(operation.security ?? []).flatMap((requirement) => Object.keys(requirement)).map((name) => ({ $ref: `#/components/securitySchemes/${name}` })),
  { $ref: '#/components/securitySchemes/StreamTicket' },
];

/** The stream's query parameters (and headers) as one object schema, for the channel's binding. */
function parametersSchema(operation: OpenApiOperation, where: 'query' | 'header'): Json {
  const parameters = (operation.parameters ?? []).filter((parameter) => parameter.in === where);
  return {
    type: 'object',
    properties: Object.fromEntries(
      parameters.map((parameter) => [
        parameter.name,
        {
          ...parameter.schema,
          ...(parameter.description ? { description: parameter.description } : {}),
          ...(parameter.example ? { examples: [parameter.example] } : {}),
        },
      ]),
    ),
  };
}

/** The document, for this server's address and the kinds registered now; `openapiDocument` is the app's (`app.swagger()`). */
export function buildAsyncApi(config: Pick<Config, 'baseUrl'>, openapiDocument: object): Json {
  const openapi = openapiDocument as OpenApiDocument;
  const base = new URL(config.baseUrl);
  const secure = base.protocol === 'https:';
  const host = base.host;
  const pathname = base.pathname.replace(/\/$/, '');
  const kinds = eventKinds();
  const refs = new Set<string>();

  const schemas: Record<string, unknown> = {};
  const messages: Record<string, Json> = {};
  for (const kind of kinds) {
    schemas[kind.kind] = envelopeOf(kind, refs);
    const text = { name: kind.kind, title: kind.kind, summary: kind.description, description: `${kind.description} ${receivers(kind)}` };
    messages[kind.kind] = { ...text, contentType: 'application/json', payload: { $ref: `#/components/schemas/${kind.kind}` } };
    messages[`webhook.${kind.kind}`] = {
      ...text,
      contentType: 'application/json',
      headers: WEBHOOK_HEADERS,
      payload: {
        type: 'object',
        required: ['type', 'timestamp', 'data'],
        properties: {
          type: { type: 'string', const: kind.kind },
          timestamp: { type: 'string', format: 'date-time', description: 'When the message was made.' },
          data: { $ref: `#/components/schemas/${kind.kind}` },
        },
      },
    };
  }
  // Schemas the kinds' data name by id (shared ones of the REST API), with those they name in turn.
  for (const pending = [...refs]; pending.length > 0;) {
    const name = pending.pop()!;
    if (name in schemas) continue;
    const before = new Set(refs);
    schemas[name] = plain(openapi.components.schemas?.[name] ?? {}, refs);
    pending.push(...[...refs].filter((ref) => !before.has(ref)));
  }
  messages.reset = {
    name: 'reset',
    title: 'reset',
    summary: 'The events after the client’s last id are no longer kept (or it never had them): reload the state over REST, then carry on.',
    contentType: 'application/json',
    payload: REASON,
  };
  messages.close = {
    name: 'close',
    title: 'close',
    summary: 'The last event before the server ends the stream, with why; reconnect with the last id to resume.',
    contentType: 'application/json',
    payload: REASON,
  };
  messages['socket.reset'] = {
    name: 'reset',
    title: 'reset (WebSocket)',
    summary: messages.reset.summary,
    contentType: 'application/json',
    payload: {
      type: 'object',
      required: ['id', 'kind', 'data'],
      properties: { id: { type: 'string', pattern: '^[0-9]+$' }, kind: { type: 'string', const: 'reset' }, data: REASON },
    },
  };

  const channelMessages = (extra: string[], prefix = '') =>
    Object.fromEntries([...kinds.map((kind) => `${prefix}${kind.kind}`), ...extra].map((key) => [key, { $ref: `#/components/messages/${key}` }]));
  const operationMessages = (channel: string, keys: string[]) => keys.map((key) => ({ $ref: `#/channels/${channel}/messages/${key}` }));

  const channels: Record<string, Json> = {};
  const operations: Record<string, Json> = {};
  const servers: Record<string, Json> = {};
  const stream = operationOf(openapi, STREAM_OPERATION);
  if (stream) {
    servers.api = { host, pathname, protocol: secure ? 'https' : 'http', description: 'This server: `GET /events/stream` (Server-Sent Events).' };
    channels.eventStream = {
      address: stream.path,
      title: 'Server-Sent Events',
      description:
        `\`GET ${stream.path}\`, \`Accept: text/event-stream\`. Each message is one frame: \`id: <event id>\`, \`event: <kind>\` (or \`reset\`, \`close\`), \`data: <the payload as JSON>\`. ` +
        (stream.operation.responses?.['200']?.description ?? ''),
      servers: [{ $ref: '#/servers/api' }],
      messages: channelMessages(['reset', 'close']),
    };
    operations.sendEventStream = {
      action: 'send',
      channel: { $ref: '#/channels/eventStream' },
      title: 'The PBX’s events, as Server-Sent Events',
      summary: stream.operation.summary,
      description: stream.operation.description,
      security: securityOf(stream.operation),
      bindings: { http: { method: 'GET', query: parametersSchema(stream.operation, 'query'), bindingVersion: '0.3.0' } },
      messages: operationMessages('eventStream', [...kinds.map((kind) => kind.kind), 'reset', 'close']),
    };
  }
  const socket = operationOf(openapi, SOCKET_OPERATION);
  if (socket) {
    servers.socket = { host, pathname, protocol: secure ? 'wss' : 'ws', description: 'This server: `GET /events/socket` (WebSocket).' };
    channels.eventSocket = {
      address: socket.path,
      title: 'WebSocket',
      description: `\`GET ${socket.path}\` with \`Upgrade: websocket\`. Each message is one JSON text message. ${socket.operation.responses?.['101']?.description ?? ''}`,
      servers: [{ $ref: '#/servers/socket' }],
      messages: channelMessages(['socket.reset']),
      bindings: { ws: { method: 'GET', query: parametersSchema(socket.operation, 'query'), bindingVersion: '0.1.0' } },
    };
    operations.sendEventSocket = {
      action: 'send',
      channel: { $ref: '#/channels/eventSocket' },
      title: 'The PBX’s events, over a WebSocket',
      summary: socket.operation.summary,
      description: socket.operation.description,
      security: securityOf(socket.operation),
      messages: operationMessages('eventSocket', [...kinds.map((kind) => kind.kind), 'socket.reset']),
    };
  }
  servers.webhookReceiver = {
    host: '{host}',
    protocol: 'https',
    description: 'A webhook subscription’s receiver: its `url` (`POST /webhook-subscriptions`).',
    variables: { host: { description: 'The host (and port) of the subscription’s url.' } },
  };
  channels.webhookDeliveries = {
    address: null,
    title: 'Webhook subscriptions’ deliveries',
    description:
      'Each event a subscription selects (its `kinds` and `filters`) and its owner may read is POSTed to the subscription’s `url` as a Standard Webhooks message ' +
      '`{type, timestamp, data}`, `data` being the event as the streams send it; any 2xx answer is success, anything else is retried with back-off (8 attempts over about 21 minutes). ' +
      'Every attempt is in the delivery log (`GET /webhooks/deliveries`). Messages are not ordered: order them by `data.id`, and deduplicate by the `webhook-id` header.',
    servers: [{ $ref: '#/servers/webhookReceiver' }],
    messages: channelMessages([], 'webhook.'),
  };
  operations.sendWebhook = {
    action: 'send',
    channel: { $ref: '#/channels/webhookDeliveries' },
    title: 'Deliver an event to a webhook subscription',
    summary: 'A signed POST of one event to each subscription that selects it.',
    bindings: { http: { method: 'POST', bindingVersion: '0.3.0' } },
    messages: operationMessages(
      'webhookDeliveries',
      kinds.map((kind) => `webhook.${kind.kind}`),
    ),
  };

  return {
    asyncapi: '3.0.0',
    info: {
      title: 'pbx-api live events',
      version: openapi.info.version,
      description:
        'What happens in a PBX as it happens: calls, device presence, user state, configuration pushes, imports, absence decisions, routing changes. ' +
        'Each event is published in the transaction of the change it reports, numbered per PBX in commit order, and kept for EVENT_RETENTION_HOURS. ' +
        'A principal receives only the events about what it may read over the REST API. ' +
        `The REST API (tickets, webhook subscriptions, the delivery log): ${config.baseUrl}/openapi.json, its docs page ${config.baseUrl}/docs.`,
    },
    defaultContentType: 'application/json',
    servers,
    channels,
    operations,
    components: { schemas, messages, securitySchemes: securitySchemesOf(openapi) },
  };
}

/** `GET <prefix>/asyncapi.json`, public like the OpenAPI document; built once, at the first request (every kind is registered by then). */
export function registerAsyncApi(app: FastifyInstance, config: Pick<Config, 'baseUrl'>, prefix: string): void {
  let document: Json | undefined;
  app.get(`${prefix}/asyncapi.json`, { schema: { hide: true }, config: { auth: { public: true } } }, async () => {
    document ??= buildAsyncApi(config, app.swagger());
    return document;
  });
}
