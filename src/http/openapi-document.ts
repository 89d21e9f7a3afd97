/**
 * The finishing pass over the generated OpenAPI document: what no single route states but every
 * answer has (the rate-limit and request-id headers, `Retry-After` on 429, `Content-Range` on 206),
 * a description for every response by its status (the generator says "Default Response"), an
 * example of every success answer built from its schemas' examples, the tag list with what each tag
 * holds, and the contact. One place, so no route can forget it.
 */
import { documentIdempotency } from './idempotency.js';
import { DEFAULT_PAGE_SIZE } from './list-query.js';
import { paginate } from './pagination.js';

type Json = Record<string, unknown>;
interface Operation {
  operationId?: string;
  summary?: string;
  tags?: string[];
  security?: unknown[];
  responses?: Record<string, Json>;
}

export const RESPONSE_HEADERS = {
  'X-RateLimit-Limit': { description: 'Requests allowed in the current window (per user or API key; the plan may raise it).', schema: { type: 'integer' } },
  'X-RateLimit-Remaining': { description: 'Requests left in the current window.', schema: { type: 'integer' } },
  'X-RateLimit-Reset': { description: 'Seconds until the window starts again.', schema: { type: 'integer' } },
  'X-Request-Id': { description: 'The request’s id (sent by the client or made by the server); logs and audit entries name it.', schema: { type: 'string' } },
  'Retry-After': { description: 'Seconds to wait before trying again.', schema: { type: 'integer' } },
  'Content-Range': { description: 'The bytes sent and the file’s size, `bytes first-last/size`.', schema: { type: 'string' } },
  'Idempotent-Replayed': {
    description: '`true` when this is the stored answer of an earlier request with the same Idempotency-Key.',
    schema: { type: 'string', enum: ['true'] },
  },
} as const;

const EVERY_ANSWER = ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset', 'X-Request-Id'] as const;

const ERROR_TEXT: Record<string, string> = {
  '401': 'No token, or one that is unknown, expired or revoked (`{error}`).',
  '403': 'The token may not do this: its role, its scopes, or the record is someone else’s (`{message}`).',
  '404': 'Not found, or another user’s or another tenant’s (`{message: [..]}`).',
  '406': 'The `accept` header rules out JSON.',
  '409': 'Conflicts with the current state: the body says what and why.',
  '413': 'The upload is larger than the limit.',
  '415': 'A content type this endpoint does not take.',
  '416': 'The Range lies outside the file (`Content-Range: bytes */size`).',
  '422': 'A parameter is invalid (`{message, errors}`, errors by field).',
  '429': 'Too many requests: wait `Retry-After` seconds.',
  '502': 'The PBX refused or dropped the request (`{status: "error", message}`).',
  '503': 'No PBX engine is available for this PBX (`{status: "error", message}`).',
  '504': 'The PBX did not answer in time (`{status: "error", message}`).',
  '5XX': 'Unexpected server error (`{message}`).',
};

const SUCCESS_TEXT: Record<string, string> = {
  '201': 'Created',
  '202': 'Accepted; the work goes on in the background',
  '204': 'Done; no content',
  '206': 'Part of the file (a Range request)',
};

/**
 * What each tag groups, shown by the docs page above its operations, in the order a newcomer meets
 * the API: signing in, the directory, calls, routing and its push to the PBX, the address book, the
 * workforce's parts, integrations, and the audit trail last. The document's tag list keeps this
 * order, and the docs page shows the tags in the list's order.
 */
