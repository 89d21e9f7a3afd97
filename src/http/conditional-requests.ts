import { hash, randomBytes, randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions, onSendHookHandler } from 'fastify';
import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.js';
import type { Clock } from '../platform/clock.js';
import { ClientError } from '../platform/errors.js';
import { acquireLease, releaseLease } from '../platform/leases.js';

/**
 * Conditional requests (RFC 9110 §13): no lost updates.
 *
 * - Every JSON read of the API answers a strong `ETag`, a digest of the representation it sends (so
 *   it changes whenever a byte of the answer does, for this caller); a file's read keeps the ETag
 *   its route sets (the content's SHA-256). `If-None-Match` with a current tag answers 304.
 * - A PATCH, PUT or DELETE with `If-Match` is compared with the ETag the same caller's read of the
 *   resource answers now: the GET at the same path, or, for an action on a resource
 *   (`/contacts/{contact}/block`), the GET of the resource it acts on. A stale tag answers 412 with
 *   the current `ETag` and changes nothing. The read, the comparison and the change run under one
 *   lease per resource (in the database, so every instance agrees): of two clients sending the same
 *   tag, exactly one changes the resource and the other gets 412. Writes without `If-Match` are not
 *   held back (they asked for no precondition). A write whose resource the caller cannot read
 *   (404, 403) answers as it would without the header (§13.2.1).
 */

/** Marks this process's own reads of a resource (the current ETag of a conditional write), which the rate limit does not count. */
export const INTERNAL_READ_HEADER = 'x-pbx-api-precondition-read';
const INTERNAL_READ_TOKEN = randomBytes(24).toString('base64url');

/** True for a request this module made to read a resource's current ETag (not a client's). */
export function isInternalRead(request: FastifyRequest): boolean {
  return request.headers[INTERNAL_READ_HEADER] === INTERNAL_READ_TOKEN;
}

/** How long one conditional change may hold its resource's lease before another instance may take it. */
const LEASE_SECONDS = 30;
/** How long a conditional write waits for another one of the same resource to finish. */
const WAIT_MS = 10_000;

/** Request headers the internal read does not copy: they describe the write's body or condition, not the caller. */
const NOT_COPIED = new Set([
  'content-type',
  'content-length',
  'transfer-encoding',
  'if-match',
  'if-none-match',
  'if-modified-since',
  'if-unmodified-since',
  'if-range',
  'range',
  'expect',
  'idempotency-key',
  'connection',
]);

const WRITES = new Set(['PATCH', 'PUT', 'DELETE']);

/**
 * State a read leaves out of its answer but a write changes (a WebRTC account's sealed password),
 * by reply: the ETag digests it with the bytes, so If-Match sees such a change too.
 */
const hiddenStates = new WeakMap<FastifyReply, string>();

/** Makes the read's ETag change with `state` as well as with its bytes (state a write changes but the answer leaves out). */
export function tagHiddenState(reply: FastifyReply, state: string): void {
  hiddenStates.set(reply, state);
}

/** The tags of bodies sent again as they are (a cached `/me` is one Buffer, sent to every request of its user). */
const tagsOfBuffers = new WeakMap<Buffer, string>();

/** A strong entity tag of a representation: the digest of its bytes, worked out once per cached body. */
export function entityTagOf(payload: string | Buffer): string {
  if (typeof payload === 'string') return `"${hash('sha1', payload, 'base64url')}"`;
  let etag = tagsOfBuffers.get(payload);
  if (etag === undefined) {
    etag = `"${hash('sha1', payload, 'base64url')}"`;
    tagsOfBuffers.set(payload, etag);
  }
  return etag;
}

/** The entity tags of an `If-Match` / `If-None-Match` value (`*` alone stands for any). */
function tagsOf(header: string): string[] {
  return header
    .split(',')
    .map((tag) => tag.trim())
    .filter((tag) => tag.length > 0);
}

/** If-None-Match uses the weak comparison: `W/"x"` and `"x"` are the same. */
function noneMatchHolds(header: string, etag: string): boolean {
  const bare = (tag: string) => (tag.startsWith('W/') ? tag.slice(2) : tag);
  return tagsOf(header).some((tag) => tag === '*' || bare(tag) === bare(etag));
}

/** If-Match uses the strong comparison: a weak tag never matches. */
function matchHolds(header: string, etag: string): boolean {
  return tagsOf(header).some((tag) => tag === '*' || (!tag.startsWith('W/') && tag === etag));
}

/**
 * The read whose ETag a write to `writeTemplate` is compared with, among the API's read routes
 * (`/users/:user`, or the `{user}` form of the OpenAPI document): the GET at the same path, else the
 * GET of the resource an action path ends on (`…/block`, `…/mappings`). Null: the write has none.
 */
