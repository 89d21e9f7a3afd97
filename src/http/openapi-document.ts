/**
 * The finishing pass over the generated OpenAPI document: what no single route states but every
 * answer has (the rate-limit and request-id headers, `Retry-After` on 429, `Content-Range` on 206),
 * a description for every response by its status (the generator says "Default Response"), the
 * tag list with what each tag holds, and the contact. One place, so no route can forget it.
 */

type Json = Record<string, unknown>;
interface Operation {
  summary?: string;
  tags?: string[];
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

/** What each tag groups, shown by the docs page above its operations. */
export const TAG_DESCRIPTIONS: Record<string, string> = {
  'Login and identity': 'Sign-in (password, magic link, one-time code), logout, and the caller’s own profile (`/me`, `/user`).',
  'Integration API keys': 'Keys the PBX’s administrators create for integrations, each limited to its scopes; created, revealed and revoked here.',
  Webhooks: 'Signed outbound events (Standard Webhooks): the delivery log and the PBX’s signing secret and its rotation.',
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
  Contacts: 'The address book: global and private contacts, favourites, and how calls from a contact are handled.',
  'Contact groups': 'Groups of contacts, with their default call flows.',
  'Contact imports': 'Spreadsheet imports (CSV, XLS, XLSX) of contacts: upload, map, confirm, follow.',
  'Call history': 'Call detail records: the list, one call’s detail, recordings, and the PBX server’s push of finished calls.',
  Calls: 'Placing a call (click to call) through the PBX.',
  'PBX engine': 'How the API talks to the PBX: the Asterisk AMI settings and their test.',
  'Sound files': 'Announcements and music on hold (WAV, MP3) used by IVRs, call flows and queues.',
  IVRs: 'Voice menus and their steps (a key to a call flow or another menu).',
  'Call flows': 'Typed graphs of nodes that route a call: ring, queue, menu, voicemail, play, forward, time conditions.',
  Queues: 'Call queues with their members, strategy, limits and overflow.',
  'Call routing': 'The routing graph’s validation and the route simulator.',
  'Configuration push': 'The PBX’s compiled configuration: dry runs, pushes, versions and rollback.',
  Workforce:
    'Companies, departments, employees, contracts, work shifts, holidays, required work time, absence and home-office requests, recurring balance transactions and shift schedules.',
  'Audit trail': 'Who did what in the PBX, newest first.',
};

const ref = (name: string) => ({ $ref: `#/components/headers/${name}` });

export function finishDocument<T extends Json>(document: T, contact: { name: string; url?: string; email?: string }): T {
  const doc = document as Json & { paths?: Record<string, Record<string, Operation>>; components?: Json; info?: Json; tags?: unknown };
  doc.components = { ...(doc.components ?? {}), headers: { ...RESPONSE_HEADERS } };
  doc.info = { ...(doc.info ?? {}), contact };
  const used = new Set<string>();
  for (const [path, methods] of Object.entries(doc.paths ?? {})) {
    for (const operation of Object.values(methods)) {
      if (typeof operation !== 'object' || !operation.responses) continue;
      for (const tag of operation.tags ?? []) used.add(tag);
      for (const [status, response] of Object.entries(operation.responses)) {
        const generic = response.description === undefined || response.description === 'Default Response' || response.description === 'Client error';
        if (generic) response.description = describe(status, operation);
        const headers: Record<string, unknown> = { ...((response.headers as Json | undefined) ?? {}) };
        for (const name of EVERY_ANSWER) headers[name] ??= ref(name);
        if (status === '429') headers['Retry-After'] ??= ref('Retry-After');
        if (status === '206') headers['Content-Range'] ??= ref('Content-Range');
        if (status === '200' && path === '/calls/new') headers['Idempotent-Replayed'] ??= ref('Idempotent-Replayed');
        response.headers = headers;
      }
    }
  }
  doc.tags = [...used].sort().map((name) => ({ name, description: TAG_DESCRIPTIONS[name] ?? `Operations on ${name.toLowerCase()}.` }));
  return document;
}

function describe(status: string, operation: Operation): string {
  if (ERROR_TEXT[status]) return ERROR_TEXT[status];
  const summary = operation.summary ? operation.summary.replace(/\.$/, '') : 'Success';
  if (status === '200') return `${summary}.`;
  return SUCCESS_TEXT[status] ? `${SUCCESS_TEXT[status]}: ${summary.charAt(0).toLowerCase()}${summary.slice(1)}.` : `${summary}.`;
}
