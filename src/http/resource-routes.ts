import type { FastifyContextConfig, FastifyInstance, FastifyReply, FastifyRequest, HTTPMethods } from 'fastify';
import type {} from '@fastify/websocket';
import { Type, type Static, type TObject, type TSchema } from '@sinclair/typebox';
import type { WebSocket } from 'ws';
import type { PageRequest, SortTerm } from '../db/paging.js';
import { principalOf } from '../platform/auth/auth-plugin.js';
import { requireUser, type Principal, type RouteAuth, type UserPrincipal } from '../platform/auth/principal.js';
import { tenantOf, type Tenant } from '../platform/tenancy.js';
import { idempotencyOf, idempotentRoute, type RouteIdempotency } from './idempotency.js';
import { parseInclude } from './include.js';
import { pageRequest, parseSort, type ListQueryOptions, type ListQuerySchema } from './list-query.js';
import { Paginated, paginate } from './pagination.js';
import { DataEnvelope } from './schema.js';
import { multipartForm, uploadValidatorCompiler } from './uploads.js';

/** What a resource's handler gets: the caller, its tenant, the validated input and the resource's scope. */
export interface ResourceCall<P = unknown, Q = unknown, B = unknown, S = undefined> {
  request: FastifyRequest;
  reply: FastifyReply;
  /** Read when asked, so a public route works without one (401 if its handler asks anyway). */
  readonly principal: Principal;
  /** The user behind a user token (401 for any other principal), for routes that act as a user. */
  readonly user: UserPrincipal;
  readonly tenant: Tenant;
  params: P;
  query: Q;
  body: B;
  /** What the resource resolves once per request (e.g. the address-book actor); undefined when it declares none. */
  scope: S;
}

/** An operation's text in the OpenAPI document. */
export interface OperationText {
  summary: string;
  description?: string;
}

/**
 * A routes file's OpenAPI text, kept beside it in `<resource>.docs.ts` and keyed by operation id,
 * so the routes file reads as a table of routes.
 */
export type OperationDocs = Record<string, OperationText>;

/** What every route documents: who may call it, and its OpenAPI operation (text from the docs table when not given here). */
interface RouteDoc {
  auth: RouteAuth;
  operationId: string;
  summary?: string;
  description?: string;
  /** The route refuses with 409 `InUseError` while something points at the resource. */
  refusedWhileUsed?: boolean;
  /** More of the route's `config` (e.g. `carriesSecret`, `answers`). */
  config?: Omit<FastifyContextConfig, 'auth'>;
  /** Takes `Idempotency-Key` (http/idempotency.ts); every POST answering 201 does unless `false`. */
  idempotent?: RouteIdempotency;
}

/** What routes of one file share: their tags, their docs table and the scope resolved once per request. */
export interface RouteGroup<S> {
  tags: string[];
  docs?: OperationDocs;
  /** Resolved once per request before the handler runs, and handed to it (and to a resource's `present`). */
  scope?: (call: ResourceCall) => S | Promise<S>;
}

/** The parts of a route Fastify validates and serializes with. */
interface RouteParts<P extends TSchema, Q extends TSchema, B extends TSchema> {
  params?: P;
  querystring?: Q;
  headers?: TSchema;
  body?: B;
  /** The body may be left out (read as `{}`), where the contract says so. */
  optionalBody?: boolean;
  /**
   * A multipart/form-data upload's parts, for the OpenAPI document only: the handler reads them as
   * they arrive (`uploadParts`), so Fastify checks the params, query and headers alone.
   */
  upload?: TObject;
  /** By status: a TypeBox schema, or a plain one (a `$ref` with its own description, a file's `content`). */
  response: Record<number, TSchema | Record<string, unknown>>;
}

type NoParams = TObject<Record<string, never>>;
type CallOf<P extends TSchema, Q extends TSchema, B extends TSchema, S> = ResourceCall<Static<P>, Static<Q>, Static<B>, S>;

export interface ResourceDefinition<Row, View, S> extends RouteGroup<S> {
  /** The item schema, with `$id`: registered once and referenced by every response. */
  schema: TSchema;
  /** Rows as the contract shows them to this caller; `include` holds the relations asked for. */
  present: (rows: Row[], context: { call: ResourceCall<unknown, unknown, unknown, S>; include: Set<string> }) => View[] | Promise<View[]>;
}

/** Relations a write's answer embeds (a read's come from its `include` parameter). */
interface Embeds {
  include?: readonly string[];
}

