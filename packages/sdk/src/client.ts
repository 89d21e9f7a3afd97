/**
 * PbxApi: openapi-fetch's client over the generated types, with what every caller of pbx-api needs
 * around it: the token, typed errors instead of `{error}` results, 429 retried after `Retry-After`,
 * an Idempotency-Key on every create, `If-Match` on changes, pages and cursors as async iterators,
 * multipart uploads from Blobs and ranged downloads.
 */
import createClient, { type Client, type ClientPathsWithMethod, type FetchResponse, type MaybeOptionalInit, type Middleware } from 'openapi-fetch';
import { apiError, retryAfterMs } from './errors.js';
import type { paths } from './generated/api.js';
import { KEYED_POSTS } from './generated/operations.js';

export type { paths, components, operations } from './generated/api.js';

type Method = 'get' | 'put' | 'post' | 'delete' | 'patch';
type Media = `${string}/${string}`;
/** The paths that answer a method: `PathsFor<'patch'>` is every path with a PATCH. */
export type PathsFor<M extends Method> = ClientPathsWithMethod<Client<paths>, M>;
type Init<P extends PathsFor<M>, M extends Method> = MaybeOptionalInit<paths[P], M>;

/** What the SDK adds to openapi-fetch's options of a call. */
export interface CallOptions {
  /** Sent as `If-Match`: the change applies only while the resource still has this ETag (412 otherwise). */
  ifMatch?: string;
  /** Sent as `Idempotency-Key` instead of the key the client makes for a create (to retry a create yourself). */
  idempotencyKey?: string;
}

type Args<I, Extra = CallOptions> = undefined extends I ? [init?: I & Extra] : [init: I & Extra];
/** The success body of a call (undefined for a 204). */
export type Data<P extends PathsFor<M>, M extends Method, I = object> =
  NonNullable<paths[P][M]> extends infer Operation extends Record<string | number, unknown> ? FetchResponse<Operation, I, Media>['data'] : never;

export interface PbxApiOptions {
  /** The API's root, ending in `/api/v1` (the first `servers` entry of the OpenAPI document). */
  baseUrl: string;
  /** A user token (`pbxu_`) or an API key (`pbxk_`, `pbxi_`, `pbxn_`, `pbxs_`), sent as `Authorization: Bearer`. */
  token?: string;
  /** How often a 429 is retried after waiting its `Retry-After` (default 3; 0 turns retrying off). */
  retries?: number;
  /** The longest `Retry-After` the client waits, in seconds (default 60); a longer one is thrown as TooManyRequests. */
  maxRetryAfterSeconds?: number;
  /** The fetch to use (default globalThis.fetch). */
  fetch?: (request: Request) => Promise<Response>;
  /** How to wait (tests pass a fake clock). */
  sleep?: (ms: number) => Promise<void>;
  /** How Idempotency-Keys are made (default crypto.randomUUID). */
  newIdempotencyKey?: () => string;
}

/** Which principal a token is, by its prefix. */
export type PrincipalKind = 'user' | 'pbx' | 'integration' | 'internal' | 'pbx-server';
const PRINCIPALS: Record<string, PrincipalKind> = { pbxu_: 'user', pbxk_: 'pbx', pbxi_: 'integration', pbxn_: 'internal', pbxs_: 'pbx-server' };

export function principalOf(token: string): PrincipalKind | undefined {
  return PRINCIPALS[token.slice(0, 5)];
}

/** A paged list: the envelope every list answers (page numbers, or the call history's cursors in its links). */
interface Envelope {
  data: unknown[];
  links: { next: string | null };
}
type JsonOk<P extends PathsFor<'get'>> = paths[P]['get'] extends { responses: { 200: { content: { 'application/json': infer B } } } } ? B : never;
/** The GET paths that answer the paged envelope. */
export type PagedPaths = { [P in PathsFor<'get'>]: JsonOk<P> extends Envelope ? P : never }[PathsFor<'get'>];
export type PageOf<P extends PagedPaths> = JsonOk<P>;
export type ItemOf<P extends PagedPaths> = JsonOk<P> extends { data: Array<infer T> } ? T : never;

/** A byte range of a download: `{start}` to the end, `{start, end}` (inclusive), or `{suffix}` last bytes. */
export type ByteRange = { start: number; end?: number } | { suffix: number };

