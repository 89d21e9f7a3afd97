import { describe, expect, it } from 'vitest';
import { ManualClock } from '../platform/clock.js';
import { apiCaller, useTestApp } from '../../test/helpers.js';
import { createAdmin, createUser } from '../../test/factories.js';
import { seedWorkforce } from './workforce-bench.js';

describe('the workforce benchmark seed', () => {
  const t = useTestApp({ clock: new ManualClock('2026-03-15T09:00:00.000Z') });
  const call = apiCaller(() => t);

  it('gives the measured reads real answers: two contracts per employee, the current one main, 40-hour weeks', async () => {
    const admin = await createAdmin(t.ctx);
    const member = await createUser(t.ctx, { tenant: admin.tenant });
    const seeded = await seedWorkforce(t.ctx.db, t.ctx.dialect, admin.pbxId, member.id, 40);
    const contracts = await call('GET', `/${admin.pbxId}/user/${seeded.listedEmployeeId}/user-companies?per_page=15`, admin.token);
    expect(contracts.json().meta.total).toBe(2);
    expect(contracts.json().data.map((c: { main_company: number }) => c.main_company)).toEqual([1, 0]);
    const week = await call(
      'GET',
      `/${admin.pbxId}/user/${seeded.ownEmployeeId}/required-work-time?filter[from]=2026-03-02&filter[to]=2026-03-08`,
      member.token,
    );
    expect(Object.values(week.json())).toEqual([14400, 28800, 28800, 28800, 28800, 0, 0]);
    const employees = await t.ctx.db
      .selectFrom('employees')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('pbx_id', '=', admin.pbxId)
      .executeTakeFirstOrThrow();
    expect(Number(employees.n)).toBe(40);
  });
});