/**
 * The standard routes of a resource (list, read, create, update, delete, restore) from its schemas,
 * its service calls and its presenter, so a routes file reads like a table of its routes. Each
 * route keeps its own operation id, summary and errors in the OpenAPI document; routes that do not
 * fit (a different answer shape, a file upload) stay explicit beside it.
 */
export function resourceRoutes<Row, View, S = undefined>(app: FastifyInstance, baseUrl: string, definition: ResourceDefinition<Row, View, S>) {
  // A schema another resource of this plugin already registered (a contact's groups) is reused.
  if (!definition.schema.$id || !app.getSchema(definition.schema.$id)) app.addSchema(definition.schema);
  const item = Type.Ref(definition.schema);

  const register = <P extends TSchema = NoParams, Q extends TSchema = NoParams, B extends TSchema = NoParams>(
    method: HTTPMethods,
    url: string,
    doc: RouteDoc,
    parts: RouteParts<P, Q, B>,
    handle: (call: CallOf<P, Q, B, S>) => Promise<unknown>,
  ) => registerRoute(app, definition, method, url, doc, parts, handle);

  const present = async (rows: Row[], call: ResourceCall<unknown, unknown, unknown, S>, include: Iterable<string> = []) =>
    definition.present(rows, { call, include: new Set(include) });
  const presentOne = async (row: Row, call: ResourceCall<unknown, unknown, unknown, S>, include?: Iterable<string>) => (await present([row], call, include))[0];
  const includeOf = (query: unknown) => parseInclude((query as { include?: string } | undefined)?.include);

  /** A page of the resource: the paginated envelope, `search`, `sort`, page size, filters, `include`. */
  const list = <O extends ListQueryOptions, P extends TSchema = NoParams>(
    url: string,
    route: RouteDoc & {
      params?: P;
      querystring: ListQuerySchema<O>;
      defaultSort: SortTerm[];
      fetch: (call: CallOf<P, ListQuerySchema<O>, NoParams, S>, list: { sort: SortTerm[]; page: PageRequest }) => Promise<{ rows: Row[]; total: number }>;
    },
  ) => {
    register('GET', url, route, { params: route.params, querystring: route.querystring, response: { 200: Paginated(item) } }, async (call) => {
      const page = pageRequest(route.querystring, call.query);
      const { rows, total } = await route.fetch(call, { sort: parseSort((call.query as { sort?: string }).sort, route.defaultSort), page });
      const path = `${baseUrl}${url.replace(/:(\w+)/g, (_, name: string) => String((call.params as Record<string, unknown>)[name]))}`;
      return paginate(await present(rows, call, includeOf(call.query)), total, page, path, call.query);
    });
  };

  /** Every row at once as `{data: [...]}`, for small per-user collections. */
  const all = <P extends TSchema = NoParams, Q extends TSchema = NoParams>(
    url: string,
    route: RouteDoc & { params?: P; querystring?: Q; fetch: (call: CallOf<P, Q, NoParams, S>) => Promise<Row[]> },
  ) => {
    register('GET', url, route, { params: route.params, querystring: route.querystring, response: { 200: DataEnvelope(Type.Array(item)) } }, async (call) => ({
      data: await present(await route.fetch(call), call, includeOf(call.query)),
    }));
  };

  /** One row, as `{data}` or, where the contract says so, flat. */
  const read = <P extends TSchema = NoParams, Q extends TSchema = NoParams>(
    url: string,
    route: RouteDoc & { params?: P; querystring?: Q; envelope?: 'data' | 'flat'; load: (call: CallOf<P, Q, NoParams, S>) => Promise<Row> },
  ) => {
    const flat = route.envelope === 'flat';
    register('GET', url, route, { params: route.params, querystring: route.querystring, response: { 200: flat ? item : DataEnvelope(item) } }, async (call) => {
      const view = await presentOne(await route.load(call), call, includeOf(call.query));
      return flat ? view : { data: view };
    });
  };

  /**
   * Any route that answers one row as `{data}` (or, where the contract says so, flat): a create
   * (POST, 201), an update (PATCH or PUT), a restore, or an action on the row such as a favourite
   * or a confirmation.
   */
  const action = <P extends TSchema = NoParams, Q extends TSchema = NoParams, B extends TSchema = NoParams>(
    url: string,
    route: RouteDoc &
      Embeds & {
        method: 'POST' | 'PUT' | 'PATCH' | 'DELETE';
        status?: 200 | 201 | 202;
        envelope?: 'data' | 'flat';
        params?: P;
        querystring?: Q;
        body?: B;
        /** The body may be left out (read as `{}`), where the contract says so. */
        optionalBody?: boolean;
        run: (call: CallOf<P, Q, B, S>) => Promise<Row>;
      },
  ) => {
    const status = route.status ?? 200;
    const flat = route.envelope === 'flat';
    register(
      route.method,
      url,
      route,
      {
        params: route.params,
        querystring: route.querystring,
        body: route.body,
        optionalBody: route.optionalBody,
        response: { [status]: flat ? item : DataEnvelope(item) },
      },
      async (call) => {
        const row = await route.run(call);
        call.reply.code(status);
        const view = await presentOne(row, call, route.include);
        return flat ? view : { data: view };
      },
    );
  };

  /** POST, 201 `{data}` (or flat). */
  const create = <B extends TSchema, P extends TSchema = NoParams>(
    url: string,
    route: RouteDoc & Embeds & { params?: P; body: B; envelope?: 'data' | 'flat'; run: (call: CallOf<P, NoParams, B, S>) => Promise<Row> },
  ) => action(url, { ...route, method: 'POST', status: 201 });

  /** 200 `{data}` (or flat); PATCH changes the supplied fields, PUT replaces (as the service decides). */
  const update = <P extends TSchema, B extends TSchema>(
    url: string,
    route: RouteDoc &
      Embeds & {
        method?: 'PATCH' | 'PUT';
        params: P;
        body: B;
        envelope?: 'data' | 'flat';
        optionalBody?: boolean;
        run: (call: CallOf<P, NoParams, B, S>) => Promise<Row>;
      },
  ) => action(url, { ...route, method: route.method ?? 'PATCH' });

  /** 204, no content. */
  const remove = <P extends TSchema, Q extends TSchema = NoParams>(
    url: string,
    route: RouteDoc & { params: P; querystring?: Q; run: (call: CallOf<P, Q, NoParams, S>) => Promise<void> },
  ) => {
    register('DELETE', url, route, { params: route.params, querystring: route.querystring, response: { 204: Type.Null() } }, async (call) => {
      await route.run(call);
      return call.reply.code(204).send(null);
    });
  };

  /** `POST …/restore` of a soft-deleted row: 200 `{data}` (or flat). */
  const restore = <P extends TSchema>(
    url: string,
    route: RouteDoc & Embeds & { params: P; envelope?: 'data' | 'flat'; run: (call: CallOf<P, NoParams, NoParams, S>) => Promise<Row> },
  ) => action(url, { ...route, method: 'POST' });

  return { list, all, read, action, create, update, delete: remove, restore, route: customRoute(app, definition) };
}