export function readTemplateOf(writeTemplate: string, reads: ReadonlySet<string>): string | null {
  if (reads.has(writeTemplate)) return writeTemplate;
  const cut = writeTemplate.lastIndexOf('/');
  const last = writeTemplate.slice(cut + 1);
  const parent = writeTemplate.slice(0, cut);
  const isParameter = last.startsWith(':') || last.startsWith('{');
  return !isParameter && parent.length > 0 && reads.has(parent) ? parent : null;
}

/** Adds `hook` to a route's hooks of one kind, once (Fastify copies a GET's first hooks onto its HEAD route). */
function withHook(existing: unknown, hook: unknown, first = false): unknown[] {
  const hooks: unknown[] = existing === undefined ? [] : Array.isArray(existing) ? existing : [existing];
  if (hooks.includes(hook)) return hooks;
  return first ? [hook, ...hooks] : [...hooks, hook];
}

/**
 * The ETag of a successful read, and 304 for an `If-None-Match` that holds. An answer that already
 * carries an ETag (a file's checksum) keeps it; a streamed answer without one gets none.
 */
const tagRepresentation: onSendHookHandler = (request, reply, payload, done) => {
  const status = reply.statusCode;
  if (status !== 200 && status !== 206) return done(null, payload);
  let etag = reply.getHeader('etag') as string | undefined;
  if (etag === undefined) {
    if (status !== 200 || (typeof payload !== 'string' && !Buffer.isBuffer(payload))) return done(null, payload);
    const hidden = hiddenStates.get(reply);
    etag = hidden === undefined ? entityTagOf(payload) : entityTagOf(`${payload.toString()}\u0000${hidden}`);
    reply.header('etag', etag);
  }
  const condition = request.headers['if-none-match'];
  if (condition === undefined || !noneMatchHolds(condition, etag)) return done(null, payload);
  // The client's copy is current: no body, and none of the body's own headers.
  if (payload && typeof (payload as { destroy?: unknown }).destroy === 'function') (payload as { destroy: () => void }).destroy();
  reply.code(304);
  reply.removeHeader('content-type');
  reply.removeHeader('content-length');
  reply.removeHeader('content-range');
  reply.removeHeader('content-disposition');
  done(null, '');
};

export interface ConditionalRequestOptions {
  apiPrefix: string;
  db: Kysely<DB>;
  clock: Clock;
}

/**
 * Gives every API read its ETag and 304, and every write with a read its `If-Match` check. Must be
 * registered before the routes (it hooks them as they are added).
 */
export function registerConditionalRequests(app: FastifyInstance, options: ConditionalRequestOptions): void {
  const reads = new Set<string>();
  const readOfWrite = new Map<string, string | null>();

  app.addHook('onRoute', (route: RouteOptions) => {
    const schema = route.schema;
    // Pages and documents outside the API's operations, and WebSocket endpoints, answer no resource's representation.
    if (!route.url.startsWith(options.apiPrefix) || !schema?.operationId || schema.hide || route.wsHandler) return;
    const methods = [route.method].flat();
    if (methods.includes('GET') || methods.includes('HEAD')) {
      reads.add(route.url);
      // First: a HEAD route's own last hook drops the body this one digests.
      route.onSend = withHook(route.onSend, tagRepresentation, true) as RouteOptions['onSend'];
    }
    if (methods.some((method) => WRITES.has(method))) {
      route.preHandler = withHook(route.preHandler, checkPrecondition) as RouteOptions['preHandler'];
    }
  });

  /** The current ETag of the resource at `path`, as the caller's own read answers it; null when that read is no 200. */
  const currentTag = async (request: FastifyRequest, path: string): Promise<string | null> => {
    const headers: Record<string, string> = { [INTERNAL_READ_HEADER]: INTERNAL_READ_TOKEN };
    for (const [name, value] of Object.entries(request.headers)) {
      if (!NOT_COPIED.has(name) && typeof value === 'string') headers[name] = value;
    }
    headers['x-request-id'] = request.id;
    const answer = await app.inject({ method: 'HEAD', url: path, headers });
    if (answer.statusCode !== 200) return null;
    const etag = answer.headers.etag;
    return typeof etag === 'string' ? etag : null;
  };

  /** Holds the resource's lease until the answer is sent (or the client goes away). */
  const lockResource = async (request: FastifyRequest, reply: FastifyReply, name: string): Promise<void> => {
    const holder = randomUUID();
    const giveUpAt = Date.now() + WAIT_MS;
    const until = () => new Date(options.clock.nowMs() + LEASE_SECONDS * 1000).toISOString();
    while (!(await acquireLease(options.db, name, holder, options.clock.now().toISOString(), until()))) {
      if (Date.now() > giveUpAt) throw new ClientError(409, 'Another conditional change of this resource is still running; retry shortly.');
      await sleep(15);
    }
    reply.raw.once('close', () => {
      releaseLease(options.db, name, holder).catch((error: unknown) => request.log.warn({ err: error }, 'could not release a conditional write lease'));
    });
  };

  async function checkPrecondition(this: unknown, request: FastifyRequest, reply: FastifyReply): Promise<void> {
    const condition = request.headers['if-match'];
    if (condition === undefined) return;
    const template = request.routeOptions.url ?? '';
    let readTemplate = readOfWrite.get(template);
    if (readTemplate === undefined) {
      readTemplate = readTemplateOf(template, reads);
      readOfWrite.set(template, readTemplate);
    }
    if (readTemplate === null) return;
    const path = request.url.split('?')[0];
    const readPath = readTemplate === template ? path : path.slice(0, path.lastIndexOf('/'));
    const tenant = request.principal?.pbxId ?? 'operator';
    await lockResource(request, reply, `if-match:${tenant}:${readPath}`);
    const etag = await currentTag(request, readPath);
    if (etag === null || matchHolds(condition, etag)) return;
    reply.header('etag', etag);
    throw new ClientError(
      412,
      'The resource has changed since the ETag sent in If-Match (or it has none): nothing was changed. Read it again and retry with its current ETag.',
    );
  }
}