export const TAG_DESCRIPTIONS: Record<string, string> = {
  'Login and identity': 'Sign-in (password, magic link, one-time code), logout, and the caller’s own profile (`/me`, `/user`).',
  Users: 'The PBX’s users: create, change, delete (soft) and restore; roles, permissions and status.',
  Extensions: 'Internal numbers, each optionally a user’s; favourites per user.',
  'SIP devices': 'Desk phones and softphones registering over SIP, with their codecs and credentials.',
  'Phone numbers': 'The PBX’s public numbers (E.164) and where an inbound call goes: a user, an extension, a call flow, an IVR or a queue.',
  'Caller identities': 'The numbers and names a user may present on outbound calls.',
  Twinnings: 'A mobile or collaboration endpoint ringing alongside a user, with its delay and strategy.',
  'User groups': 'A user’s own groups of colleagues.',
  'Users: settings, DND, groups, buttons, forwards': 'Per-user telephony: settings, do-not-disturb rules, phone buttons and call forwards.',
  'In-call state': 'Whether a user is in a call, reported by the PBX or the apps.',
  'Push devices': 'Mobile devices registered for push notifications of incoming calls.',
  WebRTC: 'The browser phone’s configuration of a user.',
  Roaming: 'Logging a user in and out of a desk phone (hot desking), by the PBX server.',
  Calls: 'Placing a call (click to call) through the PBX.',
  'Call history': 'Call detail records: the list, one call’s detail, recordings, and the PBX server’s push of finished calls.',
  'Call flows': 'Typed graphs of nodes that route a call: ring, queue, menu, voicemail, play, forward, time conditions.',
  IVRs: 'Voice menus and their steps (a key to a call flow or another menu).',
  Queues: 'Call queues with their members, strategy, limits and overflow.',
  'Sound files': 'Announcements and music on hold (WAV, MP3) used by IVRs, call flows and queues.',
  'Call routing': 'The routing graph’s validation and the route simulator.',
  'Configuration push': 'The PBX’s compiled configuration: dry runs, pushes, versions and rollback.',
  'PBX engine': 'How the API talks to the PBX: the Asterisk AMI settings and their test.',
  Contacts: 'The address book: global and private contacts, favourites, and how calls from a contact are handled.',
  'Contact groups': 'Groups of contacts, with their default call flows.',
  'Contact imports': 'Spreadsheet imports (CSV, XLS, XLSX) of contacts: upload, map, confirm, follow.',
  'Workforce: companies, departments, employees':
    'The organisation: companies (with their holiday region), their departments, the employees and the user each is, and the tenant’s workforce settings.',
  'Workforce: contracts': 'An employee’s contracts with a company (user companies): from when, how many hours a week, on which days, and the leave they give.',
  'Workforce: work shifts': 'The shifts a company works (start, end, breaks) and which employee works which shift from when.',
  'Workforce: holidays': 'The tenant’s own holidays and the public holiday calendar of a company’s region.',
  'Workforce: required work time': 'The seconds an employee must work on each day, from the contracts, shifts, holidays and absences.',
  'Workforce: absences':
    'Absence requests (leave, sickness …) with their approval, cancellation and removal, the next day an employee is available, and the tenant’s absence types.',
  'Workforce: home office': 'Home-office requests of an employee and the company’s home-office calendar.',
  'Workforce: recurring transactions': 'Balance credits and debits (leave days, overtime) repeated on a schedule, paused and resumed, run by the durable jobs.',
  'Workforce: schedules and planning':
    'Shift schedules of a company or department, the employees they may plan, the planning entries by day, and the planning statuses entries carry.',
  'Integration API keys': 'Keys the PBX’s administrators create for integrations, each limited to its scopes; created, revealed and revoked here.',
  Webhooks: 'Signed outbound events (Standard Webhooks): the delivery log and the PBX’s signing secret and its rotation.',
  'Webhook subscriptions': 'Live events delivered as signed webhooks to the URLs the PBX’s administrators subscribe, by kind and subject.',
  'Live events':
    'The PBX’s events as they happen, streamed (Server-Sent Events, WebSocket) with resume by event id, filters, and one-time tickets for browsers.',
  'Audit trail': 'Who did what in the PBX, newest first.',
};

/** A public sign-in's 401: the credentials it was sent are wrong (it takes no token). */
const SIGN_IN_REFUSED: Record<string, string> = {
  login: 'Wrong e-mail or password (`{error}`).',
  magicLogin: 'The link is unknown, already used or expired (`{error}`): ask for a new one.',
  passwordlessVerify: 'Wrong or expired code for this address (`{error}`): ask for a new one.',
};
const CREDENTIALS_REFUSED = 'The credentials sent are wrong (`{error}`).';

const ref = (name: string) => ({ $ref: `#/components/headers/${name}` });

