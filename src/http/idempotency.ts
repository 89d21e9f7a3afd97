/**
 * Safe retries (the IETF httpapi draft's `Idempotency-Key`), one implementation for every route
 * that takes it: `registerRoute` wraps the handler of each creating POST (and of the routes that
 * opt in) with `idempotentRoute`. A request with a key claims it in the database
 * (platform/idempotency) before the handler runs; its answer is stored when it is sent (onSend),
 * and a retry with the same key and the same request gets that answer again (status, body,
 * Content-Type, Location, and `Idempotent-Replayed: true`) without running anything. An upload's
 * key is claimed once its parts are read (`uploadDigestOf`, called by http/uploads.ts), so a
 * retry is compared part by part before it replays. Without the header a request costs one
 * property read.
 */
import { createHash, type Hash } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest, HTTPMethods, onSendHookHandler } from 'fastify';
import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.js';
import { principalOf } from '../platform/auth/auth-plugin.js';
import type { RouteAuth } from '../platform/auth/principal.js';
import type { Clock } from '../platform/clock.js';
import type { SecretBox } from '../platform/crypto.js';
import { ValidationFailed } from '../platform/errors.js';
import {
  canonicalJson,
  claimKey,
  completeKey,
  principalKey,
  releaseKey,
  requestFingerprint,
  type IdempotencyClaim,
  type StoredAnswer,
} from '../platform/idempotency/idempotency.js';

/** How a route takes `Idempotency-Key`. */
export interface IdempotencyOptions {
  /**
   * Which answers are stored and replayed; any other frees the key, so the retry runs anew.
   * Default: 2xx. A 4xx changed nothing (its transaction rolled back), a 5xx is the server's
   * failure: in both the client may fix and retry with the same key. `POST /calls/new` keeps its
   * 504 too (the PBX did not answer in time: the call may have been placed).
   */
  keep?: (status: number) => boolean;
}

/** A route's `idempotent`: `true`, `false`, or how. */
export type RouteIdempotency = boolean | IdempotencyOptions;

/** What an idempotent route's handler and hooks need. */
interface Stores {
  db: Kysely<DB>;
  clock: Clock;
  /** Seals the stored answers of routes that carry a secret (`config.carriesSecret`). */
  secrets: Pick<SecretBox, 'seal' | 'open'>;
}

type Handler = (request: FastifyRequest, reply: FastifyReply) => unknown;

const isSuccess = (status: number) => status >= 200 && status < 300;

/**
 * Whether a route takes `Idempotency-Key`: as it says, else every POST answering 201 (a create)
 * that needs credentials. Public routes (sign-ins) have no caller to keep keys for.
 */
export function idempotencyOf(
  method: HTTPMethods | HTTPMethods[],
  auth: RouteAuth,
  response: Record<number, unknown>,
  declared: RouteIdempotency | undefined,
): IdempotencyOptions | null {
  const wanted = declared ?? (method === 'POST' && 201 in response);
  if (!wanted) return null;
  if (auth.public) throw new Error('A public route cannot take Idempotency-Key: there is no caller to keep the keys of.');
  return wanted === true ? {} : wanted;
}

/** What the handler and the onSend hook know of a request sent with a key. */
interface KeyState {
  stores: Stores;
  keep: (status: number) => boolean;
  /** The claim this request holds (its answer is stored or the key freed when it is sent). */
  claim: IdempotencyClaim | null;
  /** An upload's key, claimed when its parts are read. */
  upload: { base: Omit<IdempotencyClaim, 'fingerprint'>; request: FastifyRequest } | null;
}

const STATE = Symbol('idempotency');
type KeyedRequest = FastifyRequest & { [STATE]?: KeyState };

/** Thrown when an upload's parts match a stored answer: the handler stops, the answer is replayed. */
class Replay extends Error {
  constructor(readonly answer: StoredAnswer) {
    super('idempotent replay');
  }
}

/** The route's handler and onSend hook, keyed by `Idempotency-Key`. */
export function idempotentRoute(
  options: IdempotencyOptions,
  upload: boolean,
  app: FastifyInstance,
  handler: Handler,
): { handler: Handler; onSend: onSendHookHandler } {
  const keep = options.keep ?? isSuccess;
  return {
    handler: (request, reply) => {
      const key = request.headers['idempotency-key'];
      return key === undefined ? handler(request, reply) : withKey(request, reply, checkedKey(key), { keep, upload, stores: storesOf(app) }, handler);
    },
    onSend: settle,
  };
}