export interface Download {
  /** 200 for the whole file, 206 for a range. */
  status: number;
  contentType: string | null;
  /** The range sent and the file's size, on a 206 (`Content-Range: bytes start-end/size`). */
  range?: { start: number; end: number; size: number };
  response: Response;
  bytes(): Promise<Uint8Array>;
}

export class PbxApi {
  /** The openapi-fetch client underneath (the same middleware: Idempotency-Keys, 429 retries). */
  readonly client: Client<paths, Media>;
  readonly baseUrl: string;
  readonly token: string | undefined;
  readonly principal: PrincipalKind | undefined;
  private readonly options: PbxApiOptions;

  constructor(options: PbxApiOptions) {
    this.options = options;
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.token = options.token;
    this.principal = options.token ? principalOf(options.token) : undefined;
    this.client = createClient<paths, Media>({
      baseUrl: this.baseUrl,
      headers: options.token ? { authorization: `Bearer ${options.token}` } : {},
      fetch: retrying(options),
      bodySerializer: multipartWhenFiles,
    });
    this.client.use(idempotencyKeys(options.newIdempotencyKey ?? (() => crypto.randomUUID())));
  }

  /** The same server as another principal. */
  as(token: string): PbxApi {
    return new PbxApi({ ...this.options, token });
  }

  get<P extends PathsFor<'get'>, I extends Init<P, 'get'>>(path: P, ...init: Args<I>): Promise<Data<P, 'get', I>> {
    return this.send('get', path, init[0]).then((r) => r.data as Data<P, 'get', I>);
  }

  /** A GET that also gives the resource's ETag, for a later `ifMatch`. */
  async getWithEtag<P extends PathsFor<'get'>, I extends Init<P, 'get'>>(
    path: P,
    ...init: Args<I>
  ): Promise<{ data: Data<P, 'get', I>; etag: string | undefined }> {
    const { data, response } = await this.send('get', path, init[0]);
    return { data: data as Data<P, 'get', I>, etag: response.headers.get('etag') ?? undefined };
  }

  post<P extends PathsFor<'post'>, I extends Init<P, 'post'>>(path: P, ...init: Args<I>): Promise<Data<P, 'post', I>> {
    return this.send('post', path, init[0]).then((r) => r.data as Data<P, 'post', I>);
  }

  put<P extends PathsFor<'put'>, I extends Init<P, 'put'>>(path: P, ...init: Args<I>): Promise<Data<P, 'put', I>> {
    return this.send('put', path, init[0]).then((r) => r.data as Data<P, 'put', I>);
  }

  patch<P extends PathsFor<'patch'>, I extends Init<P, 'patch'>>(path: P, ...init: Args<I>): Promise<Data<P, 'patch', I>> {
    return this.send('patch', path, init[0]).then((r) => r.data as Data<P, 'patch', I>);
  }

  delete<P extends PathsFor<'delete'>, I extends Init<P, 'delete'>>(path: P, ...init: Args<I>): Promise<Data<P, 'delete', I>> {
    return this.send('delete', path, init[0]).then((r) => r.data as Data<P, 'delete', I>);
  }

  /**
   * Every page of a list, following `links.next` (page numbers, or the call history's keyset
   * cursors) until there is none. The first request is the one given; the next ones keep its path
   * parameters and take the link's query.
   */
  async *pages<P extends PagedPaths, I extends Init<P, 'get'>>(path: P, ...init: Args<I>): AsyncGenerator<PageOf<P>> {
    let options = init[0] as (CallOptions & { params?: { query?: unknown } }) | undefined;
    for (;;) {
      const page = (await this.send('get', path, options)).data as Envelope;
      yield page as PageOf<P>;
      if (!page.links.next) return;
      const query = Object.fromEntries(new URL(page.links.next).searchParams);
      options = { ...options, params: { ...options?.params, query } };
    }
  }

  /** Every item of a list, page after page (see pages()). */
  async *items<P extends PagedPaths, I extends Init<P, 'get'>>(path: P, ...init: Args<I>): AsyncGenerator<ItemOf<P>> {
    for await (const page of this.pages<P, I>(path, ...init)) yield* (page as Envelope).data as Array<ItemOf<P>>;
  }

