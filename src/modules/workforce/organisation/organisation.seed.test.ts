import { randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiCaller, useTestApp } from '../../../../test/helpers.js';
import { seedDemo, type DemoTenant } from '../../../demo-seed.js';
import { issueUserToken } from '../../../platform/auth/tokens.js';

const DATA_DIR = `/tmp/pbx-api-workforce-seed-${process.pid}-${randomUUID().slice(0, 8)}`;

describe('workforce demo seed', () => {
  let tenants: DemoTenant[];
  // Registered before useTestApp(), so it runs after the app is closed (after-hooks run in reverse).
  afterAll(() => {
    rmSync(DATA_DIR, { recursive: true, force: true });
  });
  const t = useTestApp({ env: { DATA_DIR, JOB_WORKER: 'false', AMI_EVENTS: 'false' } });
  beforeAll(async () => {
    tenants = (await seedDemo(t.ctx)).seed.tenants;
  });

  const call = apiCaller(() => t);
  const adminToken = (tenant: DemoTenant) =>
    issueUserToken(t.ctx.db, t.ctx.clock, { id: tenant.admin.id, pbx_id: tenant.pbx_id }, { name: 'test', ttlSeconds: 3600 });

  it("seeds Acme's companies, departments and employees, each demo user (the disabled one too) linked to its employee", async () => {
    const acme = tenants.find((tenant) => tenant.name === 'Acme Logistics S.à r.l.')!;
    const token = await adminToken(acme);
    const companies = (await call('GET', `/${acme.pbx_id}/companies`, token)).json().data;
    expect(
      companies.map((c: { company: string; country_cc: string; region: string | null; legalHolidays: number }) => [
        c.company,
        c.country_cc,
        c.region,
        c.legalHolidays,
      ]),
    ).toEqual([
      ['Acme Logistics S.à r.l.', 'LU', null, 26],
      ['Acme Logistik GmbH', 'DE', 'BY', 30],
    ]);
    expect(companies[0]).toMatchObject({ id: acme.samples.company, address: '12 Rue de la Gare L-1611 Luxembourg', full_time: 144000 });
    expect(companies[1].address).toBe('Leopoldstraße 10 80802 München');

    const departments = (await call('GET', `/${acme.pbx_id}/departments?include=company`, token)).json().data;
    expect(departments.map((d: { name: string; company: { company: string } }) => [d.name, d.company.company])).toEqual([
      ['Customer Service', 'Acme Logistics S.à r.l.'],
      ['Dispatch', 'Acme Logistics S.à r.l.'],
      ['Warehouse', 'Acme Logistik GmbH'],
    ]);
    expect(departments.find((d: { name: string }) => d.name === 'Dispatch').id).toBe(acme.samples.department);

    const employees: Array<{ id: string; ext_id: string; fullName: string; user_id: string | null }> = (
      await call('GET', `/${acme.pbx_id}/employees?sort=ext_id`, token)
    ).json().data;
    expect(employees.map((e) => [e.ext_id, e.fullName])).toEqual([
      ['A-1001', 'Anna Schmit'],
      ['A-1002', 'Luc Weber'],
      ['A-1003', 'Marie Hoffmann'],
      ['A-1004', 'Paul Muller'],
      ['A-1005', 'Sophie Klein'],
      ['A-1006', 'Tom Reuter'],
    ]);
    const byExt = new Map(employees.map((e) => [e.ext_id, e]));
    expect(acme.samples.employee).toBe(byExt.get('A-1002')!.id);
    // Each department names its head as validator: Anna for Dispatch and Customer Service, Marie for the warehouse.
    expect(departments.map((d: { name: string; validator_ids: string[] }) => [d.name, d.validator_ids])).toEqual([
      ['Customer Service', [byExt.get('A-1001')!.id]],
      ['Dispatch', [byExt.get('A-1001')!.id]],
      ['Warehouse', [byExt.get('A-1003')!.id]],
    ]);
    // The seed JSON's users carry their employee: the admin Anna, then Luc and Marie.
    expect(acme.users.map((u) => u.employee_id)).toEqual(['A-1001', 'A-1002', 'A-1003'].map((ext) => byExt.get(ext)!.id));
    expect(['A-1001', 'A-1002', 'A-1003'].map((ext) => byExt.get(ext)!.user_id)).toEqual(acme.users.map((u) => u.id));
    const paul = await t.ctx.db
      .selectFrom('users')
      .select(['id', 'status', 'employee_id'])
      .where('email', '=', acme.disabled_user.email)
      .executeTakeFirstOrThrow();
    expect(paul).toMatchObject({ status: 'disabled', employee_id: byExt.get('A-1004')!.id });
    expect(byExt.get('A-1005')!.user_id).toBeNull();
    expect(byExt.get('A-1006')!.user_id).toBeNull();

    const luc = acme.users[1];
    const lucToken = await issueUserToken(t.ctx.db, t.ctx.clock, { id: luc.id, pbx_id: acme.pbx_id }, { name: 'test', ttlSeconds: 3600 });
    expect((await call('GET', '/me', lucToken)).json().data.employee_id).toBe(acme.samples.employee);
  });

  it('seeds Globex with its own company, departments and people', async () => {
    const globex = tenants.find((tenant) => tenant.name === 'Globex Handels GmbH')!;
    const token = await adminToken(globex);
    const companies = (await call('GET', `/${globex.pbx_id}/companies`, token)).json().data;
    expect(companies).toEqual([
      expect.objectContaining({
        id: globex.samples.company,
        company: 'Globex Handels GmbH',
        country_cc: 'DE',
        region: 'NW',
        address: 'Hohe Straße 52 50667 Köln',
      }),
    ]);
    const departments = (await call('GET', `/${globex.pbx_id}/departments?filter[company_id]=${globex.samples.company as string}`, token)).json().data;
    expect(departments.map((d: { name: string }) => d.name)).toEqual(['Sales', 'Support']);
    expect(departments[0].id).toBe(globex.samples.department);
    const employees: Array<{ id: string; ext_id: string; fullName: string; user_id: string | null }> = (
      await call('GET', `/${globex.pbx_id}/employees?sort=ext_id`, token)
    ).json().data;
    expect(employees.map((e) => [e.ext_id, e.fullName, e.user_id !== null])).toEqual([
      ['B-2001', 'Greta Vogel', true],
      ['B-2002', 'Jonas Becker', true],
      ['B-2003', 'Lena Schneider', true],
      ['B-2004', 'Karl Fischer', true],
      ['B-2005', 'Nina Wolf', false],
    ]);
    expect(globex.samples.employee).toBe(employees[1].id);
    // Greta heads Sales; Support has two validators, its lead Lena first, then Greta.
    expect(departments.map((d: { validator_ids: string[] }) => d.validator_ids)).toEqual([[employees[0].id], [employees[2].id, employees[0].id]]);
    expect(globex.users.map((u) => u.employee_id)).toEqual(employees.slice(0, 3).map((e) => e.id));
    // Each tenant sees only its own organisation.
    const acme = tenants.find((tenant) => tenant.name === 'Acme Logistics S.à r.l.')!;
    expect((await call('GET', `/${globex.pbx_id}/companies/${acme.samples.company as string}`, token)).statusCode).toBe(404);
  });
});
