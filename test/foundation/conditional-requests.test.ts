import { randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers.js';
import { openTestDatabase } from '../database.js';
import type { Database } from '../../src/db/database.js';
import { seedDemo, type DemoTenant } from '../../src/demo-seed.js';
import { sampleOf, tenantAFixture, type Document, type Operation, type Schema, type TenantAFixture } from '../operation-fixtures.js';
import { issueUserToken } from '../../src/platform/auth/tokens.js';

const DATA_DIR = `/tmp/pbx-api-conditional-${process.pid}-${randomUUID().slice(0, 8)}`;
const STRONG_TAG = /^"[^"]+"$/;

interface DocumentedOperation extends Operation {
  parameters?: Array<{ name: string; in: string; required?: boolean; schema: Schema }>;
  responses: Record<string, { headers?: Record<string, unknown>; content?: Record<string, unknown> }>;
}

/**
 * No lost updates, over every operation of the OpenAPI document that reads or changes one
 * resource: each read answers a strong ETag (its HEAD the same), 304 for a current If-None-Match;
 * each write with a read documents If-Match and answers a stale one with 412, the current ETag,
 * and no change.
 */
describe('conditional requests over the whole document', () => {
  let t: TestApp;
  let document: Document & { paths: Record<string, Record<string, DocumentedOperation>> };
  let base: string;
  let a: DemoTenant;
  let b: DemoTenant;
  let fixture: TenantAFixture;
  /** The push device's own user: `/user/…` is the caller's own. */
  let deviceOwnerToken: string;
  /** Required query parameters whose simplest value finds nothing. */
  let queryOf: Record<string, Record<string, string>>;

  beforeAll(async () => {
    t = await buildTestApp({
      env: { RATE_LIMIT_PER_MINUTE: '1000000', DATA_DIR, JOB_WORKER: 'false', AMI_EVENTS: 'false', AMI_ALLOWED_HOSTS: 'pbx.example.com' },
    });
    const { seed } = await seedDemo(t.ctx);
    [a, b] = seed.tenants;
    document = (await t.app.inject('/api/v1/openapi.json')).json();
    base = new URL(document.servers[0].url).pathname;
    fixture = await tenantAFixture(t, a, base);
    // What the demo seed leaves unset: the PBX engine's settings.
    const settings = await t.app.inject({
      method: 'PUT',
      url: `${base}/pbx-engine/settings`,
      headers: { authorization: `Bearer ${fixture.adminToken}` },
      payload: { host: 'pbx.example.com', username: 'pbxapi', secret: 'an AMI secret' },
    });
    expect(settings.statusCode, settings.body).toBe(200);
    const device = await t.ctx.db.selectFrom('push_devices').select('user_id').where('id', '=', String(a.samples.push_device)).executeTakeFirstOrThrow();
    deviceOwnerToken = await issueUserToken(t.ctx.db, t.ctx.clock, { id: device.user_id, pbx_id: a.pbx_id }, { name: 'test', ttlSeconds: 3600 });
    queryOf = {
      '/contacts/lookup': { number: '+352 20 30 40 50' },
      '/{pbx_id}/public-holidays': { 'filter[from]': '2026-01-01', 'filter[to]': '2026-12-31', 'filter[company_id]': String(a.samples.company) },
      '/cdrs/recording': { path: String(a.samples.recording_path) },
    };
  });
  afterAll(async () => {
    await t.close();
    rmSync(DATA_DIR, { recursive: true, force: true });
  });

  /** Tenant A's caller the operation accepts, and its URL with tenant A's ids and required query. */
  const requestOf = (path: string, operation: DocumentedOperation) => {
    const accepts = (scheme: string) => (operation.security ?? []).some((requirement) => scheme in requirement);
    const token = path.startsWith('/user/devices') ? deviceOwnerToken : fixture.adminToken;
    const authorization = accepts('bearerAuth') ? `Bearer ${token}` : accepts('ApiKeyAuth') ? a.internal_api_key : `Bearer ${a.pbx_api_key}`;
    let url = path;
    for (const param of (operation.parameters ?? []).filter((p) => p.in === 'path'))
      url = url.replace(`{${param.name}}`, encodeURIComponent((param.name === 'pbx_id' ? a.pbx_id : fixture.valueFor(path, param.name)) ?? ''));
    const query =
      queryOf[path] ??
      Object.fromEntries((operation.parameters ?? []).filter((p) => p.in === 'query' && p.required).map((p) => [p.name, String(sampleOf(p.schema, document))]));
    const search = Object.keys(query).length ? `?${new URLSearchParams(query).toString()}` : '';
    return { authorization, url: `${base}${url}${search}` };
  };

  const operations = (methods: string[]) =>
    Object.entries(document.paths).flatMap(([path, byMethod]) =>
      Object.entries(byMethod)
        .filter(([method, operation]) => methods.includes(method) && (operation.security?.length ?? 0) > 0)
        .map(([method, operation]) => ({ method, path, operation })),
    );

  it('every read answers a strong ETag, the same on HEAD, and 304 while it is current', async () => {
    // The demo import is complete: its file is gone, so even its owner gets no preview.
    const stateful = ['/contacts/imports/{id}/preview'];
    const reads = operations(['get']).filter(
      ({ operation }) => operation.responses['200'] && !('text/event-stream' in (operation.responses['200'].content ?? {})),
    );
    const streams = operations(['get']).filter(({ operation }) => !reads.some((read) => read.operation === operation));
    // What answers no representation: the live event stream and its WebSocket.
    expect(streams.map(({ path }) => path).sort()).toEqual(['/events/socket', '/events/stream']);
    expect(reads.length).toBeGreaterThanOrEqual(90);
    const problems: string[] = [];
    for (const { path, operation } of reads) {
      const documented =
        operation.responses['200'].headers?.ETag && operation.responses['304'] && operation.parameters?.some((p) => p.name === 'If-None-Match');
      if (!documented) problems.push(`GET ${path}: ETag, If-None-Match or 304 not documented`);
      if (stateful.includes(path)) continue;
      const { authorization, url } = requestOf(path, operation);
      const first = await t.app.inject({ method: 'GET', url, headers: { authorization } });
      const etag = first.headers.etag;
      if (first.statusCode !== 200 || !etag || !STRONG_TAG.test(etag)) {
        problems.push(`GET ${path}: ${first.statusCode}, ETag ${String(etag)}`);
        continue;
      }
      const head = await t.app.inject({ method: 'HEAD', url, headers: { authorization } });
      if (head.headers.etag !== etag) problems.push(`HEAD ${path}: ETag ${String(head.headers.etag)}, GET said ${etag}`);
      const current = await t.app.inject({ method: 'GET', url, headers: { authorization, 'if-none-match': `"elsewhere", ${etag}` } });
      if (current.statusCode !== 304 || current.body !== '' || current.headers.etag !== etag)
        problems.push(`GET ${path} If-None-Match current: ${current.statusCode}`);
      const old = await t.app.inject({ method: 'GET', url, headers: { authorization, 'if-none-match': '"elsewhere"' } });
      if (old.statusCode !== 200 || old.body !== first.body) problems.push(`GET ${path} If-None-Match stale: ${old.statusCode}`);
    }
    expect(problems).toEqual([]);
  });

  it('every write of a resource refuses a stale If-Match with 412 and the current ETag, and changes nothing', async () => {
    const writes = operations(['patch', 'put', 'delete']);
    expect(writes.length).toBeGreaterThanOrEqual(60);
    const problems: string[] = [];
    for (const { method, path, operation } of writes) {
      if (!operation.parameters?.some((p) => p.name === 'If-Match') || !operation.responses['412']?.headers?.ETag) {
        problems.push(`${method.toUpperCase()} ${path}: If-Match or 412 not documented`);
        continue;
      }
      // The resource's read: the GET of this path, or of the resource this action is on.
      const readPath = document.paths[path]?.get ? path : path.slice(0, path.lastIndexOf('/'));
      const read = requestOf(readPath, document.paths[readPath].get);
      const before = await t.app.inject({ method: 'GET', url: read.url, headers: { authorization: read.authorization } });
      const { authorization, url } = requestOf(path, operation);
      const schema = operation.requestBody?.content['application/json']?.schema;
      const payload = schema ? (sampleOf(schema, document) as object) : undefined;
      const stale = await t.app.inject({
        method: method.toUpperCase() as 'PATCH',
        url,
        headers: { authorization, 'if-match': '"stale"' },
        ...(payload ? { payload } : {}),
      });
      const after = await t.app.inject({ method: 'GET', url: read.url, headers: { authorization: read.authorization } });
      const where = `${method.toUpperCase()} ${path}`;
      if (stale.statusCode !== 412) problems.push(`${where}: ${stale.statusCode} ${stale.body.slice(0, 120)}`);
      else if (stale.headers.etag !== before.headers.etag)
        problems.push(`${where}: 412 with ETag ${String(stale.headers.etag)}, the read says ${String(before.headers.etag)}`);
      if (after.body !== before.body) problems.push(`${where}: the resource changed after a 412`);
    }
    expect(problems).toEqual([]);
  });

  it('of two writers holding the same ETag, exactly one changes the resource', async () => {
    const user = a.users.find((candidate) => candidate.id !== a.admin.id)!;
    const headers = { authorization: `Bearer ${fixture.adminToken}` };
    const url = `${base}/users/${user.id}`;
    const read = await t.app.inject({ method: 'GET', url, headers });
    const etag = read.headers.etag as string;
    const answers = await Promise.all(
      ['Ada', 'Grace', 'Edsger', 'Barbara'].map((first_name) =>
        t.app.inject({ method: 'PATCH', url, headers: { ...headers, 'if-match': etag }, payload: { first_name } }),
      ),
    );
    const statuses = answers.map((answer) => answer.statusCode).sort();
    expect(statuses).toEqual([200, 412, 412, 412]);
    const winner = answers.find((answer) => answer.statusCode === 200)!.json<{ data: { first_name: string } }>().data.first_name;
    const now = await t.app.inject({ method: 'GET', url, headers });
    expect(now.json<{ data: { first_name: string } }>().data.first_name).toBe(winner);
    for (const loser of answers.filter((answer) => answer.statusCode === 412)) expect(loser.headers.etag).toBe(now.headers.etag);
    // With the fresh ETag the change goes through; `*` asks only that the resource exists.
    const fresh = await t.app.inject({
      method: 'PATCH',
      url,
      headers: { ...headers, 'if-match': now.headers.etag as string },
      payload: { first_name: 'Alan' },
    });
    expect(fresh.statusCode).toBe(200);
    const any = await t.app.inject({ method: 'PATCH', url, headers: { ...headers, 'if-match': '*' }, payload: { first_name: 'Kurt' } });
    expect(any.statusCode).toBe(200);
    // A weak tag never matches a write's strong comparison.
    const current = (await t.app.inject({ method: 'GET', url, headers })).headers.etag as string;
    const weak = await t.app.inject({ method: 'PATCH', url, headers: { ...headers, 'if-match': `W/${current}` }, payload: { first_name: 'Kurt' } });
    expect(weak.statusCode).toBe(412);
  });

  it('a delete with a current ETag deletes; an unknown or foreign resource answers 404 as without the header', async () => {
    const headers = { authorization: `Bearer ${fixture.adminToken}` };
    const created = await t.app.inject({ method: 'POST', url: `${base}/extensions`, headers, payload: { number: '7391', name: 'Conditional' } });
    expect(created.statusCode).toBe(201);
    const url = `${base}/extensions/${created.json<{ data: { id: string } }>().data.id}`;
    const etag = (await t.app.inject({ method: 'GET', url, headers })).headers.etag as string;
    expect((await t.app.inject({ method: 'DELETE', url, headers: { ...headers, 'if-match': '"other"' } })).statusCode).toBe(412);
    expect((await t.app.inject({ method: 'DELETE', url, headers: { ...headers, 'if-match': etag } })).statusCode).toBe(204);
    expect((await t.app.inject({ method: 'DELETE', url, headers: { ...headers, 'if-match': etag } })).statusCode).toBe(404);
    const user = a.users.find((candidate) => candidate.id !== a.admin.id)!;
    const bAdmin = await issueUserToken(t.ctx.db, t.ctx.clock, { id: b.admin.id, pbx_id: b.pbx_id }, { name: 'test', ttlSeconds: 3600 });
    const foreign = (ifMatch?: string) =>
      t.app.inject({
        method: 'PATCH',
        url: `${base}/users/${user.id}`,
        headers: { authorization: `Bearer ${bAdmin}`, ...(ifMatch ? { 'if-match': ifMatch } : {}) },
        payload: { first_name: 'Mallory' },
      });
    const [withTag, without] = [await foreign('"x"'), await foreign()];
    expect(withTag.statusCode).toBe(404);
    expect(withTag.body).toBe(without.body);
    expect(withTag.headers.etag).toBeUndefined();
    const nowhere = await t.app.inject({
      method: 'PATCH',
      url: `${base}/users/${randomUUID()}`,
      headers: { ...headers, 'if-match': '"x"' },
      payload: { first_name: 'Nobody' },
    });
    expect(nowhere.statusCode).toBe(404);
  });

  it('the conditional read is not counted against the rate limit, and a client cannot pose as it', async () => {
    const user = a.users.find((candidate) => candidate.id !== a.admin.id)!;
    const headers = { authorization: `Bearer ${fixture.adminToken}` };
    const url = `${base}/users/${user.id}`;
    const etag = (await t.app.inject({ method: 'GET', url, headers })).headers.etag as string;
    const before = Number((await t.app.inject({ method: 'GET', url, headers })).headers['x-ratelimit-remaining']);
    await t.app.inject({ method: 'PATCH', url, headers: { ...headers, 'if-match': etag }, payload: { first_name: 'Counted' } });
    const after = Number((await t.app.inject({ method: 'GET', url, headers })).headers['x-ratelimit-remaining']);
    // The PATCH and this GET: two requests, not three.
    expect(before - after).toBe(2);
    const posing = await t.app.inject({ method: 'GET', url, headers: { ...headers, 'x-pbx-api-precondition-read': 'guess' } });
    expect(Number(posing.headers['x-ratelimit-remaining'])).toBe(after - 1);
  });
});