export function finishDocument<T extends Json>(document: T, contact: { name: string; url?: string; email?: string }): T {
  const doc = document as Json & {
    paths?: Record<string, Record<string, Operation>>;
    components?: Json & { schemas?: Record<string, Schema> };
    info?: Json;
    tags?: unknown;
    servers?: Array<{ url: string }>;
  };
  doc.components = { ...(doc.components ?? {}), headers: { ...(doc.components?.headers ?? {}), ...RESPONSE_HEADERS } };
  doc.info = { ...(doc.info ?? {}), contact };
  const schemas = doc.components.schemas ?? {};
  const ids = idsOf(schemas);
  const server = doc.servers?.[0]?.url ?? '';
  const used = new Set<string>();
  const idempotent = documentIdempotency(doc);
  for (const [path, methods] of Object.entries(doc.paths ?? {})) {
    for (const operation of Object.values(methods)) {
      if (typeof operation !== 'object' || !operation.responses) continue;
      for (const tag of operation.tags ?? []) used.add(tag);
      const signIn = Array.isArray(operation.security) && operation.security.length === 0;
      for (const [status, response] of Object.entries(operation.responses)) {
        const generic = response.description === undefined || response.description === 'Default Response' || response.description === 'Client error';
        if (signIn && status === '401') response.description = SIGN_IN_REFUSED[operation.operationId ?? ''] ?? CREDENTIALS_REFUSED;
        else if (signIn && status === '403') response.description = 'The account is disabled (`{message}`).';
        else if (generic) response.description = describe(status, operation);
        const headers: Record<string, unknown> = { ...((response.headers as Json | undefined) ?? {}) };
        for (const name of EVERY_ANSWER) headers[name] ??= ref(name);
        if (status === '429') headers['Retry-After'] ??= ref('Retry-After');
        if (status === '206') headers['Content-Range'] ??= ref('Content-Range');
        if (status.startsWith('2') && idempotent.has(operation)) headers['Idempotent-Replayed'] ??= ref('Idempotent-Replayed');
        response.headers = headers;
        if (status.startsWith('2')) addExample(response, { schemas, url: `${server}${path}`, message: ANSWER_MESSAGES[operation.operationId ?? ''], ids });
      }
    }
  }
  const order = Object.keys(TAG_DESCRIPTIONS);
  const rank = (name: string) => (order.includes(name) ? order.indexOf(name) : order.length);
  doc.tags = [...used]
    .sort((a, b) => rank(a) - rank(b) || a.localeCompare(b))
    .map((name) => ({ name, description: TAG_DESCRIPTIONS[name] ?? `Operations on ${name.toLowerCase()}.` }));
  return document;
}

/**
 * What an answer's top-level `message` says, by operation: the route's own words (a schema such as
 * `{message}` serves several routes, each saying something else).
 */
export const ANSWER_MESSAGES: Record<string, string> = {
  login: 'Login successful.',
  magicLogin: 'Login successful.',
  passwordlessVerify: 'Login successful.',
  logout: 'Logged out.',
  requestMagicLink: 'If this address has an account, a login link is on its way.',
  getProfile: 'Authenticated user profile.',
  listDevices: 'Devices retrieved successfully.',
  registerDevice: 'Device registered successfully.',
  deactivateDevice: 'Device deactivated successfully.',
  getCallDetail: 'Call detail record retrieved.',
  placeCall: 'The call is being placed: your endpoints ring first, then the destination is dialled.',
  testAmiConnection: 'Connected and logged in to the PBX; the AMI user may do what the engine needs.',
};

