import { randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../platform/clock.js';
import { apiCaller, buildTestApp, type TestApp } from '../../../../test/helpers.js';
import { seedDemo, type DemoTenant } from '../../../demo-seed.js';
import { issueUserToken } from '../../../platform/auth/tokens.js';
import { seedAbsences } from '../index.js';

/** The seed's clock: Sunday 15 March 2026, 10:00 in Luxembourg; "last year" is 2025, the coming month 16 March to 15 April. */
const NOW = '2026-03-15T09:00:00.000Z';
const DATA_DIR = `/tmp/pbx-api-absences-seed-${process.pid}-${randomUUID().slice(0, 8)}`;
const STATUSES = ['pending', 'accepted', 'rejected', 'canceled', 'pending_removal', 'removed'];

interface Row {
  id: string;
  employee_id: string;
  ext_id: string;
  type: string;
  sub_type: string | null;
  status: string;
  start: string;
  end: string;
  working_days: number;
  total_seconds: number;
  requested_time: Record<string, number>;
  comment: string | null;
  accepted_by: Array<{ employee_id: string | null; status: string }>;
  request_group_id: string | null;
  removal_of_id: string | null;
  adjustment: { tr_type: string } | null;
}

async function seededApp(now: string): Promise<{ t: TestApp; tenants: DemoTenant[] }> {
  const t = await buildTestApp({
    clock: new ManualClock(now),
    env: { DATA_DIR: `${DATA_DIR}/${randomUUID()}`, JOB_WORKER: 'false', AMI_EVENTS: 'false', RATE_LIMIT_PER_MINUTE: '100000' },
  });
  return { t, tenants: (await seedDemo(t.ctx)).seed.tenants };
}

describe('absence and home-office demo seed', () => {
  let t: TestApp;
  let acme: DemoTenant;
  let globex: DemoTenant;
  beforeAll(async () => {
    const seeded = await seededApp(NOW);
    t = seeded.t;
    [acme, globex] = seeded.tenants;
  });
  afterAll(async () => {
    await t.close();
    rmSync(DATA_DIR, { recursive: true, force: true });
  });

  const call = apiCaller(() => t);
  const tokenOf = (tenant: DemoTenant, userId: string) =>
    issueUserToken(t.ctx.db, t.ctx.clock, { id: userId, pbx_id: tenant.pbx_id }, { name: 'test', ttlSeconds: 3600 });
  /** Every row of the tenant, as its PBX key reads them (oldest first). */
  async function rowsOf(app: TestApp, tenant: DemoTenant): Promise<Row[]> {
    const response = await apiCaller(() => app)('GET', `/${tenant.pbx_id}/absence-requests?sort=start,created&perPage=100&page=1`, tenant.pbx_api_key);
    expect(response.statusCode).toBe(200);
    const { data, meta } = response.json<{ data: Row[]; meta: { total: number; last_page: number } }>();
    const rest: Row[] = [];
    for (let page = 2; page <= meta.last_page; page++)
      rest.push(
        ...(await apiCaller(() => app)('GET', `/${tenant.pbx_id}/absence-requests?sort=start,created&perPage=100&page=${page}`, tenant.pbx_api_key)).json<{
          data: Row[];
        }>().data,
      );
    expect(data.length + rest.length).toBe(meta.total);
    // The requests this seed made: the balance adjustments of the recurring-transaction seed's runs are that seed's (recurring.seed.test.ts).
    return [...data, ...rest].filter((row) => row.adjustment === null);
  }
  const employeeIds = async (tenant: DemoTenant) =>
    new Map(
      (await t.ctx.db.selectFrom('employees').select(['ext_id', 'id']).where('pbx_id', '=', tenant.pbx_id).execute()).map((row) => [row.ext_id!, row.id]),
    );

  it('publishes an accepted legal absence, a home-office row and a pending request of the first demo user, read back through the API', async () => {
    for (const tenant of [acme, globex]) {
      const { absence_request: accepted, home_office_request: homeOffice, pending_absence: pending } = tenant.samples as Record<string, string>;
      const member = tenant.users[1];
      const token = await tokenOf(tenant, member.id);

      const legal = await call('GET', `/${tenant.pbx_id}/absence-requests/${accepted}`, token);
      expect(legal.statusCode).toBe(200);
      expect(legal.json().data).toMatchObject({
        id: accepted,
        absence_request_id: accepted,
        employee_id: member.employee_id,
        type: 'legal',
        sub_type: null,
        status: 'accepted',
        // The summer week of last year: Monday 4 to Friday 8 August 2025, the part-timer's own 4-hour days.
        start: '2025-08-04T00:00:00.000Z',
        end: '2025-08-09T00:00:00.000Z',
        working_days: 5,
        total_seconds: 5 * 14400,
        workshift_seconds_per_day: 14400,
        comment: 'Summer holidays',
      });
      expect(legal.json().data.accepted_by.every((entry: { status: string }) => entry.status === 'accepted')).toBe(true);

      const office = await call('GET', `/${tenant.pbx_id}/absence-requests/${homeOffice}`, token);
      expect(office.statusCode).toBe(200);
      expect(office.json().data).toMatchObject({
        employee_id: member.employee_id,
        type: 'home_office',
        status: 'accepted',
        working_days: 1,
        total_seconds: 14400,
      });
      expect(office.json().data.request_group_id).toEqual(expect.any(String));
      expect(office.json().data.start >= '2026-03-16').toBe(true);

      const queued = await call('GET', `/${tenant.pbx_id}/absence-requests/${pending}`, token);
      expect(queued.json().data).toMatchObject({ employee_id: member.employee_id, type: 'legal', status: 'pending' });
      expect(queued.json().data.start >= '2026-03-29').toBe(true);
      // Another tenant's administrator does not see them.
      const other = tenant === acme ? globex : acme;
      expect((await call('GET', `/${other.pbx_id}/absence-requests/${accepted}`, await tokenOf(other, other.admin.id))).statusCode).toBe(404);
    }
    // A colleague who decides nothing of Luc's (Marie validates the warehouse) does not see his request.
    const marie = await tokenOf(acme, acme.users[2].id);
    expect((await call('GET', `/${acme.pbx_id}/absence-requests/${acme.samples.absence_request as string}`, marie)).statusCode).toBe(404);
  });

  it('has every status, type and move for every employee with a current contract, and nothing for those whose contract ended', async () => {
    for (const tenant of [acme, globex]) {
      const rows = await rowsOf(t, tenant);
      const ids = await employeeIds(tenant);
      const current = tenant === acme ? ['A-1001', 'A-1002', 'A-1003', 'A-1005', 'A-1006'] : ['B-2001', 'B-2002', 'B-2003', 'B-2005'];
      expect([...new Set(rows.map((row) => row.ext_id))].sort()).toEqual(current);
      for (const extId of current) {
        const own = rows.filter((row) => row.employee_id === ids.get(extId));
        expect([...new Set(own.map((row) => row.status))].sort(), extId).toEqual([...STATUSES].sort());
        expect([...new Set(own.map((row) => row.type))].sort(), extId).toEqual(['home_office', 'illness', 'legal', 'special']);
        // The removed request and its accepted removal row; the one taken back now and its pending removal row.
        const removed = own.find((row) => row.status === 'removed')!;
        expect(own.filter((row) => row.removal_of_id === removed.id).map((row) => [row.sub_type, row.status])).toEqual([['removal', 'accepted']]);
        const takenBack = own.find((row) => row.status === 'pending_removal')!;
        expect(own.filter((row) => row.removal_of_id === takenBack.id).map((row) => [row.sub_type, row.status])).toEqual([['removal', 'pending']]);
        // A half day, and the Christmas leave around the 24th's half day and the public holidays.
        expect(
          own.some((row) => row.type === 'legal' && row.status === 'accepted' && row.working_days === 0.5),
          extId,
        ).toBe(true);
        const christmas = own.find((row) => row.comment === 'Christmas with the family')!;
        expect(christmas).toMatchObject({ status: 'accepted', start: '2025-12-22T00:00:00.000Z' });
        expect(Object.keys(christmas.requested_time)).not.toContain('2025-12-25');
        // No two live rows share a working day.
        const live = own.filter((row) => row.sub_type === null && ['pending', 'accepted', 'pending_removal'].includes(row.status));
        const days = live.flatMap((row) => Object.keys(row.requested_time));
        expect(new Set(days).size, extId).toBe(days.length);
      }
      for (const row of rows) expect(row.start >= '2025-07-01' && row.start < '2026-07-01', row.id).toBe(true);
    }
    // The part-timers' days: a 4-hour day of Luc's is one working day, a week of Tom's Monday-to-Wednesday pattern three.
    const rows = await rowsOf(t, acme);
    const ids = await employeeIds(acme);
    const summer = (extId: string) => rows.find((row) => row.employee_id === ids.get(extId) && row.comment === 'Summer holidays')!;
    expect([summer('A-1002').working_days, summer('A-1002').total_seconds]).toEqual([5, 72000]);
    expect([summer('A-1006').working_days, summer('A-1006').total_seconds, summer('A-1006').end]).toEqual([3, 86400, '2025-08-07T00:00:00.000Z']);
  });

  it("leaves Jonas's request half approved: Lena accepted, Greta's entry still pending, and the admins can approve the pending sample", async () => {
    const ids = await employeeIds(globex);
    const rows = await rowsOf(t, globex);
    const half = rows.filter((row) => row.status === 'pending' && row.accepted_by.some((entry) => entry.status === 'accepted'));
    expect(half).toHaveLength(1);
    expect(half[0]).toMatchObject({
      employee_id: ids.get('B-2002'),
      type: 'special',
      accepted_by: [
        { employee_id: ids.get('B-2003'), status: 'accepted' },
        { employee_id: ids.get('B-2001'), status: 'pending' },
      ],
    });
    const lena = await tokenOf(globex, globex.users[2].id);
    const greta = await tokenOf(globex, globex.admin.id);
    const awaiting = async (token: string) =>
      (await call('GET', `/${globex.pbx_id}/absence-requests?filter[awaiting_me]=1&perPage=100`, token)).json<{ data: Row[] }>().data.map((row) => row.id);
    expect(await awaiting(lena)).not.toContain(half[0].id);
    expect(await awaiting(greta)).toContain(half[0].id);

    // The pending samples are decided by the demo admins (Anna as an administrator, Greta as one).
    for (const tenant of [acme, globex]) {
      const approved = await call(
        'POST',
        `/${tenant.pbx_id}/absence-requests/${tenant.samples.pending_absence as string}/approve`,
        await tokenOf(tenant, tenant.admin.id),
      );
      expect(approved.statusCode).toBe(200);
      expect(approved.json().data).toMatchObject({ id: tenant.samples.pending_absence, status: 'accepted' });
    }
  });

  it("debits balances as the API would: leave_balance is the time seed's less the granted legal days, ho_balance less the accepted home-office days", async () => {
    const anna = acme.users[0];
    const luc = acme.users[1];
    const rows = await rowsOf(t, acme);
    const granted = (employeeId: string, type: string) =>
      rows
        .filter((row) => row.employee_id === employeeId && row.type === type && row.sub_type === null && ['accepted', 'pending_removal'].includes(row.status))
        .reduce((sum, row) => sum + row.working_days, 0);
    const contract = async (employeeId: string) =>
      (await call('GET', `/${acme.pbx_id}/user/${employeeId}/user-companies?filter[active]=true`, acme.pbx_api_key)).json().data[0] as {
        leave_balance: number;
        ho_balance: number | null;
      };
    // The time seed's balances: two years' allotment, Anna 2 x 26, Luc 2 x 13; home office 20 and 10.
    expect(granted(luc.employee_id!, 'legal')).toBeGreaterThan(10);
    expect(await contract(luc.employee_id!)).toMatchObject({
      leave_balance: 26 - granted(luc.employee_id!, 'legal'),
      ho_balance: 10 - granted(luc.employee_id!, 'home_office'),
    });
    expect(await contract(anna.employee_id!)).toMatchObject({
      leave_balance: 52 - granted(anna.employee_id!, 'legal'),
      ho_balance: 20 - granted(anna.employee_id!, 'home_office'),
    });
  });

  it("fills the home-office calendar of the coming month, pending and approved, for each company's people", async () => {
    const names = async (tenant: DemoTenant, userId: string) => {
      const response = await call('GET', `/${tenant.pbx_id}/calendar/home-office?filter[from]=2026-03-16&filter[to]=2026-04-15`, await tokenOf(tenant, userId));
      expect(response.statusCode).toBe(200);
      const entries = response.json<Array<{ employee_name: string; status: string; start: string }>>();
      expect(new Set(entries.map((entry) => entry.status))).toEqual(new Set(['pending', 'approved']));
      for (const entry of entries) expect(entry.start >= '2026-03-16' && entry.start <= '2026-04-15').toBe(true);
      return [...new Set(entries.map((entry) => entry.employee_name))].sort();
    };
    // Luc's company (Luxembourg): Anna, Luc, Marie, Tom; Sophie works for the Munich company.
    expect(await names(acme, acme.users[1].id)).toEqual(['Anna Schmit', 'Luc Weber', 'Marie Hoffmann', 'Tom Reuter']);
    expect(await names(globex, globex.users[1].id)).toEqual(['Greta Vogel', 'Jonas Becker', 'Lena Schneider', 'Nina Wolf']);
    const ids = await employeeIds(acme);
    const sophie = (await rowsOf(t, acme)).filter((row) => row.employee_id === ids.get('A-1005') && row.type === 'home_office');
    expect(sophie.length).toBeGreaterThan(0);
    // One or two days a week over four weeks (none in a week the employee is away: Tom's three days of the week from 30 March are a pending leave), each request one group.
    for (const tenant of [acme, globex]) {
      const homeOffice = (await rowsOf(t, tenant)).filter((row) => row.type === 'home_office');
      for (const employeeId of new Set(homeOffice.map((row) => row.employee_id))) {
        const own = homeOffice.filter((row) => row.employee_id === employeeId);
        expect(own.length).toBeGreaterThanOrEqual(3);
        expect(own.length).toBeLessThanOrEqual(8);
        expect(new Set(own.map((row) => row.request_group_id)).size).toBe(1);
        expect(own.filter((row) => row.status === 'accepted')).toHaveLength(2);
      }
    }
  });

  it('seeds the same rows for the same clock', async () => {
    // Rows made at the same instant tie on every sort: compare them as a sorted list.
    const shape = (rows: Row[]) =>
      rows
        .map((row) =>
          JSON.stringify([
            row.ext_id,
            row.type,
            row.sub_type,
            row.status,
            row.start,
            row.end,
            row.working_days,
            row.total_seconds,
            row.comment,
            row.accepted_by.map((entry) => entry.status),
          ]),
        )
        .sort();
    const again = await seededApp(NOW);
    try {
      for (const [i, tenant] of again.tenants.entries()) {
        const first = [acme, globex][i];
        // The first app's pending samples were approved above; the rest is the same.
        const before = shape((await rowsOf(t, first)).filter((row) => row.id !== first.samples.pending_absence));
        const after = shape((await rowsOf(again.t, tenant)).filter((row) => row.id !== tenant.samples.pending_absence));
        expect(after).toEqual(before);
      }
    } finally {
      await again.t.close();
    }
  });

  // Awkward todays: New Year's Day already in Luxembourg (23:30 UTC), Christmas Eve, a leap day.
  it.each(['2026-12-31T23:30:00.000Z', '2026-12-24T08:00:00.000Z', '2028-02-29T12:00:00.000Z'])('seeds every status when today is %s', async (now) => {
    const seeded = await seededApp(now);
    try {
      for (const tenant of seeded.tenants) {
        const statuses = new Set((await rowsOf(seeded.t, tenant)).map((row) => row.status));
        expect([...statuses].sort(), tenant.name).toEqual([...STATUSES].sort());
        expect(tenant.samples).toMatchObject({
          absence_request: expect.any(String),
          pending_absence: expect.any(String),
          home_office_request: expect.any(String),
        });
      }
    } finally {
      await seeded.t.close();
    }
  });

  it('fails loudly on a tenant without the workforce seeds', async () => {
    const pbx = await t.ctx.db.selectFrom('pbxes').select('id').where('id', '=', acme.pbx_id).executeTakeFirstOrThrow();
    await t.ctx.db.updateTable('employee_contracts').set({ deleted_at: '2026-03-15T09:00:00.000Z' }).where('pbx_id', '=', pbx.id).execute();
    await expect(seedAbsences(t.ctx, { pbxId: pbx.id, index: 0, countryCode: 'LU', admin: acme.admin, users: acme.users })).rejects.toThrow(
      'seedAbsences: the tenant has no employee with a current contract',
    );
  });
});