/** The app's database and clock (`app.ctx`, decorated by buildApp). */
function storesOf(app: FastifyInstance): Stores {
  const { ctx } = app as FastifyInstance & { ctx?: Stores };
  if (!ctx) throw new Error('Idempotency-Key needs the app context (buildApp decorates it).');
  return ctx;
}

const KEY = /^[\x21-\x7E]{1,255}$/;

function checkedKey(value: string | string[]): string {
  if (typeof value === 'string' && KEY.test(value)) return value;
  throw ValidationFailed.field('Idempotency-Key', 'The Idempotency-Key must be 1 to 255 visible ASCII characters (a UUID will do).');
}

async function withKey(
  request: KeyedRequest,
  reply: FastifyReply,
  key: string,
  how: { keep: (status: number) => boolean; upload: boolean; stores: Stores },
  handler: Handler,
): Promise<unknown> {
  const base = { ...principalKey(principalOf(request)), key };
  const state: KeyState = { stores: how.stores, keep: how.keep, claim: null, upload: null };
  request[STATE] = state;
  if (how.upload) {
    state.upload = { base, request };
    try {
      return await handler(request, reply);
    } catch (error) {
      if (error instanceof Replay) return replay(reply, error.answer, how.stores);
      throw error;
    }
  }
  const claim = { ...base, fingerprint: requestFingerprint(request.method, request.routeOptions.url ?? request.url, request) };
  const outcome = await claimKey(how.stores.db, how.stores.clock, claim);
  if (outcome.kind === 'replay') return replay(reply, outcome.answer, how.stores);
  state.claim = claim;
  return handler(request, reply);
}

function replay(reply: FastifyReply, answer: StoredAnswer, stores: Stores): FastifyReply {
  reply.code(answer.status).header('idempotent-replayed', 'true');
  if (answer.location !== null) reply.header('location', answer.location);
  if (answer.contentType !== null) reply.header('content-type', answer.contentType);
  return reply.send(answer.sealed ? stores.secrets.open(answer.body) : answer.body);
}

/** onSend: the claimed request's answer is stored for replay, or its key freed. */
const settle: onSendHookHandler = (request, reply, payload, done) => {
  const state = (request as KeyedRequest)[STATE];
  const claim = state?.claim;
  if (!state || !claim) return done(null, payload);
  state.claim = null;
  const body =
    typeof payload === 'string' ? payload : payload === null || payload === undefined ? '' : Buffer.isBuffer(payload) ? payload.toString('utf8') : null;
  const { db, secrets } = state.stores;
  // An answer that carries a secret (a new API key, a SIP password) is kept sealed, as the secret itself is.
  const sealed = request.routeOptions.config.carriesSecret === true;
  const stored =
    body !== null && state.keep(reply.statusCode)
      ? completeKey(db, claim, {
          status: reply.statusCode,
          body: sealed ? secrets.seal(body) : body,
          sealed,
          contentType: headerText(reply, 'content-type'),
          location: headerText(reply, 'location'),
        })
      : releaseKey(db, claim);
  stored.then(
    () => done(null, payload),
    (error: unknown) => {
      // The answer stands; a key left claimed answers 409 to retries until it expires.
      request.log.error({ err: error }, 'idempotency key not settled');
      done(null, payload);
    },
  );
};

function headerText(reply: FastifyReply, name: string): string | null {
  const value = reply.getHeader(name);
  return value === undefined ? null : String(value);
}

/**
 * The digest of an upload sent with a key, fed by http/uploads.ts as it reads the parts: each
 * field's name and text, each file's name and a sha256 of its bytes as the reader takes them.
 * `finish` claims the key when the parts are read, before the service writes anything: a retry
 * whose parts match gets the stored answer, other parts 422, while the first is running 409.
 * Null (nothing to do) for a request without a key.
 */
export function uploadDigestOf(request: FastifyRequest): UploadDigest | null {
  const upload = (request as KeyedRequest)[STATE]?.upload;
  return upload ? new UploadDigest((request as KeyedRequest)[STATE]!, upload.base, upload.request) : null;
}