/** Instances sharing one database agree: the lease is in the database, not in a process. */
describe('conditional writes through two instances of one database', () => {
  let database: Database;
  let first: TestApp;
  let second: TestApp;

  beforeAll(async () => {
    database = await openTestDatabase();
    first = await buildTestApp({ database, env: { JOB_WORKER: 'false', AMI_EVENTS: 'false' } });
    second = await buildTestApp({ database, clock: first.clock, env: { JOB_WORKER: 'false', AMI_EVENTS: 'false' } });
  });
  afterAll(async () => {
    await first?.close();
    await second?.close();
    await database?.close();
  });

  it('lets exactly one of several writers holding the same ETag change the resource, whichever instance each reaches', async () => {
    const { seed } = await seedDemo(first.ctx);
    const tenant = seed.tenants[0];
    const token = await issueUserToken(first.ctx.db, first.clock, { id: tenant.admin.id, pbx_id: tenant.pbx_id }, { name: 'test', ttlSeconds: 3600 });
    const headers = { authorization: `Bearer ${token}` };
    const url = `/api/v1/extensions/${String(tenant.samples.extension)}`;
    const etag = (await first.app.inject({ method: 'GET', url, headers })).headers.etag as string;
    expect((await second.app.inject({ method: 'GET', url, headers })).headers.etag).toBe(etag);
    const answers = await Promise.all(
      ['Front desk', 'Back office', 'Warehouse', 'Workshop', 'Lab', 'Garage'].map((name, i) =>
        (i % 2 ? second : first).app.inject({ method: 'PATCH', url, headers: { ...headers, 'if-match': etag }, payload: { name } }),
      ),
    );
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 412, 412, 412, 412, 412]);
    const now = await second.app.inject({ method: 'GET', url, headers });
    expect(now.json<{ data: { name: string } }>().data.name).toBe(
      answers.find((answer) => answer.statusCode === 200)!.json<{ data: { name: string } }>().data.name,
    );
  });
});