type Json = Record<string, unknown>;
interface DocumentOperation {
  parameters?: Json[];
  responses?: Record<string, Json>;
}

const ETAG_HEADER = {
  description:
    'A strong validator of this answer: send it back in `If-None-Match` (304 while it is current) or in `If-Match` to change the resource only if nobody else did.',
  schema: { type: 'string' },
};

const IF_NONE_MATCH = {
  name: 'If-None-Match',
  in: 'header',
  required: false,
  description: 'ETags of copies the client holds: 304 without a body when the current one is among them (`*` for any).',
  schema: { type: 'string' },
};

const IF_MATCH = {
  name: 'If-Match',
  in: 'header',
  required: false,
  description:
    'Change only if the resource is still as the client read it: the ETag of its read (the GET of this path or of the resource this action is on, without query parameters). A stale tag answers 412 and changes nothing; `*` asks only that the resource exists.',
  schema: { type: 'string' },
};

/** Whether an answer is a representation a client may cache and revalidate (not an event stream or an upgrade). */
function isRepresentation(response: Json | undefined): boolean {
  const content = response?.content as Record<string, unknown> | undefined;
  return content !== undefined && !('text/event-stream' in content);
}

/**
 * The OpenAPI side of the same rules: each read's ETag, If-None-Match and 304; each write with a
 * read its If-Match and 412.
 */
export function documentConditionalRequests<T extends Json>(document: T): T {
  const doc = document as Json & { paths?: Record<string, Record<string, DocumentOperation>>; components?: Json };
  const paths = doc.paths ?? {};
  const reads = new Set(Object.entries(paths).flatMap(([path, methods]) => (isRepresentation(methods.get?.responses?.['200']) ? [path] : [])));
  doc.components = { ...(doc.components ?? {}), headers: { ...(doc.components?.headers ?? {}), ETag: ETAG_HEADER } };
  const etagRef = { $ref: '#/components/headers/ETag' };
  for (const [path, methods] of Object.entries(paths)) {
    for (const [method, operation] of Object.entries(methods)) {
      const responses = operation.responses;
      if (!responses) continue;
      if (method === 'get' && reads.has(path)) {
        operation.parameters = [...(operation.parameters ?? []), IF_NONE_MATCH];
        for (const status of ['200', '206']) {
          if (responses[status]) responses[status].headers = { ...(responses[status].headers ?? {}), ETag: etagRef };
        }
        responses['304'] = { description: 'Not modified: the copy named in If-None-Match is current; no body.', headers: { ETag: etagRef } };
      }
      if (WRITES.has(method.toUpperCase()) && readTemplateOf(path, reads) !== null) {
        operation.parameters = [...(operation.parameters ?? []), IF_MATCH];
        responses['412'] = {
          description: 'If-Match named no current ETag of the resource: nothing was changed; `ETag` is the current one (`{message}`).',
          headers: { ETag: etagRef },
          content: { 'application/json': { schema: { $ref: '#/components/schemas/MessageError' } } },
        };
      }
    }
  }
  return document;
}
