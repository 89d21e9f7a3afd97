import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { apiCaller, useTestApp } from '../../../../../test/helpers.js';
import { createAdmin, createCompany, createDepartment, createEmployee, createKey, createTenant, createUser } from '../../../../../test/factories.js';
import { departmentValidatorIds, departmentsByIds } from './departments.queries.js';

describe('departments', () => {
  const t = useTestApp();

  const call = apiCaller(() => t);
  const ids = (response: { json(): { data: Array<{ id: string }> } }) => response.json().data.map((d) => d.id);

  it('an administrator creates, lists, reads, changes, deletes and restores departments; include=company embeds the company', async () => {
    const admin = await createAdmin(t.ctx);
    const path = `/${admin.pbxId}/departments`;
    const lu = await createCompany(t.ctx, admin.tenant, {
      company: 'Acme Logistics S.à r.l.',
      street: '12 Rue de la Gare',
      postal_code: 'L-1611',
      city: 'Luxembourg',
    });
    const de = await createCompany(t.ctx, admin.tenant, { company: 'Acme Logistik GmbH', country_cc: 'DE', region: 'BY' });

    const created = await call('POST', path, admin.token, { name: 'Dispatch', company_id: lu.id });
    expect(created.statusCode).toBe(201);
    const dispatch = created.json().data;
    expect(dispatch).toEqual({
      id: expect.any(String),
      name: 'Dispatch',
      company_id: lu.id,
      validator_ids: [],
      company: expect.objectContaining({ id: lu.id, company: 'Acme Logistics S.à r.l.', address: '12 Rue de la Gare L-1611 Luxembourg', delete_date: null }),
      delete_date: null,
      created_at: t.clock.now().toISOString(),
      updated_at: t.clock.now().toISOString(),
    });
    const warehouse = (await call('POST', path, admin.token, { name: 'Warehouse', company_id: de.id })).json().data;
    const floating = (await call('POST', path, admin.token, { name: 'Board' })).json().data;
    expect(floating).toMatchObject({ company_id: null, company: null });

    const list = await call('GET', path, admin.token);
    expect(list.statusCode).toBe(200);
    expect(list.json().data.map((d: { name: string }) => d.name)).toEqual(['Board', 'Dispatch', 'Warehouse']);
    expect(list.json().data[0]).not.toHaveProperty('company');
    const withCompany = await call('GET', `${path}?include=company&filter[company_id]=${de.id}`, admin.token);
    expect(withCompany.json().data).toEqual([expect.objectContaining({ id: warehouse.id, company: expect.objectContaining({ id: de.id, region: 'BY' }) })]);
    expect(ids(await call('GET', `${path}?search=patch&perPage=5`, admin.token))).toEqual([dispatch.id]);
    expect(ids(await call('GET', `${path}?sort=-name`, admin.token))).toEqual([warehouse.id, dispatch.id, floating.id]);
    expect((await call('GET', `${path}/${dispatch.id}`, admin.token)).json().data).not.toHaveProperty('company');
    expect((await call('GET', `${path}/${dispatch.id}?include=company`, admin.token)).json().data.company.id).toBe(lu.id);

    const moved = await call('PATCH', `${path}/${dispatch.id}`, admin.token, { company_id: de.id, name: 'Dispatch DE' });
    expect(moved.json().data).toMatchObject({ name: 'Dispatch DE', company_id: de.id, company: { id: de.id } });
    const detached = await call('PATCH', `${path}/${dispatch.id}`, admin.token, { company_id: null });
    expect(detached.json().data).toMatchObject({ name: 'Dispatch DE', company_id: null, company: null });

    // A deleted company stays on its departments, with its delete_date; no department may newly name it.
    expect((await call('DELETE', `/${admin.pbxId}/companies/${de.id}`, admin.token)).statusCode).toBe(204);
    const kept = await call('GET', `${path}/${warehouse.id}?include=company`, admin.token);
    expect(kept.json().data.company).toMatchObject({ id: de.id, delete_date: expect.any(String) });
    expect((await call('PATCH', `${path}/${warehouse.id}`, admin.token, { name: 'Stock' })).statusCode).toBe(200);
    expect((await call('PATCH', `${path}/${dispatch.id}`, admin.token, { company_id: de.id })).statusCode).toBe(422);

    expect((await call('DELETE', `${path}/${floating.id}`, admin.token)).statusCode).toBe(204);
    expect((await call('GET', `${path}/${floating.id}`, admin.token)).statusCode).toBe(404);
    expect(ids(await call('GET', `${path}?filter[trashed]=only`, admin.token))).toEqual([floating.id]);
    expect((await call('GET', `${path}?filter[trashed]=only`, admin.token)).json().data[0].delete_date).toBe(t.clock.now().toISOString());
    const restored = await call('POST', `${path}/${floating.id}/restore`, admin.token);
    expect(restored.statusCode).toBe(200);
    expect(restored.json().data).toMatchObject({ id: floating.id, delete_date: null });

    // What a contract's department_id names, trashed ones included.
    await call('DELETE', `${path}/${floating.id}`, admin.token);
    const found = await departmentsByIds(t.ctx.db, admin.tenant, [warehouse.id, floating.id, floating.id]);
    expect([...found.keys()].sort()).toEqual([warehouse.id, floating.id].sort());
  });

  it('refuses bad input with 422: a missing name, a company of another tenant, a deleted or unknown company, an unknown include', async () => {
    const admin = await createAdmin(t.ctx);
    const path = `/${admin.pbxId}/departments`;
    const foreign = await createCompany(t.ctx, await createTenant(t.ctx));
    const gone = await createCompany(t.ctx, admin.tenant);
    await call('DELETE', `/${admin.pbxId}/companies/${gone.id}`, admin.token);
    const cases: Array<[object, string]> = [
      [{}, 'name'],
      [{ name: '' }, 'name'],
      [{ name: 'X', company_id: 'acme' }, 'company_id'],
      [{ name: 'X', company_id: foreign.id }, 'company_id'],
      [{ name: 'X', company_id: gone.id }, 'company_id'],
      [{ name: 'X', company_id: '00000000-0000-4000-8000-000000000000' }, 'company_id'],
      [{ name: 'X', pbx_id: admin.pbxId }, 'pbx_id'],
    ];
    for (const [payload, field] of cases) {
      const refused = await call('POST', path, admin.token, payload);
      expect(refused.statusCode, JSON.stringify(payload)).toBe(422);
      expect(refused.json(), JSON.stringify(payload)).toEqual({ message: expect.any(String), errors: { [field]: [expect.any(String)] } });
    }
    expect((await call('POST', path, admin.token, { name: 'X', company_id: foreign.id })).json().errors.company_id).toEqual([
      'The selected company is invalid.',
    ]);
    const department = await createDepartment(t.ctx, admin.tenant);
    expect((await call('PATCH', `${path}/${department.id}`, admin.token, { company_id: foreign.id })).statusCode).toBe(422);
    expect((await call('GET', `${path}?include=users`, admin.token)).json().errors).toHaveProperty('include');
    expect((await call('GET', `${path}?per_page=5`, admin.token)).json().errors).toHaveProperty('per_page');
  });

  describe('validator_ids', () => {
    it('are set on create, replaced whole by PATCH in the order sent, kept when not sent, cleared with []', async () => {
      const admin = await createAdmin(t.ctx);
      const path = `/${admin.pbxId}/departments`;
      const [head, deputy, third] = [
        await createEmployee(t.ctx, admin.tenant),
        await createEmployee(t.ctx, admin.tenant),
        await createEmployee(t.ctx, admin.tenant),
      ];

      const created = await call('POST', path, admin.token, { name: 'Dispatch', validator_ids: [deputy.id, head.id] });
      expect(created.statusCode).toBe(201);
      const id = created.json().data.id;
      expect(created.json().data.validator_ids).toEqual([deputy.id, head.id]);
      expect((await call('GET', `${path}/${id}`, admin.token)).json().data.validator_ids).toEqual([deputy.id, head.id]);
      expect(await departmentValidatorIds(t.ctx.db, admin.tenant, id)).toEqual([deputy.id, head.id]);

      const replaced = await call('PATCH', `${path}/${id}`, admin.token, { validator_ids: [third.id, head.id, deputy.id] });
      expect(replaced.statusCode).toBe(200);
      expect(replaced.json().data.validator_ids).toEqual([third.id, head.id, deputy.id]);
      const renamed = await call('PATCH', `${path}/${id}`, admin.token, { name: 'Dispatch & Routing' });
      expect(renamed.json().data).toMatchObject({ name: 'Dispatch & Routing', validator_ids: [third.id, head.id, deputy.id] });
      expect((await call('PATCH', `${path}/${id}`, admin.token, { validator_ids: [head.id] })).json().data.validator_ids).toEqual([head.id]);

      const cleared = await call('PATCH', `${path}/${id}`, admin.token, { validator_ids: [] });
      expect(cleared.json().data.validator_ids).toEqual([]);
      expect(await departmentValidatorIds(t.ctx.db, admin.tenant, id)).toEqual([]);
      expect(await t.ctx.db.selectFrom('department_validators').select('employee_id').where('department_id', '=', id).execute()).toEqual([]);

      // Up to ten, in order.
      const ten = [];
      for (let i = 0; i < 10; i++) ten.push((await createEmployee(t.ctx, admin.tenant)).id);
      const full = await call('POST', path, admin.token, { name: 'Board', validator_ids: [...ten].reverse() });
      expect(full.statusCode).toBe(201);
      expect(full.json().data.validator_ids).toEqual([...ten].reverse());
    });

    it("a page of departments shows each one's validators; readers see them too; a soft-deleted employee is left out while deleted", async () => {
      const admin = await createAdmin(t.ctx);
      const user = await createUser(t.ctx, { tenant: admin.tenant });
      const path = `/${admin.pbxId}/departments`;
      const [anna, marie, luc] = [
        await createEmployee(t.ctx, admin.tenant),
        await createEmployee(t.ctx, admin.tenant),
        await createEmployee(t.ctx, admin.tenant),
      ];
      await call('POST', path, admin.token, { name: 'Customer Service', validator_ids: [anna.id] });
      await call('POST', path, admin.token, { name: 'Dispatch', validator_ids: [marie.id, anna.id] });
      await call('POST', path, admin.token, { name: 'Warehouse' });
      await call('POST', path, admin.token, { name: 'Yard', validator_ids: [luc.id, marie.id] });

      const page = await call('GET', `${path}?include=company`, user.token);
      expect(page.statusCode).toBe(200);
      expect(page.json().data.map((d: { name: string; validator_ids: string[] }) => [d.name, d.validator_ids])).toEqual([
        ['Customer Service', [anna.id]],
        ['Dispatch', [marie.id, anna.id]],
        ['Warehouse', []],
        ['Yard', [luc.id, marie.id]],
      ]);
      const second = await call('GET', `${path}?perPage=2&page=2&sort=-name`, admin.token);
      expect(second.json().data.map((d: { validator_ids: string[] }) => d.validator_ids)).toEqual([[marie.id, anna.id], [anna.id]]);

      expect((await call('DELETE', `/${admin.pbxId}/employees/${marie.id}`, admin.token)).statusCode).toBe(204);
      const dispatch = (await call('GET', `${path}?search=Dispatch`, admin.token)).json().data[0];
      expect(dispatch.validator_ids).toEqual([anna.id]);
      expect(await departmentValidatorIds(t.ctx.db, admin.tenant, dispatch.id)).toEqual([anna.id]);
      expect((await call('POST', `/${admin.pbxId}/employees/${marie.id}/restore`, admin.token)).statusCode).toBe(200);
      expect((await call('GET', `${path}/${dispatch.id}`, admin.token)).json().data.validator_ids).toEqual([marie.id, anna.id]);
    });

    it("refuses with 422, naming the entry: an unknown, deleted or other tenant's employee, one listed twice, more than ten, not a UUID", async () => {
      const admin = await createAdmin(t.ctx);
      const path = `/${admin.pbxId}/departments`;
      const mine = await createEmployee(t.ctx, admin.tenant);
      const other = await createEmployee(t.ctx, admin.tenant);
      const stranger = await createTenant(t.ctx);
      const foreign = await createEmployee(t.ctx, stranger);
      const gone = await createEmployee(t.ctx, admin.tenant);
      expect((await call('DELETE', `/${admin.pbxId}/employees/${gone.id}`, admin.token)).statusCode).toBe(204);
      const unknown = '00000000-0000-4000-8000-000000000000';
      const eleven = Array.from({ length: 11 }, () => randomUUID());

      const cases: Array<[unknown, Record<string, string[]>]> = [
        [[mine.id, other.id, unknown], { 'validator_ids.2': ['The selected validator_ids.2 is not an employee of this PBX.'] }],
        [[foreign.id], { 'validator_ids.0': ['The selected validator_ids.0 is not an employee of this PBX.'] }],
        [[mine.id, gone.id], { 'validator_ids.1': ['The selected validator_ids.1 is not an employee of this PBX.'] }],
        [[mine.id, other.id, mine.id], { 'validator_ids.2': ['The employee at validator_ids.2 is already listed at validator_ids.0.'] }],
        [
          [unknown, mine.id, unknown],
          {
            'validator_ids.0': ['The selected validator_ids.0 is not an employee of this PBX.'],
            'validator_ids.2': ['The employee at validator_ids.2 is already listed at validator_ids.0.'],
          },
        ],
        [eleven, { validator_ids: ['The validator ids field must not have more than 10 items.'] }],
        [[mine.id, 'anna'], { 'validator_ids.1': ['The validator ids.1 field must be a valid UUID.'] }],
        [null, { validator_ids: ['The validator ids field must be an array.'] }],
        [mine.id, { validator_ids: ['The validator ids field must be an array.'] }],
      ];
      const department = await createDepartment(t.ctx, admin.tenant);
      await call('PATCH', `${path}/${department.id}`, admin.token, { validator_ids: [other.id] });
      for (const [validatorIds, errors] of cases) {
        const label = JSON.stringify(validatorIds);
        const created = await call('POST', path, admin.token, { name: 'Refused', validator_ids: validatorIds });
        expect(created.statusCode, label).toBe(422);
        expect(created.json(), label).toEqual({ message: expect.any(String), errors });
        const patched = await call('PATCH', `${path}/${department.id}`, admin.token, { name: 'Changed', validator_ids: validatorIds });
        expect(patched.statusCode, label).toBe(422);
        expect(patched.json().errors, label).toEqual(errors);
      }
      // Nothing was written by a refused request.
      expect((await call('GET', `${path}/${department.id}`, admin.token)).json().data).toMatchObject({ name: department.name, validator_ids: [other.id] });
      expect(ids(await call('GET', `${path}?search=Refused`, admin.token))).toEqual([]);
    });

    it('only administrators and the PBX key set them', async () => {
      const admin = await createAdmin(t.ctx);
      const user = await createUser(t.ctx, { tenant: admin.tenant });
      const pbxKey = await createKey(t.ctx, admin.tenant, 'pbx');
      const employee = await createEmployee(t.ctx, admin.tenant);
      const department = await createDepartment(t.ctx, admin.tenant);
      const url = `/${admin.pbxId}/departments/${department.id}`;
      expect((await call('PATCH', url, user.token, { validator_ids: [employee.id] })).statusCode).toBe(403);
      const keyed = await call('PATCH', url, pbxKey, { validator_ids: [employee.id] });
      expect(keyed.statusCode).toBe(200);
      expect(keyed.json().data.validator_ids).toEqual([employee.id]);
    });
  });

  it('any user of the PBX reads departments; a plain user may not write them (403); no token is 401', async () => {
    const admin = await createAdmin(t.ctx);
    const user = await createUser(t.ctx, { tenant: admin.tenant });
    const pbxKey = await createKey(t.ctx, admin.tenant, 'pbx');
    const path = `/${admin.pbxId}/departments`;
    const department = await createDepartment(t.ctx, admin.tenant, { name: 'Support' });

    expect(ids(await call('GET', path, user.token))).toEqual([department.id]);
    expect((await call('GET', `${path}/${department.id}?include=company`, user.token)).json().data).toMatchObject({ name: 'Support', company: null });
    for (const [method, url, body] of [
      ['POST', path, { name: 'Mine' }],
      ['PATCH', `${path}/${department.id}`, { name: 'Mine' }],
      ['DELETE', `${path}/${department.id}`, undefined],
      ['POST', `${path}/${department.id}/restore`, undefined],
    ] as const) {
      expect((await call(method, url, user.token, body)).statusCode, `${method} ${url}`).toBe(403);
    }
    expect((await call('POST', path, pbxKey, { name: 'Keyed' })).statusCode).toBe(201);
    expect((await call('DELETE', `${path}/${department.id}`, pbxKey)).statusCode).toBe(204);
    expect((await t.app.inject({ method: 'GET', url: `/api/v1${path}/${department.id}` })).statusCode).toBe(401);
  });

  it("another PBX in the path is 403; another tenant's department under the caller's own PBX is 404", async () => {
    const admin = await createAdmin(t.ctx);
    const stranger = await createAdmin(t.ctx, await createTenant(t.ctx));
    const theirs = await createDepartment(t.ctx, stranger.tenant);
    for (const [method, url] of [
      ['GET', `/${stranger.pbxId}/departments`],
      ['GET', `/${stranger.pbxId}/departments/${theirs.id}`],
      ['DELETE', `/${stranger.pbxId}/departments/${theirs.id}`],
    ] as const) {
      expect((await call(method, url, admin.token)).statusCode, `${method} ${url}`).toBe(403);
    }
    expect((await call('POST', `/${stranger.pbxId}/departments`, admin.token, { name: 'Intruder' })).statusCode).toBe(403);
    for (const [method, url, body] of [
      ['GET', `/${admin.pbxId}/departments/${theirs.id}`, undefined],
      ['PATCH', `/${admin.pbxId}/departments/${theirs.id}`, { name: 'Intruder' }],
      ['DELETE', `/${admin.pbxId}/departments/${theirs.id}`, undefined],
      ['POST', `/${admin.pbxId}/departments/${theirs.id}/restore`, undefined],
    ] as const) {
      const missing = await call(method, url, admin.token, body);
      expect(missing.statusCode, `${method} ${url}`).toBe(404);
      expect(missing.json()).toEqual({ message: ['Department not found.'] });
    }
    expect((await call('GET', `/${admin.pbxId}/departments`, admin.token)).json().data).toEqual([]);
  });
});
