import { beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../../platform/clock.js';
import { apiCaller, useTestApp } from '../../../../../test/helpers.js';
import { createAdmin, createCompany, createDepartment, createEmployee, createTenant } from '../../../../../test/factories.js';
import { createWorkforceTenant, type WorkforceSetup } from '../../../../../test/workforce-factories.js';

/** 10:00 in Luxembourg on Sunday 15 March 2026. */
const NOW = '2026-03-15T09:00:00.000Z';

describe('user companies (employee-company contracts)', () => {
  const t = useTestApp({ clock: new ManualClock(NOW), env: { RATE_LIMIT_PER_MINUTE: '10000' } });
  const call = apiCaller(() => t);

  const contractsUrl = (s: WorkforceSetup, employeeId = s.employee.id) => `/${s.tenant.pbxId}/user/${employeeId}/user-companies`;
  /** Creates a contract as the administrator and returns its id. */
  const addContract = async (s: WorkforceSetup, body: Record<string, unknown>, employeeId = s.employee.id) => {
    const response = await call('POST', contractsUrl(s, employeeId), s.admin.token, body);
    expect(response.statusCode, response.body).toBe(201);
    return response.json().data.id as string;
  };
  const ids = (response: { json(): { data: Array<{ id: string }> } }) => response.json().data.map((row) => row.id);

  describe('GET /{pbx_id}/user/{employee_id}/user-companies', () => {
    let s: WorkforceSetup;
    let past: string;
    let current: string;
    let future: string;
    beforeAll(async () => {
      s = await createWorkforceTenant(t.ctx);
      past = await addContract(s, { company_id: s.company.id, contract_start: '2020-01-01', contract_end: '2023-12-31', main_company: 1, title: 'Driver' });
      current = await addContract(s, {
        company_id: s.company.id,
        department_id: s.department.id,
        contract_start: '2024-01-01',
        participation: 0.5,
        compensatory_balance: 5400,
        ho_balance: 12.5,
        leave_balance: 10.5,
        title: 'Dispatcher',
      });
      future = await addContract(s, { contract_start: '2027-01-01', contract_end: '2027-12-31' });
    });

    it("answers the contract's paginated envelope and fields, latest first, the active contract flagged main", async () => {
      const response = await call('GET', contractsUrl(s), s.worker.token);
      expect(response.statusCode).toBe(200);
      const body = response.json();
      expect(ids(response)).toEqual([future, current, past]);
      expect(body.data[1]).toEqual({
        id: current,
        mxvp_user_id: s.tenant.pbxId,
        ext_id: s.employee.ext_id,
        company_id: s.company.id,
        participation: 0.5,
        contract_start: '2024-01-01T00:00:00.000Z',
        contract_end: null,
        main_company: 1,
        compensatory_balance: 5400,
        ho_balance: 12.5,
        leave_balance: 10.5,
        title: 'Dispatcher',
        department_id: s.department.id,
        delete_date: null,
        company: {
          id: s.company.id,
          mxvp_user_id: s.tenant.pbxId,
          company: 'Acme Logistics S.à r.l.',
          address: '12 Rue de la Gare L-1611 Luxembourg',
          country_cc: 'LU',
          legalHolidays: 26,
          full_time: 144000,
          salary_lu_id: null,
          overtime_calculation_period_enabled: false,
          overtime_decision_enabled: false,
          delete_date: null,
        },
      });
      // The stored main flag is on the past contract; without filter[active] only the active one is flagged.
      expect(body.data.map((row: { main_company: number }) => row.main_company)).toEqual([0, 1, 0]);
      expect(body.data[0]).toMatchObject({
        contract_end: '2027-12-31T00:00:00.000Z',
        company_id: null,
        participation: null,
        title: null,
        compensatory_balance: 0,
        leave_balance: 0,
      });
      expect(body.data[0].company).toEqual({
        id: null,
        mxvp_user_id: null,
        company: null,
        address: null,
        country_cc: null,
        legalHolidays: null,
        full_time: null,
        salary_lu_id: null,
        overtime_calculation_period_enabled: null,
        overtime_decision_enabled: null,
        delete_date: null,
      });
      expect(body.links).toEqual({
        first: `http://pbx.test/api/v1${contractsUrl(s)}?page=1`,
        last: `http://pbx.test/api/v1${contractsUrl(s)}?page=1`,
        prev: null,
        next: null,
      });
      expect(body.meta).toMatchObject({
        current_page: 1,
        from: 1,
        last_page: 1,
        path: `http://pbx.test/api/v1${contractsUrl(s)}`,
        per_page: 15,
        to: 3,
        total: 3,
      });
    });

    it('pages with per_page and refuses perPage', async () => {
      const first = await call('GET', `${contractsUrl(s)}?per_page=2`, s.worker.token);
      expect(ids(first)).toEqual([future, current]);
      expect(first.json().meta).toMatchObject({ current_page: 1, per_page: 2, last_page: 2, from: 1, to: 2, total: 3 });
      expect(first.json().links.next).toBe(`http://pbx.test/api/v1${contractsUrl(s)}?per_page=2&page=2`);
      const second = await call('GET', `${contractsUrl(s)}?per_page=2&page=2`, s.worker.token);
      expect(ids(second)).toEqual([past]);
      // The flag is decided over every contract, not the page: the active one sits on page 1.
      expect(second.json().data[0].main_company).toBe(0);
      const wrong = await call('GET', `${contractsUrl(s)}?perPage=2`, s.worker.token);
      expect(wrong.statusCode).toBe(422);
      expect(wrong.json().errors).toEqual({ perPage: ['The perPage parameter is not accepted here; the page size is per_page.'] });
    });

    it('sorts by from and to, either way; open-ended contracts end last', async () => {
      expect(ids(await call('GET', `${contractsUrl(s)}?sort=from`, s.worker.token))).toEqual([past, current, future]);
      expect(ids(await call('GET', `${contractsUrl(s)}?sort=to`, s.worker.token))).toEqual([past, future, current]);
      expect(ids(await call('GET', `${contractsUrl(s)}?sort=-to`, s.worker.token))).toEqual([current, future, past]);
      const bad = await call('GET', `${contractsUrl(s)}?sort=title`, s.worker.token);
      expect(bad.statusCode).toBe(422);
      expect(Object.keys(bad.json().errors)).toEqual(['sort']);
    });

    it('filters by from, to and active (true, false, 1, 0); with filter[active] the stored flag shows', async () => {
      expect(ids(await call('GET', `${contractsUrl(s)}?filter[from]=2024-01-01`, s.worker.token))).toEqual([future, current]);
      // Contracts ending on or before: the open-ended one never ends.
      expect(ids(await call('GET', `${contractsUrl(s)}?filter[to]=2027-12-31`, s.worker.token))).toEqual([future, past]);
      expect(ids(await call('GET', `${contractsUrl(s)}?filter[from]=2020-01-01&filter[to]=2023-12-31`, s.worker.token))).toEqual([past]);
      for (const yes of ['true', '1']) {
        const active = await call('GET', `${contractsUrl(s)}?filter[active]=${yes}`, s.worker.token);
        expect(ids(active)).toEqual([current]);
        expect(active.json().data[0].main_company).toBe(0);
      }
      for (const no of ['false', '0']) {
        const inactive = await call('GET', `${contractsUrl(s)}?filter[active]=${no}`, s.worker.token);
        expect(ids(inactive)).toEqual([future, past]);
        expect(inactive.json().data.map((row: { main_company: number }) => row.main_company)).toEqual([0, 1]);
      }
    });

    it('refuses bad filters with 422 naming them', async () => {
      const cases: Array<[string, string]> = [
        ['filter[from]=2026-02-01&filter[to]=2026-01-31', 'filter[to]'],
        ['filter[from]=2026-02-30', 'filter[from]'],
        ['filter[to]=2026-01-01T00:00:00Z', 'filter[to]'],
        ['filter[active]=yes', 'filter[active]'],
        ['filter[trashed]=all', 'filter[trashed]'],
        ['page=0', 'page'],
      ];
      for (const [query, field] of cases) {
        const response = await call('GET', `${contractsUrl(s)}?${query}`, s.worker.token);
        expect(response.statusCode, query).toBe(422);
        expect(response.json(), query).toEqual({ message: expect.any(String), errors: { [field]: [expect.any(String)] } });
      }
      const reversed = await call('GET', `${contractsUrl(s)}?filter[from]=2026-02-01&filter[to]=2026-01-31`, s.worker.token);
      expect(reversed.json().errors['filter[to]']).toEqual(['The filter[to] must be a date after or equal to filter[from].']);
    });

    it('lets administrators and the PBX key read any employee; other users, other PBXs and no token are refused', async () => {
      expect(ids(await call('GET', contractsUrl(s), s.admin.token))).toEqual([future, current, past]);
      expect(ids(await call('GET', contractsUrl(s), s.pbxKey))).toEqual([future, current, past]);
      // Another employee's record, by a plain user with or without an employee record of their own.
      for (const token of [s.colleague.token, s.outsider.token]) {
        const refused = await call('GET', contractsUrl(s), token);
        expect(refused.statusCode).toBe(403);
        expect(refused.json()).toEqual({ message: expect.any(String) });
      }
      // No existence oracle for plain users: an unknown employee is 403 too.
      expect((await call('GET', contractsUrl(s, '00000000-0000-4000-8000-000000000000'), s.worker.token)).statusCode).toBe(403);
      const unknown = await call('GET', contractsUrl(s, '00000000-0000-4000-8000-000000000000'), s.admin.token);
      expect(unknown.statusCode).toBe(404);
      expect(unknown.json()).toEqual({ message: ['Employee not found.'] });
      const other = await createWorkforceTenant(t.ctx);
      expect((await call('GET', contractsUrl(s, other.employee.id), s.admin.token)).statusCode).toBe(404);
      expect((await call('GET', contractsUrl(other), s.admin.token)).statusCode).toBe(403);
      expect((await call('GET', contractsUrl(other), s.pbxKey)).statusCode).toBe(403);
      const anonymous = await t.app.inject({ method: 'GET', url: `/api/v1${contractsUrl(s)}` });
      expect(anonymous.statusCode).toBe(401);
      expect(anonymous.json()).toEqual({ error: expect.any(String) });
    });

    it('leaves deleted contracts out; administrators may ask for them with filter[trashed]', async () => {
      const gone = await addContract(s, { contract_start: '2019-01-01', contract_end: '2019-12-31' });
      expect((await call('DELETE', `/${s.tenant.pbxId}/user-companies/${gone}`, s.admin.token)).statusCode).toBe(204);
      expect(ids(await call('GET', contractsUrl(s), s.worker.token))).not.toContain(gone);
      const only = await call('GET', `${contractsUrl(s)}?filter[trashed]=only`, s.admin.token);
      expect(ids(only)).toEqual([gone]);
      expect(only.json().data[0].delete_date).toBe(NOW);
      expect(ids(await call('GET', `${contractsUrl(s)}?filter[trashed]=with&sort=from`, s.pbxKey))).toEqual([gone, past, current, future]);
      expect((await call('GET', `${contractsUrl(s)}?filter[trashed]=with`, s.worker.token)).statusCode).toBe(403);
    });
  });

  describe('which contract is shown as main', () => {
    it('among parallel active contracts: the stored main one, else the earliest started', async () => {
      const s = await createWorkforceTenant(t.ctx);
      const older = await addContract(s, { contract_start: '2024-01-01' });
      const newer = await addContract(s, { contract_start: '2025-01-01', participation: 0.2 });
      const flags = async () =>
        Object.fromEntries(
          (await call('GET', contractsUrl(s), s.worker.token)).json().data.map((row: { id: string; main_company: number }) => [row.id, row.main_company]),
        );
      expect(await flags()).toEqual({ [older]: 1, [newer]: 0 });
      await call('PATCH', `/${s.tenant.pbxId}/user-companies/${newer}`, s.admin.token, { main_company: true });
      expect(await flags()).toEqual({ [older]: 0, [newer]: 1 });
    });

    it("decides today in the PBX's time zone", async () => {
      const s = await createWorkforceTenant(t.ctx);
      // 23:30 UTC on 14 March is already 15 March in Luxembourg.
      t.clock.set('2026-03-14T23:30:00.000Z');
      try {
        const starting = await addContract(s, { contract_start: '2026-03-15' });
        const ending = await addContract(s, { contract_start: '2020-01-01', contract_end: '2026-03-14' });
        expect(ids(await call('GET', `${contractsUrl(s)}?filter[active]=true`, s.worker.token))).toEqual([starting]);
        expect(ids(await call('GET', `${contractsUrl(s)}?filter[active]=false`, s.worker.token))).toEqual([ending]);
      } finally {
        t.clock.set(NOW);
      }
    });

    it('flags nothing when no contract is active', async () => {
      const s = await createWorkforceTenant(t.ctx);
      await addContract(s, { contract_start: '2020-01-01', contract_end: '2020-12-31', main_company: 1 });
      expect((await call('GET', contractsUrl(s), s.worker.token)).json().data[0].main_company).toBe(0);
    });
  });

  describe('administration', () => {
    let s: WorkforceSetup;
    beforeAll(async () => {
      s = await createWorkforceTenant(t.ctx);
    });
    const one = (id: string) => `/${s.tenant.pbxId}/user-companies/${id}`;

    it('creates (201), reads, changes, deletes and restores a contract', async () => {
      const created = await call('POST', contractsUrl(s), s.admin.token, {
        company_id: s.company.id,
        department_id: s.department.id,
        contract_start: '2026-01-01',
        contract_end: '2026-12-31',
        participation: 1,
        main_company: 1,
        ho_balance: null,
        title: 'Dispatcher',
      });
      expect(created.statusCode).toBe(201);
      const id = created.json().data.id;
      expect(created.json().data).toMatchObject({
        id,
        ext_id: s.employee.ext_id,
        contract_start: '2026-01-01T00:00:00.000Z',
        contract_end: '2026-12-31T00:00:00.000Z',
        main_company: 1,
        compensatory_balance: 0,
        ho_balance: null,
        company: { id: s.company.id, company: 'Acme Logistics S.à r.l.' },
      });
      expect((await call('GET', one(id), s.admin.token)).json().data).toEqual(created.json().data);
      expect((await call('GET', one(id), s.pbxKey)).statusCode).toBe(200);

      const changed = await call('PATCH', one(id), s.admin.token, { contract_end: null, main_company: false, compensatory_balance: -3600, title: null });
      expect(changed.statusCode).toBe(200);
      expect(changed.json().data).toMatchObject({
        contract_end: null,
        main_company: 0,
        compensatory_balance: -3600,
        title: null,
        department_id: s.department.id,
      });

      expect((await call('DELETE', one(id), s.admin.token)).statusCode).toBe(204);
      expect((await call('GET', one(id), s.admin.token)).statusCode).toBe(404);
      expect((await call('DELETE', one(id), s.admin.token)).statusCode).toBe(404);
      const restored = await call('POST', `${one(id)}/restore`, s.pbxKey);
      expect(restored.statusCode).toBe(200);
      expect(restored.json().data).toMatchObject({ id, delete_date: null });
      expect((await call('POST', `${one(id)}/restore`, s.admin.token)).statusCode).toBe(404);
    });

    it('keeps leave_balance: 0 by default, set on create, changed by PATCH (negative and fractional too), kept when not sent', async () => {
      const fresh = await addContract(s, { contract_start: '2026-01-01' });
      expect((await call('GET', one(fresh), s.admin.token)).json().data.leave_balance).toBe(0);

      const id = await addContract(s, { contract_start: '2026-01-01', leave_balance: 26 });
      expect((await call('GET', one(id), s.admin.token)).json().data.leave_balance).toBe(26);
      const overdrawn = await call('PATCH', one(id), s.admin.token, { leave_balance: -1.5 });
      expect(overdrawn.statusCode).toBe(200);
      expect(overdrawn.json().data.leave_balance).toBe(-1.5);
      expect((await call('PATCH', one(id), s.admin.token, { title: 'Driver' })).json().data).toMatchObject({ title: 'Driver', leave_balance: -1.5 });
      expect((await call('PATCH', one(id), s.admin.token, { leave_balance: 12.25 })).json().data.leave_balance).toBe(12.25);
      // The employee reads it in the list.
      const listed = (await call('GET', contractsUrl(s), s.worker.token)).json().data.find((row: { id: string }) => row.id === id);
      expect(listed.leave_balance).toBe(12.25);
      const refused = await call('PATCH', one(id), s.admin.token, { leave_balance: null });
      expect(refused.statusCode).toBe(422);
      expect(Object.keys(refused.json().errors)).toEqual(['leave_balance']);
    });

    it('keeps at most one stored main contract per employee', async () => {
      const e = await createEmployee(t.ctx, s.tenant);
      const a = await addContract(s, { contract_start: '2024-01-01', main_company: true }, e.id);
      const b = await addContract(s, { contract_start: '2025-01-01', main_company: 1 }, e.id);
      const stored = async (id: string) => (await call('GET', one(id), s.admin.token)).json().data.main_company;
      expect([await stored(a), await stored(b)]).toEqual([0, 1]);
      // A deleted main contract comes back without the flag when another became main meanwhile.
      await call('DELETE', one(b), s.admin.token);
      await call('PATCH', one(a), s.admin.token, { main_company: true });
      expect((await call('POST', `${one(b)}/restore`, s.admin.token)).json().data.main_company).toBe(0);
      expect(await stored(a)).toBe(1);
      // Other employees keep theirs.
      expect((await call('GET', contractsUrl(s, e.id), s.admin.token)).json().meta.total).toBe(2);
    });

    it('validates the body (422 with the fields named)', async () => {
      const foreign = await createCompany(t.ctx, await createTenant(t.ctx));
      const otherCompany = await createCompany(t.ctx, s.tenant);
      const otherDepartment = await createDepartment(t.ctx, s.tenant, { company_id: otherCompany.id });
      const cases: Array<[Record<string, unknown>, string[]]> = [
        [{}, ['contract_start']],
        [{ contract_start: '2026-01-01T00:00:00Z' }, ['contract_start']],
        [{ contract_start: '2026-02-01', contract_end: '2026-01-31' }, ['contract_end']],
        [{ contract_start: '2026-01-01', participation: 0 }, ['participation']],
        [{ contract_start: '2026-01-01', participation: 1.5 }, ['participation']],
        [{ contract_start: '2026-01-01', company_id: foreign.id }, ['company_id']],
        [{ contract_start: '2026-01-01', company_id: s.company.id, department_id: otherDepartment.id }, ['department_id']],
        [{ contract_start: '2026-01-01', title: 'x'.repeat(256) }, ['title']],
        [{ contract_start: '2026-01-01', main_company: 'yes' }, ['main_company']],
        [{ contract_start: '2026-01-01', main_company: 2 }, ['main_company']],
        [{ contract_start: '2026-01-01', compensatory_balance: 1.5 }, ['compensatory_balance']],
        [{ contract_start: '2026-01-01', compensatory_balance: null }, ['compensatory_balance']],
        [{ contract_start: '2026-01-01', ho_balance: 'many' }, ['ho_balance']],
        [{ contract_start: '2026-01-01', leave_balance: 'many' }, ['leave_balance']],
        [{ contract_start: '2026-01-01', leave_balance: null }, ['leave_balance']],
        [{ contract_start: '2026-01-01', employee_id: s.colleagueEmployee.id }, ['employee_id']],
      ];
      for (const [body, fields] of cases) {
        const response = await call('POST', contractsUrl(s), s.admin.token, body);
        expect(response.statusCode, JSON.stringify(body)).toBe(422);
        expect(response.json(), JSON.stringify(body)).toEqual({ message: expect.any(String), errors: expect.any(Object) });
        expect(Object.keys(response.json().errors), JSON.stringify(body)).toEqual(fields);
      }
      const id = await addContract(s, { contract_start: '2026-01-01', contract_end: '2026-06-30' });
      const patched = await call('PATCH', one(id), s.admin.token, { contract_start: '2026-07-01' });
      expect(patched.statusCode).toBe(422);
      expect(patched.json().errors).toEqual({ contract_end: ['The contract end must be a date after or equal to contract start.'] });
    });

    it('is for administrators and the PBX key; another tenant is 403 by path and 404 by id', async () => {
      const id = await addContract(s, { contract_start: '2026-01-01' });
      for (const [method, url, body] of [
        ['POST', contractsUrl(s), { contract_start: '2026-01-01' }],
        ['GET', one(id), undefined],
        ['PATCH', one(id), { title: 'Boss' }],
        ['DELETE', one(id), undefined],
        ['POST', `${one(id)}/restore`, undefined],
      ] as const) {
        const response = await call(method, url, s.worker.token, body);
        expect(response.statusCode, `${method} ${url}`).toBe(403);
        expect((await t.app.inject({ method, url: `/api/v1${url}` })).statusCode, `${method} ${url}`).toBe(401);
      }
      expect((await call('POST', contractsUrl(s), s.pbxKey, { contract_start: '2026-01-01' })).statusCode).toBe(201);
      expect((await call('POST', contractsUrl(s, '00000000-0000-4000-8000-000000000000'), s.admin.token, { contract_start: '2026-01-01' })).statusCode).toBe(
        404,
      );

      const stranger = await createAdmin(t.ctx, await createTenant(t.ctx));
      expect((await call('GET', one(id), stranger.token)).statusCode).toBe(403);
      expect((await call('GET', `/${stranger.pbxId}/user-companies/${id}`, stranger.token)).json()).toEqual({ message: ['Contract not found.'] });
      expect((await call('PATCH', `/${stranger.pbxId}/user-companies/${id}`, stranger.token, { title: 'x' })).statusCode).toBe(404);
      expect((await call('DELETE', `/${stranger.pbxId}/user-companies/${id}`, stranger.token)).statusCode).toBe(404);
      expect((await call('POST', `/${stranger.pbxId}/user/${s.employee.id}/user-companies`, stranger.token, { contract_start: '2026-01-01' })).statusCode).toBe(
        404,
      );
    });
  });
});