/**
 * Routes of a file that answer no resource item (a dry run, a week grid, a file, a bulk answer):
 * the same auth, docs table, scope and typed call as `resourceRoutes`, with the answer's schemas
 * stated by the route.
 */
export function operationRoutes<S = undefined>(app: FastifyInstance, group: RouteGroup<S>) {
  return { route: customRoute(app, group) };
}

/** One route with its own answers: the handler returns the body (or sends through `call.reply`). */
function customRoute<S>(app: FastifyInstance, group: RouteGroup<S>) {
  return <P extends TSchema = NoParams, Q extends TSchema = NoParams, B extends TSchema = NoParams>(
    url: string,
    route: RouteDoc &
      RouteParts<P, Q, B> & {
        method: HTTPMethods;
        handle: (call: CallOf<P, Q, B, S>) => unknown;
        /**
         * A WebSocket endpoint (a GET in a plugin that registered @fastify/websocket): an upgrade
         * request, its auth and input checked as any request's, is prepared by `websocket`, which
         * may still refuse it with an HTTP answer (it throws as a handler would); the function it
         * returns then serves the upgraded socket. A request that asks no upgrade gets `handle`'s answer.
         */
        websocket?: (call: CallOf<P, Q, B, S>) => Promise<(socket: WebSocket) => void>;
      },
  ) => registerRoute(app, group, route.method, url, route, route, route.handle, route.websocket);
}

