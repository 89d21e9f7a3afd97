import { describe, expect, it } from 'vitest';
import { ManualClock } from '../platform/clock.js';
import { apiCaller, useTestApp } from '../../test/helpers.js';
import { createAdmin, createCompany, createEmployee, createUser } from '../../test/factories.js';
import { monthOf, seedHomeOffice } from './home-office-bench.js';

describe('the home-office calendar benchmark seed', () => {
  const t = useTestApp({ clock: new ManualClock('2026-03-15T09:00:00.000Z') });
  const call = apiCaller(() => t);

  it('knows the month of a day', () => {
    expect(monthOf('2026-03-15')).toEqual({ from: '2026-03-01', to: '2026-03-31' });
    expect(monthOf('2028-02-29')).toEqual({ from: '2028-02-01', to: '2028-02-29' });
    expect(monthOf('2026-12-01')).toEqual({ from: '2026-12-01', to: '2026-12-31' });
  });

  it('gives the measured read a real answer: the month’s live home-office rows of every employee, in mixed statuses', async () => {
    const admin = await createAdmin(t.ctx);
    const member = await createUser(t.ctx, { tenant: admin.tenant });
    const seeded = await seedHomeOffice(t.ctx.db, t.ctx.dialect, admin.pbxId, member.id, '2026-03-15', 30);
    expect(seeded.month).toEqual({ from: '2026-03-01', to: '2026-03-31' });
    // About two home-office days a week and a few absences, a year of them per employee.
    expect(seeded.rows).toBeGreaterThan(30 * 52 * 1.5);
    expect(seeded.rows).toBeLessThan(30 * 52 * 2.5);

    const response = await call('GET', `/${admin.pbxId}/calendar/home-office?filter[from]=2026-03-01&filter[to]=2026-03-31`, member.token);
    expect(response.statusCode, response.body).toBe(200);
    const entries = response.json<Array<{ start: string; status: string; employee_id: string }>>();
    expect(entries).toHaveLength(seeded.monthEntries);
    expect(entries.length).toBeGreaterThan(30 * 4);
    expect(new Set(entries.map((entry) => entry.employee_id)).size).toBe(30);
    expect(entries.every((entry) => entry.start >= '2026-03-01' && entry.start <= '2026-03-31')).toBe(true);
    expect(new Set(entries.map((entry) => entry.status))).toEqual(new Set(['approved', 'pending', 'pending_removal']));

    const statuses = await t.ctx.db
      .selectFrom('absence_requests')
      .select(['type', 'sub_type', 'status'])
      .where('pbx_id', '=', admin.pbxId)
      .groupBy(['type', 'sub_type', 'status'])
      .execute();
    const kinds = statuses.map((row) => `${row.type}${row.sub_type ? `/${row.sub_type}` : ''} ${row.status}`).sort();
    for (const kind of [
      'absence approved',
      'illness approved',
      'home_office approved',
      'home_office pending',
      'home_office rejected',
      'home_office cancelled',
      'home_office removed',
      'home_office pending_removal',
      'home_office/removal approved',
      'home_office/removal pending',
    ])
      expect(kinds).toContain(kind);
  });

  it('gives a demo user linked to another company’s employee a contract with the bench company', async () => {
    const admin = await createAdmin(t.ctx);
    const member = await createUser(t.ctx, { tenant: admin.tenant });
    const demoCompany = await createCompany(t.ctx, admin.tenant);
    const own = await createEmployee(t.ctx, admin.tenant, { userId: member.id });
    expect(
      (await call('POST', `/${admin.pbxId}/user/${own.id}/user-companies`, admin.token, { company_id: demoCompany.id, contract_start: '2025-01-01' }))
        .statusCode,
    ).toBe(201);
    const seeded = await seedHomeOffice(t.ctx.db, t.ctx.dialect, admin.pbxId, member.id, '2026-03-15', 3);
    expect(seeded.ownEmployeeId).toBe(own.id);
    expect(seeded.employeeIds).not.toContain(own.id);
    const response = await call('GET', `/${admin.pbxId}/calendar/home-office?filter[from]=2026-03-01&filter[to]=2026-03-31`, member.token);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toHaveLength(seeded.monthEntries);
  });
});
