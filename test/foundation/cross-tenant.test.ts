import { randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers.js';
import { seedDemo, type DemoTenant } from '../../src/demo-seed.js';
import { createApiKey } from '../../src/platform/auth/api-keys.js';
import { issueUserToken } from '../../src/platform/auth/tokens.js';
import { INTEGRATION_SCOPES } from '../../src/platform/auth/principal.js';
import { sampleOf, tenantAFixture, type Document, type Operation, type Schema } from '../operation-fixtures.js';

const DATA_DIR = `/tmp/pbx-api-cross-tenant-${process.pid}-${randomUUID().slice(0, 8)}`;

/**
 * Every operation of the OpenAPI document with a path id, called by every principal of tenant B
 * with tenant A's ids from the demo seed, and again with ids that exist nowhere: no call may
 * succeed, and each must answer exactly as for the nonexistent ids, so neither the data nor its
 * existence crosses tenants. An operation with a path parameter this test cannot fill from
 * tenant A fails it: give the demo seed a sample of the new resource.
 */
describe('no operation with a path id crosses tenants', () => {
  let t: TestApp;
  let document: Document;
  let base: string;
  let a: DemoTenant;
  let b: DemoTenant;
  let aAdminToken: string;
  /** A's push devices are their owner's alone (`/user/devices/…` acts for the caller): the demo device's owner reads it. */
  let aDeviceOwnerToken: string;
  let aValuesFor: (path: string, name: string) => string | undefined;

  beforeAll(async () => {
    // Some 1,000 requests a few principals make: far above the default 120 a minute.
    t = await buildTestApp({ env: { RATE_LIMIT_PER_MINUTE: '1000000', DATA_DIR, JOB_WORKER: 'false', AMI_EVENTS: 'false' } });
    const { seed } = await seedDemo(t.ctx);
    [a, b] = seed.tenants;
    document = (await t.app.inject('/api/v1/openapi.json')).json();
    base = new URL(document.servers[0].url).pathname;

    ({ adminToken: aAdminToken, valueFor: aValuesFor } = await tenantAFixture(t, a, base));
    const device = await t.ctx.db.selectFrom('push_devices').select('user_id').where('id', '=', String(a.samples.push_device)).executeTakeFirstOrThrow();
    aDeviceOwnerToken = await issueUserToken(t.ctx.db, t.ctx.clock, { id: device.user_id, pbx_id: a.pbx_id }, { name: 'test', ttlSeconds: 3600 });
  });
  afterAll(async () => {
    await t.close();
    rmSync(DATA_DIR, { recursive: true, force: true });
  });

  /** Ids in the same shape that exist in no tenant. */
  const nowhere = (schema: Schema): string => {
    if (schema.format === 'email') return `nobody-${randomUUID().slice(0, 8)}@example.test`;
    if (schema.format === 'uuid') return randomUUID();
    if ((schema as { pattern?: string }).pattern?.startsWith('^msg_')) return `msg_${randomUUID().replace(/-/g, '')}`;
    if ((schema as { pattern?: string }).pattern?.startsWith('^[1-9][0-9]')) return '987654321987654';
    return 'softphone'; // a name, not an id: the same in both requests
  };

  const operations = () => {
    const found: Array<{ method: string; path: string; operation: Operation }> = [];
    for (const [path, methods] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(methods)) {
        // The PBX a path names is no id of a tenant's data: a path with only that one is a collection of the caller's own.
        if (path.replace('{pbx_id}', '').includes('{') && operation.security?.length) found.push({ method: method.toUpperCase(), path, operation });
      }
    }
    return found;
  };

  it("answers tenant B's every principal as if tenant A's ids did not exist", async () => {
    const integration = await createApiKey(t.ctx.db, t.ctx.clock, t.ctx.secrets, {
      pbxId: b.pbx_id,
      kind: 'integration',
      name: 'Every scope',
      scopes: [...INTEGRATION_SCOPES],
    });
    const member = b.users.find((user) => user.id !== b.admin.id)!;
    const principals: Record<string, string> = {
      'admin user token': `Bearer ${await issueUserToken(t.ctx.db, t.ctx.clock, { id: b.admin.id, pbx_id: b.pbx_id }, { name: 'test', ttlSeconds: 3600 })}`,
      'user token': `Bearer ${await issueUserToken(t.ctx.db, t.ctx.clock, { id: member.id, pbx_id: b.pbx_id }, { name: 'test', ttlSeconds: 3600 })}`,
      'PBX key': `Bearer ${b.pbx_api_key}`,
      'integration key': `Bearer ${integration.token}`,
      'pbx_server key': `Bearer ${b.pbx_server_key}`,
      'internal key': b.internal_api_key,
    };

    const all = operations();
    expect(all.length).toBeGreaterThanOrEqual(70);
    const unfilled: string[] = [];
    const problems: string[] = [];
    const reached = new Set<string>();
    for (const { method, path, operation } of all) {
      const params = (operation.parameters ?? []).filter((p) => p.in === 'path');
      let own = path;
      let absent = path;
      for (const param of params) {
        // A path naming its PBX names the caller's own (another PBX is a 403 before any lookup, tested
        // with the workforce): what must not cross is tenant A's ids under tenant B's PBX.
        const value = param.name === 'pbx_id' ? b.pbx_id : aValuesFor(path, param.name);
        if (value === undefined) unfilled.push(`${method} ${path}: {${param.name}}`);
        own = own.replace(`{${param.name}}`, encodeURIComponent(value ?? ''));
        const same = param.name === 'type' || param.name === 'pbx_id';
        absent = absent.replace(`{${param.name}}`, encodeURIComponent(same ? (value ?? '') : nowhere(param.schema)));
      }
      const schema = operation.requestBody?.content['application/json']?.schema;
      const payload = schema ? (sampleOf(schema, document) as object) : undefined;
      await Promise.all(
        Object.entries(principals).map(async ([who, authorization]) => {
          const send = (url: string) =>
            t.app.inject({ method: method as 'GET', url: `${base}${url}`, headers: { authorization }, ...(payload ? { payload } : {}) });
          const crossing = await send(own);
          const missing = await send(absent);
          const where = `${method} ${path} as tenant B's ${who}`;
          if (crossing.statusCode < 300 || crossing.statusCode >= 500) problems.push(`${where}: ${crossing.statusCode} ${crossing.body.slice(0, 200)}`);
          else if (crossing.statusCode !== missing.statusCode || crossing.body !== missing.body) {
            problems.push(
              `${where}: ${crossing.statusCode} ${crossing.body.slice(0, 120)} for A's ids, ${missing.statusCode} ${missing.body.slice(0, 120)} for none`,
            );
          }
          if (crossing.statusCode !== 401 && crossing.statusCode !== 403 && crossing.statusCode !== 422) reached.add(`${method} ${path}`);
        }),
      );
    }
    expect(unfilled, 'path parameters without a tenant-A sample: add one to the demo seed').toEqual([]);
    expect(problems).toEqual([]);
    // Most operations got past authorization and validation to the lookup of the id.
    expect(reached.size).toBeGreaterThanOrEqual(all.length * 0.8);
  });

  it("tenant A's own principals read the same ids (the ids are real)", async () => {
    // The demo import is complete: its file is gone, so even its owner gets no preview.
    const stateful = ['/contacts/imports/{id}/preview'];
    const failures: string[] = [];
    for (const { method, path, operation } of operations()) {
      if (method !== 'GET' || stateful.includes(path)) continue;
      const accepts = (scheme: string) => operation.security!.some((requirement) => scheme in requirement);
      const token = path.startsWith('/user/devices') ? aDeviceOwnerToken : aAdminToken;
      const authorization = accepts('bearerAuth') ? `Bearer ${token}` : accepts('ApiKeyAuth') ? a.internal_api_key : `Bearer ${a.pbx_api_key}`;
      let url = path;
      for (const param of (operation.parameters ?? []).filter((p) => p.in === 'path'))
        url = url.replace(`{${param.name}}`, encodeURIComponent((param.name === 'pbx_id' ? a.pbx_id : aValuesFor(path, param.name)) ?? ''));
      // Required query parameters (a range's bounds) get the simplest value their schema accepts.
      const query = Object.fromEntries(
        (operation.parameters ?? [])
          .filter((p) => p.in === 'query' && (p as { required?: boolean }).required)
          .map((p) => [p.name, String(sampleOf(p.schema, document))]),
      );
      const search = Object.keys(query).length ? `?${new URLSearchParams(query).toString()}` : '';
      const response = await t.app.inject({ method: 'GET', url: `${base}${url}${search}`, headers: { authorization } });
      if (response.statusCode >= 300) failures.push(`GET ${path}: ${response.statusCode} ${response.body.slice(0, 160)}`);
    }
    expect(failures).toEqual([]);
  });
});