function registerRoute<P extends TSchema, Q extends TSchema, B extends TSchema, S>(
  app: FastifyInstance,
  group: RouteGroup<S>,
  method: HTTPMethods,
  url: string,
  doc: RouteDoc,
  parts: RouteParts<P, Q, B>,
  handle: (call: CallOf<P, Q, B, S>) => unknown,
  websocket?: (call: CallOf<P, Q, B, S>) => Promise<(socket: WebSocket) => void>,
): void {
  const text = operationText(doc, group.docs);
  const idempotency = idempotencyOf(method, doc.auth, parts.response, doc.idempotent);
  // What each upgrade request's preparation returned, for @fastify/websocket's handler (which gets no reply).
  const sockets = new WeakMap<FastifyRequest, (socket: WebSocket) => void>();
  // Without a scope the call is built at once, so a handler that answers from memory (a cached
  // /me) sends within its request's tick, as a plain Fastify handler would.
  const handler = group.scope
    ? async (request: FastifyRequest, reply: FastifyReply) => handle(await callOf<P, Q, B, S>(request, reply, group.scope))
    : (request: FastifyRequest, reply: FastifyReply) => handle(new Call(request, reply, undefined) as unknown as CallOf<P, Q, B, S>);
  app.route({
    method,
    url,
    config: { ...doc.config, auth: doc.auth },
    ...(websocket
      ? {
          preHandler: async (request: FastifyRequest, reply: FastifyReply) => {
            if (request.ws) sockets.set(request, await websocket(await callOf<P, Q, B, S>(request, reply, group.scope)));
          },
          wsHandler: (socket: WebSocket, request: FastifyRequest) => {
            const serve = sockets.get(request);
            if (serve) serve(socket);
            else socket.terminate();
          },
        }
      : {}),
    ...(parts.upload ? { validatorCompiler: uploadValidatorCompiler(app) } : {}),
    // A body the contract calls optional may be left out: it reads as `{}`.
    ...(parts.optionalBody
      ? {
          preValidation: (request: FastifyRequest, _reply: FastifyReply, done: () => void) => {
            (request as { body?: unknown }).body ??= {};
            done();
          },
        }
      : {}),
    schema: {
      tags: group.tags,
      operationId: doc.operationId,
      summary: text.summary,
      ...(text.description ? { description: text.description } : {}),
      ...(parts.params ? { params: parts.params } : {}),
      ...(parts.querystring ? { querystring: parts.querystring } : {}),
      ...(parts.headers ? { headers: parts.headers } : {}),
      ...(parts.body ? { body: parts.body } : {}),
      ...(parts.upload ? { body: multipartForm(parts.upload) } : {}),
      // A copy: the route's documentation adds its error answers to it (route-docs.ts), and the answers a
      // file shares between routes (a push's and a rollback's) must not carry one route's 404 into the next.
      response: { ...parts.response, ...(doc.refusedWhileUsed ? { 409: Type.Unsafe({ $ref: 'InUseError#' }) } : {}) },
      ...(idempotency ? { 'x-idempotent': true } : {}),
    },
    ...(idempotency ? idempotentRoute(idempotency, parts.upload !== undefined, app, handler) : { handler }),
  });
}

/** The route's own text, or its entry in the file's docs table; a route without either stops the start. */
function operationText(doc: RouteDoc, docs: OperationDocs | undefined): OperationText {
  if (doc.summary) return { summary: doc.summary, description: doc.description };
  const entry = docs?.[doc.operationId];
  if (!entry) throw new Error(`Route ${doc.operationId} has no summary: add it to the routes file's docs table.`);
  return entry;
}

/**
 * A handler's call. The caller is read when asked, so public routes (no principal) and routes that
 * take API keys (no user) fail only where they read what they lack. The accessors live on the
 * class rather than on each call: getters on an object literal made every request's call slow to
 * build (a cached /me measured 0.35x the bare server against 0.46x this way).
 */
class Call<S> {
  readonly params: unknown;
  readonly query: unknown;
  readonly body: unknown;
  constructor(
    readonly request: FastifyRequest,
    readonly reply: FastifyReply,
    public scope: S,
  ) {
    this.params = request.params;
    this.query = request.query;
    this.body = request.body;
  }
  get principal(): Principal {
    return principalOf(this.request);
  }
  get user(): UserPrincipal {
    return requireUser(principalOf(this.request));
  }
  get tenant(): Tenant {
    return tenantOf(principalOf(this.request));
  }
}

async function callOf<P extends TSchema, Q extends TSchema, B extends TSchema, S>(
  request: FastifyRequest,
  reply: FastifyReply,
  scope: RouteGroup<S>['scope'],
): Promise<CallOf<P, Q, B, S>> {
  const call = new Call<unknown>(request, reply, undefined);
  if (scope) call.scope = await scope(call as unknown as ResourceCall);
  // Fastify has validated params, query and body against the very schemas this route was registered with.
  return call as unknown as CallOf<P, Q, B, S>;
}