export class UploadDigest {
  private readonly parts: Array<{ field: string; value?: string; filename?: string; hash?: Hash }> = [];
  constructor(
    private readonly state: KeyState,
    private readonly base: Omit<IdempotencyClaim, 'fingerprint'>,
    private readonly request: FastifyRequest,
  ) {}

  field(name: string, value: string): void {
    this.parts.push({ field: name, value });
  }

  /**
   * Hashes a file part's bytes as its reader takes them: paused first, so the listener does not
   * start the flow; whoever reads the part (a pipe, `resume`, `read`) emits each chunk to it too.
   */
  file(name: string, filename: string, stream: Readable): void {
    const hash = createHash('sha256');
    stream.pause();
    stream.on('data', (chunk: Buffer) => hash.update(chunk));
    this.parts.push({ field: name, filename, hash });
  }

  async finish(): Promise<void> {
    const parts = this.parts.map((part) => (part.hash ? { field: part.field, filename: part.filename, sha256: part.hash.digest('hex') } : part));
    const body = createHash('sha256').update(canonicalJson(parts)).digest('hex');
    const { request } = this;
    const claim = {
      ...this.base,
      fingerprint: requestFingerprint(request.method, request.routeOptions.url ?? request.url, {
        params: request.params,
        query: request.query,
        body: { parts: body },
      }),
    };
    const outcome = await claimKey(this.state.stores.db, this.state.stores.clock, claim);
    if (outcome.kind === 'replay') throw new Replay(outcome.answer);
    this.state.claim = claim;
  }
}

type Json = Record<string, unknown>;

/** The shared `Idempotency-Key` parameter of the OpenAPI document. */
export const IDEMPOTENCY_KEY_PARAMETER = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  description:
    'Makes a retry safe (IETF httpapi draft): within 24 hours a request with the same key and the same method, path, parameters and body gets the first answer again (header `Idempotent-Replayed: true`) and changes nothing; the same key with another request is 422, and 409 while the first is still running. Keys are the caller’s own (its user, or its API key). Only successful answers are kept: after an error the key is free for the corrected retry.',
  schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x21-\\x7E]+$' },
  example: '8e03978e-40d5-43e8-bc93-6894a57f9324',
} as const;

const STILL_RUNNING_ANSWER = {
  description: 'A request with the same Idempotency-Key is still running (`{message}`): retry shortly.',
  content: { 'application/json': { schema: { $ref: '#/components/schemas/MessageError' } } },
};

/**
 * The OpenAPI side, run once by openapi-document.ts before its pass over the answers: each
 * operation `registerRoute` marked `x-idempotent` gets the shared `Idempotency-Key` parameter
 * (unless it declares the header itself, as `POST /calls/new` does), and a 409 and a 422 unless
 * it has them.
 * The marker is removed; the operations are answered, for the pass to add `Idempotent-Replayed`
 * to their success answers.
 */
export function documentIdempotency(document: { paths?: Record<string, Record<string, object>>; components?: object }): Set<object> {
  const marked = new Set<object>();
  for (const methods of Object.values(document.paths ?? {})) {
    for (const operation of Object.values(methods) as Json[]) {
      if (typeof operation !== 'object' || !operation['x-idempotent']) continue;
      delete operation['x-idempotent'];
      marked.add(operation);
      const parameters = (operation.parameters ??= []) as Json[];
      if (!parameters.some((parameter) => parameter.in === 'header' && String(parameter.name).toLowerCase() === 'idempotency-key'))
        parameters.push({ $ref: '#/components/parameters/IdempotencyKey' });
      const responses = (operation.responses ??= {}) as Record<string, Json>;
      responses['409'] ??= structuredClone(STILL_RUNNING_ANSWER);
      // A key that is no key (too long, not visible ASCII), or used with another request.
      responses['422'] ??= { content: { 'application/json': { schema: { $ref: '#/components/schemas/ValidationError' } } } };
    }
  }
  if (marked.size > 0) document.components = { ...(document.components ?? {}), parameters: { IdempotencyKey: IDEMPOTENCY_KEY_PARAMETER } };
  return marked;
}