/** The parts of a JSON Schema an example is built from. */
interface Schema {
  $ref?: string;
  type?: string | string[];
  examples?: unknown[];
  example?: unknown;
  const?: unknown;
  default?: unknown;
  enum?: unknown[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
}

/** A value, and whether an example, constant or default of the schemas gave it (rather than a bare `null`). */
interface Built {
  value: unknown;
  given: boolean;
}

/** Where an example is built: the document's schemas, the operation's URL on this server, its answer's message, and the ids the examples name. */
interface ExampleContext {
  schemas: Record<string, Schema>;
  url: string;
  message?: string;
  ids: Record<string, unknown>;
}

/** The first value of each `…_id` field in the schemas' examples (the demo PBX's id, an employee's …), to fill a list's path. */
function idsOf(schemas: Record<string, Schema>): Record<string, unknown> {
  const ids: Record<string, unknown> = {};
  for (const schema of Object.values(schemas)) {
    const example = schema.examples?.[0];
    if (example && typeof example === 'object')
      for (const [key, value] of Object.entries(example)) if (key.endsWith('_id') && typeof value === 'string') ids[key] ??= value;
  }
  return ids;
}

/**
 * Each JSON body of a success answer gets the example its schemas make: the resource's own example
 * (the `examples` of its schema with `$id`) inside the answer's envelope, `{data: …}` or a page of
 * the list with its links and meta as `paginate()` writes them. One source: the schemas.
 */
function addExample(response: Json, context: ExampleContext): void {
  for (const [type, media] of Object.entries((response.content as Record<string, Json & { schema?: Schema }> | undefined) ?? {})) {
    if (!type.includes('json') || !media.schema || media.example !== undefined || media.examples !== undefined) continue;
    const built = exampleOf(media.schema, context, true);
    if (built?.given) media.example = built.value;
  }
}

function exampleOf(schema: Schema, context: ExampleContext, top = false): Built | undefined {
  if (schema.$ref) {
    const target = context.schemas[schema.$ref.split('/').pop() ?? ''];
    return target ? exampleOf(target, context) : undefined;
  }
  if (Array.isArray(schema.examples) && schema.examples.length > 0) return { value: schema.examples[0], given: true };
  if (schema.example !== undefined) return { value: schema.example, given: true };
  if ('const' in schema) return { value: schema.const, given: true };
  if (schema.default !== undefined) return { value: schema.default, given: true };
  if (schema.enum?.length) return { value: schema.enum.find((value) => value !== null) ?? null, given: true };
  const variants = schema.anyOf ?? schema.oneOf;
  if (variants) {
    const built = variants.map((variant) => exampleOf(variant, context));
    return built.find((b) => b?.given) ?? built.find((b) => b !== undefined);
  }
  if (schema.allOf) {
    const parts = schema.allOf.map((part) => exampleOf(part, context));
    if (parts.some((part) => part === undefined)) return undefined;
    return { value: Object.assign({}, ...parts.map((part) => part!.value)) as unknown, given: parts.some((part) => part!.given) };
  }
  const types = [schema.type ?? []].flat();
  if (schema.properties) {
    const page = pageOf(schema, context);
    if (page) return page;
    const value: Json = {};
    let given = false;
    for (const [name, property] of Object.entries(schema.properties)) {
      const said = top && name === 'message' && context.message !== undefined ? { value: context.message, given: true } : undefined;
      const built = exampleOf(property, context) ?? said;
      const required = schema.required?.includes(name) ?? false;
      if (!built?.given && !required) continue;
      if (!built) return undefined;
      value[name] = built.value;
      given ||= built.given;
    }
    return { value, given };
  }
  if (types.includes('array')) {
    const item = schema.items ? exampleOf(schema.items, context) : undefined;
    return item && { value: [item.value], given: item.given };
  }
  if (types.includes('null')) return { value: null, given: false };
  return undefined;
}

/** A list's first page holding its item's example, the way `paginate()` writes it, with the path's ids taken from that item. */
function pageOf(schema: Schema, context: ExampleContext): Built | undefined {
  const { data, links, meta } = schema.properties ?? {};
  if (!data?.items || !links || !meta?.properties?.current_page) return undefined;
  const item = exampleOf(data.items, context);
  if (!item) return undefined;
  const fields = (item.value ?? {}) as Json;
  const path = context.url.replace(/\{(\w+)\}/g, (whole, name: string) => {
    const id = fields[name] ?? fields[`${name}_id`] ?? context.ids[name] ?? context.ids[`${name}_id`];
    return typeof id === 'string' || typeof id === 'number' ? String(id) : whole;
  });
  return { value: paginate([item.value], 1, { page: 1, perPage: DEFAULT_PAGE_SIZE, offset: 0 }, path, {}), given: item.given };
}

function describe(status: string, operation: Operation): string {
  if (ERROR_TEXT[status]) return ERROR_TEXT[status];
  const summary = operation.summary ? operation.summary.replace(/\.$/, '') : 'Success';
  if (status === '200') return `${summary}.`;
  return SUCCESS_TEXT[status] ? `${SUCCESS_TEXT[status]}: ${summary.charAt(0).toLowerCase()}${summary.slice(1)}.` : `${summary}.`;
}
