import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../platform/clock.js';
import { apiCaller, useTestApp } from '../../../../test/helpers.js';
import { createAdmin, createTenant, createUser } from '../../../../test/factories.js';
import { createDemoOrganisation } from '../../../../test/workforce-factories.js';
import { seedWorkforceTime } from '../index.js';

/** The seed's clock: 15 March 2026, so "last year" is 2025. */
const NOW = '2026-03-15T09:00:00.000Z';

describe('workforce time demo seed', () => {
  const t = useTestApp({ clock: new ManualClock(NOW), env: { RATE_LIMIT_PER_MINUTE: '10000' } });
  const call = apiCaller(() => t);

  /** A demo tenant with the organisation the workforce organisation seed makes, and logins for its linked people. */
  async function demoTenant(name: string, plan: 'acme' | 'globex', extIds: [string, string]) {
    const tenant = await createTenant(t.ctx, { name });
    const admin = await createAdmin(t.ctx, tenant);
    const member = await createUser(t.ctx, { tenant });
    await createDemoOrganisation(t.ctx, tenant, plan, { [extIds[0]]: admin.id, [extIds[1]]: member.id });
    const samples = await seedWorkforceTime(t.ctx, {
      pbxId: tenant.pbxId,
      index: plan === 'acme' ? 0 : 1,
      countryCode: plan === 'acme' ? 'LU' : 'DE',
      admin,
      users: [admin, member],
    });
    const employee = async (extId: string) =>
      (await t.ctx.db.selectFrom('employees').select('id').where('pbx_id', '=', tenant.pbxId).where('ext_id', '=', extId).executeTakeFirstOrThrow()).id;
    return { tenant, admin, member, samples, employee };
  }

  it("Acme: Luc's part-time contract and 50 % shift, Marie's two contracts, Paul's ended last June, the holidays", async () => {
    const acme = await demoTenant('Acme Logistics S.à r.l.', 'acme', ['A-1001', 'A-1002']);
    const pbx = acme.tenant.pbxId;
    const luc = await acme.employee('A-1002');
    expect(Object.keys(acme.samples).sort()).toEqual(['contract', 'holiday', 'work_shift', 'work_shift_assignment']);

    const lucsContracts = await call('GET', `/${pbx}/user/${luc}/user-companies`, acme.member.token);
    expect(lucsContracts.json().data).toEqual([
      expect.objectContaining({
        id: acme.samples.contract,
        ext_id: 'A-1002',
        participation: 0.5,
        contract_start: '2023-09-01T00:00:00.000Z',
        contract_end: null,
        main_company: 1,
        title: 'Customer Service Agent',
        // Half of Luxembourg's 26 days, less the 2 he took.
        leave_balance: 26,
        company: expect.objectContaining({ company: 'Acme Logistics S.à r.l.', address: '12 Rue de la Gare L-1611 Luxembourg', country_cc: 'LU' }),
      }),
    ]);
    const assignment = await call('GET', `/${pbx}/work-shift-assignments/${String(acme.samples.work_shift_assignment)}?include=work_shift`, acme.admin.token);
    expect(assignment.json().data).toMatchObject({
      employee_id: luc,
      valid_from: '2023-09-01',
      valid_until: null,
      work_shift: { name: 'Part time 50 %', weekly_seconds: 72000 },
    });
    // Luc's week around Christmas 2026: 4 hours a day, the recurring half day on the 24th, Christmas off.
    expect((await call('GET', `/${pbx}/user/${luc}/required-work-time?filter[from]=2026-12-21&filter[to]=2026-12-27`, acme.member.token)).json()).toEqual({
      '2026-12-21': 14400,
      '2026-12-22': 14400,
      '2026-12-23': 14400,
      '2026-12-24': 7200,
      '2026-12-25': 0,
      '2026-12-26': 0,
      '2026-12-27': 0,
    });

    const shifts = await call('GET', `/${pbx}/work-shifts`, acme.admin.token);
    expect(shifts.json().data.map((s: { name: string; weekly_seconds: number }) => [s.name, s.weekly_seconds])).toEqual([
      ['Full time 40 h', 144000],
      ['Part time 3 days', 86400],
      ['Part time 50 %', 72000],
    ]);
    expect(shifts.json().data[0].id).toBe(acme.samples.work_shift);

    const marie = await call('GET', `/${pbx}/user/${await acme.employee('A-1003')}/user-companies?sort=from`, acme.admin.token);
    expect(
      marie
        .json()
        .data.map((c: { contract_start: string; contract_end: string | null; main_company: number; company: { company: string } }) => [
          c.company.company,
          c.contract_start.slice(0, 10),
          c.contract_end?.slice(0, 10) ?? null,
          c.main_company,
        ]),
    ).toEqual([
      ['Acme Logistik GmbH', '2022-01-01', '2024-12-31', 0],
      ['Acme Logistics S.à r.l.', '2025-01-01', null, 1],
    ]);
    // The ended contract was settled; the current one starts with two years of 26 days.
    expect(marie.json().data.map((c: { leave_balance: number }) => c.leave_balance)).toEqual([0, 52]);
    const paul = await call('GET', `/${pbx}/user/${await acme.employee('A-1004')}/user-companies?filter[active]=false`, acme.admin.token);
    expect(paul.json().data.map((c: { contract_end: string }) => c.contract_end)).toEqual(['2025-06-30T00:00:00.000Z']);
    const tom = await call('GET', `/${pbx}/user/${await acme.employee('A-1006')}/work-shift-assignments?include=work_shift`, acme.admin.token);
    expect(tom.json().data[0].work_shift.name).toBe('Part time 3 days');
    // 60 % of 26 days is 15.6, rounded to the half day, for two years.
    expect((await call('GET', `/${pbx}/user/${await acme.employee('A-1006')}/user-companies`, acme.admin.token)).json().data[0].leave_balance).toBe(31);

    const holidays = await call('GET', `/${pbx}/holidays`, acme.admin.token);
    expect(
      holidays
        .json()
        .data.map((h: { date: string; name: string; half_day: boolean; recurring: boolean; company_id: string | null }) => [
          h.date,
          h.half_day,
          h.recurring,
          h.company_id === null,
        ]),
    ).toEqual([
      ['2020-12-24', true, true, true],
      ['2026-09-11', false, false, false], // the second Friday of September of the seed's year
    ]);
    expect(holidays.json().data[0].id).toBe(acme.samples.holiday);
  });

  it('Globex: its five employees on the German calendar of North Rhine-Westphalia', async () => {
    const globex = await demoTenant('Globex Handels GmbH', 'globex', ['B-2001', 'B-2002']);
    const pbx = globex.tenant.pbxId;
    const jonas = await globex.employee('B-2002');
    expect((await call('GET', `/${pbx}/user/${jonas}/user-companies`, globex.member.token)).json().data[0]).toMatchObject({
      id: globex.samples.contract,
      participation: 0.5,
      main_company: 1,
      company: { company: 'Globex Handels GmbH', country_cc: 'DE' },
    });
    // Fronleichnam (4 June 2026) is a holiday in NW; Epiphany is not.
    expect(
      Object.values((await call('GET', `/${pbx}/user/${jonas}/required-work-time?filter[from]=2026-06-04&filter[to]=2026-06-05`, globex.member.token)).json()),
    ).toEqual([0, 14400]);
    expect((await call('GET', `/${pbx}/user/${jonas}/required-work-time?filter[from]=2026-01-06&filter[to]=2026-01-06`, globex.member.token)).json()).toEqual({
      '2026-01-06': 14400,
    });
    for (const extId of ['B-2001', 'B-2003', 'B-2004', 'B-2005'])
      expect((await call('GET', `/${pbx}/user/${await globex.employee(extId)}/user-companies`, globex.admin.token)).json().meta.total, extId).toBeGreaterThan(
        0,
      );
  });

  it('fails loudly when the organisation seed has not run', async () => {
    const tenant = await createTenant(t.ctx, { name: 'Acme Logistics S.à r.l.' });
    const admin = await createAdmin(t.ctx, tenant);
    await expect(seedWorkforceTime(t.ctx, { pbxId: tenant.pbxId, index: 0, countryCode: 'LU', admin, users: [admin] })).rejects.toThrow(
      'seedWorkforceTime: the tenant has no employee with ext_id A-1001',
    );
    const unknown = await createTenant(t.ctx, { name: 'Initech' });
    await expect(seedWorkforceTime(t.ctx, { pbxId: unknown.pbxId, index: 1, countryCode: 'LU', admin, users: [admin] })).rejects.toThrow('no workforce plan');
  });
});
