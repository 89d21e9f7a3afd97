import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, buildTestApp, type TestApp } from '../helpers.js';
import { createAdmin, createEmployee, createKey, type TestUser } from '../factories.js';
import { createIvr } from '../routing-factories.js';

interface Parameter {
  name: string;
  in: string;
}

interface Operation {
  parameters?: Parameter[];
  security?: Array<Record<string, string[]>>;
}

/** Every list of the OpenAPI document, with the page-size name it declares and whether user tokens may call it. */
function listsOf(document: { servers: Array<{ url: string }>; paths: Record<string, Record<string, Operation>> }) {
  const base = new URL(document.servers[0].url).pathname;
  const lists: Array<{ path: string; declared: 'perPage' | 'per_page'; userToken: boolean }> = [];
  for (const [path, methods] of Object.entries(document.paths)) {
    const names = (methods.get?.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name);
    const declared = names.find((name): name is 'perPage' | 'per_page' => name === 'perPage' || name === 'per_page');
    const userToken = methods.get?.security?.some((requirement) => 'bearerAuth' in requirement) ?? true;
    if (declared) lists.push({ path: `${base}${path}`, declared, userToken });
  }
  return lists;
}

describe('page size on every list of the OpenAPI document', () => {
  let t: TestApp;
  let lists: ReturnType<typeof listsOf>;
  let admin: TestUser;
  let employeeId: string;
  let ivrId: string;
  /** For the lists only the PBX key may read (recurring transactions). */
  let pbxKey: string;
  beforeAll(async () => {
    // Some 150 requests: above the default 120 a minute.
    t = await buildTestApp({ env: { RATE_LIMIT_PER_MINUTE: '1000' } });
    admin = await createAdmin(t.ctx);
    employeeId = (await createEmployee(t.ctx, admin.tenant)).id;
    ivrId = await createIvr(t.ctx, admin.tenant);
    pbxKey = await createKey(t.ctx, admin.tenant, 'pbx');
    lists = listsOf((await t.app.inject('/api/v1/openapi.json')).json());
  });
  afterAll(() => t.close());

  const get = (path: string, query: string, userToken = true) =>
    t.app.inject({
      method: 'GET',
      url: `${path.replace('{user}', admin.id).replace('{pbx_id}', admin.pbxId).replace('{employee_id}', employeeId).replace('{ivr}', ivrId)}?${query}`,
      headers: bearer(userToken ? admin.token : pbxKey),
    });

  it('finds the lists, /user-groups and /user/devices among them', () => {
    const paths = lists.map((list) => list.path);
    expect(paths).toEqual(expect.arrayContaining(['/api/v1/user-groups', '/api/v1/user/devices', '/api/v1/extensions', '/api/v1/contacts', '/api/v1/cdrs']));
    expect(lists.length).toBeGreaterThanOrEqual(14);
  });

  it('reads the declared name: a size in range pages, 0, -1, 101 and abc are 422 on that name', async () => {
    for (const { path, declared, userToken } of lists) {
      const fine = await get(path, `${declared}=5`, userToken);
      expect(fine.statusCode, `${path} ${declared}=5`).toBe(200);
      for (const bad of ['0', '-1', '101', 'abc', '100000']) {
        const response = await get(path, `${declared}=${bad}`, userToken);
        expect(response.statusCode, `${path} ${declared}=${bad}`).toBe(422);
        const body = response.json();
        expect(body.message, path).toEqual(expect.any(String));
        expect(Object.keys(body.errors), `${path} ${declared}=${bad}`).toEqual([declared]);
      }
    }
  });

  it('refuses the spelling the list does not declare with 422 naming the one it does', async () => {
    for (const { path, declared, userToken } of lists) {
      const other = declared === 'perPage' ? 'per_page' : 'perPage';
      for (const value of ['5', '0', 'abc']) {
        const response = await get(path, `${other}=${value}`, userToken);
        expect(response.statusCode, `${path} ${other}=${value}`).toBe(422);
        expect(response.json().errors, `${path} ${other}=${value}`).toEqual({
          [other]: [`The ${other} parameter is not accepted here; the page size is ${declared}.`],
        });
      }
    }
  });
});