  /**
   * A file (a sound file's content or playable audio, a call recording), whole or a byte range
   * (206 with its `Content-Range`); not read until bytes() or response.body is.
   */
  async download<P extends PathsFor<'get'>, I extends Init<P, 'get'>>(path: P, ...init: Args<I, CallOptions & { range?: ByteRange }>): Promise<Download> {
    const { range, ...options } = (init[0] ?? {}) as CallOptions & { range?: ByteRange; headers?: Record<string, string> };
    const headers = { ...options.headers, ...(range ? { range: rangeHeader(range) } : {}) };
    const { response } = await this.send('get', path, { ...options, headers, parseAs: 'stream' });
    const contentRange = /^bytes (\d+)-(\d+)\/(\d+)$/.exec(response.headers.get('content-range') ?? '');
    return {
      status: response.status,
      contentType: response.headers.get('content-type'),
      range: contentRange ? { start: Number(contentRange[1]), end: Number(contentRange[2]), size: Number(contentRange[3]) } : undefined,
      response,
      bytes: async () => new Uint8Array(await response.arrayBuffer()),
    };
  }

  /** Revokes this client's user token. */
  async logout(): Promise<void> {
    await this.post('/logout');
  }

  /** One call through openapi-fetch: a failed answer is thrown as its typed error. */
  private async send(method: Method, path: string, init: object | undefined): Promise<{ data: unknown; response: Response }> {
    const { ifMatch, idempotencyKey, headers, ...rest } = (init ?? {}) as CallOptions & { headers?: Record<string, string> };
    const sent = {
      ...rest,
      headers: {
        ...headers,
        ...(ifMatch !== undefined ? { 'If-Match': ifMatch } : {}),
        ...(idempotencyKey !== undefined ? { 'Idempotency-Key': idempotencyKey } : {}),
      },
    };
    const call = this.client.request as unknown as (
      method: string,
      path: string,
      init: object,
    ) => Promise<{ data?: unknown; error?: unknown; response: Response }>;
    const { data, error, response } = await call(method.toUpperCase(), path, sent);
    if (!response.ok) throw apiError(response, error);
    return { data, response };
  }
}

/** `Range` for a ByteRange. */
function rangeHeader(range: ByteRange): string {
  return 'suffix' in range ? `bytes=-${range.suffix}` : `bytes=${range.start}-${range.end ?? ''}`;
}

/** fetch that waits `Retry-After` and tries again on a 429, as often as the options allow. */
function retrying(options: PbxApiOptions): (request: Request) => Promise<Response> {
  const retries = options.retries ?? 3;
  const longest = (options.maxRetryAfterSeconds ?? 60) * 1000;
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  return async (request) => {
    const send = options.fetch ?? ((r: Request) => globalThis.fetch(r));
    for (let attempt = 0; ; attempt++) {
      // A Request's body is read once: each try but the last sends a copy.
      const response = await send(attempt < retries ? request.clone() : request);
      if (response.status !== 429 || attempt >= retries) return response;
      const wait = retryAfterMs(response.headers.get('retry-after'), Date.now());
      if (wait === undefined || wait > longest) return response;
      await response.body?.cancel();
      await sleep(wait);
    }
  };
}

/** An Idempotency-Key on each POST whose operation declares the header (every create, and the other POSTs safe to retry) that has none. */
function idempotencyKeys(newKey: () => string): Middleware {
  return {
    onRequest({ request, schemaPath }) {
      if (request.method === 'POST' && KEYED_POSTS.has(schemaPath) && !request.headers.has('idempotency-key')) {
        request.headers.set('Idempotency-Key', newKey());
      }
      return request;
    },
  };
}

/**
 * JSON, unless the body holds a file (a Blob or File): then multipart/form-data, each field a part
 * (a file with its name, an object as JSON, null as `null`), as the upload endpoints read them.
 */
function multipartWhenFiles(body: unknown): string | FormData {
  if (body instanceof FormData) return body;
  if (!body || typeof body !== 'object' || !Object.values(body).some((value) => value instanceof Blob)) return JSON.stringify(body);
  const form = new FormData();
  for (const [name, value] of Object.entries(body)) {
    if (value === undefined) continue;
    if (value instanceof Blob) form.append(name, value, value instanceof File ? value.name : name);
    else form.append(name, typeof value === 'object' && value !== null ? JSON.stringify(value) : String(value));
  }
  return form;
}
