import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../../platform/clock.js';
import { apiCaller, useTestApp } from '../../../../../test/helpers.js';
import { createAdmin, createCompany, createEmployee, createTenant } from '../../../../../test/factories.js';
import { createWorkforceTenant, type WorkforceSetup } from '../../../../../test/workforce-factories.js';
import { approvedAbsenceSeconds } from '../../absences/index.js';
import { requiredWorkTime, type AbsenceLedger } from './required-work-time.js';

const NOW = '2026-03-15T09:00:00.000Z';
const FULL_TIME = { monday: 28800, tuesday: 28800, wednesday: 28800, thursday: 28800, friday: 28800 };

describe('required work time', () => {
  const t = useTestApp({ clock: new ManualClock(NOW), env: { RATE_LIMIT_PER_MINUTE: '10000' } });
  const call = apiCaller(() => t);

  const post = async (s: WorkforceSetup, url: string, body: Record<string, unknown>) => {
    const response = await call('POST', `/${s.tenant.pbxId}${url}`, s.admin.token, body);
    expect(response.statusCode, response.body).toBe(201);
    return response.json().data.id as string;
  };
  const shift = (s: WorkforceSetup, name: string, days: Record<string, number>) => post(s, '/work-shifts', { name, ...days });
  const contract = (s: WorkforceSetup, body: Record<string, unknown>, employeeId = s.employee.id) => post(s, `/user/${employeeId}/user-companies`, body);
  const assign = (s: WorkforceSetup, body: Record<string, unknown>, employeeId = s.employee.id) => post(s, `/user/${employeeId}/work-shift-assignments`, body);
  const holiday = (s: WorkforceSetup, body: Record<string, unknown>) => post(s, '/holidays', body);
  const url = (s: WorkforceSetup, from: string, to: string, employeeId = s.employee.id) =>
    `/${s.tenant.pbxId}/user/${employeeId}/required-work-time?filter[from]=${from}&filter[to]=${to}`;
  const required = async (s: WorkforceSetup, from: string, to: string) => {
    const response = await call('GET', url(s, from, to), s.worker.token);
    expect(response.statusCode, response.body).toBe(200);
    return response.json<Record<string, number>>();
  };

  /** A full-timer of the Luxembourg company since 2024, on the 40-hour week. */
  async function fullTimer() {
    const s = await createWorkforceTenant(t.ctx);
    await contract(s, { company_id: s.company.id, contract_start: '2024-01-01', participation: 1 });
    await assign(s, { work_shift_id: await shift(s, 'Full time 40 h', FULL_TIME), valid_from: '2024-01-01' });
    return s;
  }

  it("answers a flat object with every day of the range; Luxembourg's Ascension is a day off", async () => {
    const s = await fullTimer();
    const response = await call('GET', url(s, '2026-05-11', '2026-05-17'), s.worker.token);
    expect(response.statusCode).toBe(200);
    // No envelope, the days in order.
    expect(response.body).toBe('{"2026-05-11":28800,"2026-05-12":28800,"2026-05-13":28800,"2026-05-14":0,"2026-05-15":28800,"2026-05-16":0,"2026-05-17":0}');
  });

  it('halves the day for a half-day holiday, rounding down; a full-day one clears it', async () => {
    const s = await createWorkforceTenant(t.ctx);
    await contract(s, { company_id: s.company.id, contract_start: '2024-01-01' });
    await assign(s, { work_shift_id: await shift(s, 'Odd', { ...FULL_TIME, thursday: 28801 }), valid_from: '2024-01-01' });
    await holiday(s, { date: '2020-12-24', name: 'Christmas Eve', half_day: true, recurring: true });
    await holiday(s, { date: '2026-12-23', name: 'Company day', company_id: s.company.id });
    // An event of another company of the tenant does not count.
    await holiday(s, { date: '2026-12-22', name: 'Elsewhere', company_id: (await createCompany(t.ctx, s.tenant)).id });
    expect(await required(s, '2026-12-21', '2026-12-27')).toEqual({
      '2026-12-21': 28800,
      '2026-12-22': 28800,
      '2026-12-23': 0,
      '2026-12-24': 14400, // Thursday: 28801 halved, rounded down
      '2026-12-25': 0,
      '2026-12-26': 0,
      '2026-12-27': 0,
    });
    // The recurring half day comes back the next year (a Friday in 2027).
    expect((await required(s, '2027-12-24', '2027-12-24'))['2027-12-24']).toBe(14400);
  });

  it("a part-timer's days: the 3-day pattern and the 50 % pattern, halved on a half-day holiday", async () => {
    const s = await createWorkforceTenant(t.ctx);
    await contract(s, { company_id: s.company.id, contract_start: '2024-09-01', participation: 0.6 });
    await assign(s, { work_shift_id: await shift(s, 'Part time 3 days', { monday: 28800, tuesday: 28800, wednesday: 28800 }), valid_from: '2024-09-01' });
    expect(Object.values(await required(s, '2026-03-02', '2026-03-08'))).toEqual([28800, 28800, 28800, 0, 0, 0, 0]);

    const half = await createWorkforceTenant(t.ctx);
    await contract(half, { company_id: half.company.id, contract_start: '2023-09-01', participation: 0.5 });
    await assign(half, {
      work_shift_id: await shift(half, 'Part time 50 %', { monday: 14400, tuesday: 14400, wednesday: 14400, thursday: 14400, friday: 14400 }),
      valid_from: '2023-09-01',
    });
    await holiday(half, { date: '2026-03-06', name: 'Afternoon off', half_day: true });
    expect(Object.values(await required(half, '2026-03-02', '2026-03-08'))).toEqual([14400, 14400, 14400, 14400, 7200, 0, 0]);
  });

  it('counts 0 outside every contract and before any assignment, contract boundaries inside the range', async () => {
    const s = await createWorkforceTenant(t.ctx);
    const fullTime = await shift(s, 'Full time 40 h', FULL_TIME);
    const halfTime = await shift(s, 'Half', { monday: 14400, tuesday: 14400, wednesday: 14400, thursday: 14400, friday: 14400 });
    await contract(s, { company_id: s.company.id, contract_start: '2026-03-03', contract_end: '2026-03-12' });
    await contract(s, { company_id: s.company.id, contract_start: '2026-03-16' });
    await assign(s, { work_shift_id: fullTime, valid_from: '2026-03-04', valid_until: '2026-03-10' });
    await assign(s, { work_shift_id: halfTime, valid_from: '2026-03-11' });
    expect(await required(s, '2026-03-02', '2026-03-17')).toEqual({
      '2026-03-02': 0, // before the first contract (a Monday)
      '2026-03-03': 0, // under contract, no assignment yet
      '2026-03-04': 28800,
      '2026-03-05': 28800,
      '2026-03-06': 28800,
      '2026-03-07': 0,
      '2026-03-08': 0,
      '2026-03-09': 28800,
      '2026-03-10': 28800,
      '2026-03-11': 14400, // the next assignment
      '2026-03-12': 14400, // the contract's last day
      '2026-03-13': 0, // between contracts
      '2026-03-14': 0,
      '2026-03-15': 0,
      '2026-03-16': 14400,
      '2026-03-17': 14400,
    });
  });

  it("with parallel contracts, the holidays of the main contract's company count, else the earliest started", async () => {
    const s = await createWorkforceTenant(t.ctx);
    const bavaria = await createCompany(t.ctx, s.tenant, { country_cc: 'DE', region: 'BY' });
    await assign(s, { work_shift_id: await shift(s, 'Full time 40 h', FULL_TIME), valid_from: '2025-01-01' });
    const luxembourg = await contract(s, { company_id: s.company.id, contract_start: '2025-06-01' });
    const munich = await contract(s, { company_id: bavaria.id, contract_start: '2025-01-01', participation: 0.5 });
    // 6 January 2026 (a Tuesday) is Epiphany in Bavaria only; 9 May 2025 Europe Day in Luxembourg only (a Friday).
    expect((await required(s, '2026-01-06', '2026-01-06'))['2026-01-06']).toBe(0);
    expect((await required(s, '2025-05-09', '2025-05-09'))['2025-05-09']).toBe(28800);
    await call('PATCH', `/${s.tenant.pbxId}/user-companies/${luxembourg}`, s.admin.token, { main_company: 1 });
    expect((await required(s, '2026-01-06', '2026-01-06'))['2026-01-06']).toBe(28800);
    // Before the Luxembourg contract starts, the Bavarian one alone governs (main or not).
    expect((await required(s, '2025-01-06', '2025-01-06'))['2025-01-06']).toBe(0);
    await call('PATCH', `/${s.tenant.pbxId}/user-companies/${munich}`, s.admin.token, { main_company: true });
    expect((await required(s, '2026-01-06', '2026-01-06'))['2026-01-06']).toBe(0);
  });

  it('leaves deleted contracts, assignments and holidays out', async () => {
    const s = await createWorkforceTenant(t.ctx);
    const c = await contract(s, { company_id: s.company.id, contract_start: '2026-01-01' });
    const a = await assign(s, { work_shift_id: await shift(s, 'Full time 40 h', FULL_TIME), valid_from: '2026-01-01' });
    const h = await holiday(s, { date: '2026-03-02', name: 'Off' });
    expect(Object.values(await required(s, '2026-03-02', '2026-03-03'))).toEqual([0, 28800]);
    await call('DELETE', `/${s.tenant.pbxId}/holidays/${h}`, s.admin.token);
    expect(Object.values(await required(s, '2026-03-02', '2026-03-03'))).toEqual([28800, 28800]);
    await call('DELETE', `/${s.tenant.pbxId}/work-shift-assignments/${a}`, s.admin.token);
    expect(Object.values(await required(s, '2026-03-02', '2026-03-03'))).toEqual([0, 0]);
    await call('POST', `/${s.tenant.pbxId}/work-shift-assignments/${a}/restore`, s.admin.token);
    await call('DELETE', `/${s.tenant.pbxId}/user-companies/${c}`, s.admin.token);
    expect(Object.values(await required(s, '2026-03-02', '2026-03-03'))).toEqual([0, 0]);
  });

  it('answers 100 days (both ends counted) and refuses 101; both bounds are required dates, to not before from (422)', async () => {
    const s = await fullTimer();
    const hundred = await required(s, '2026-01-01', '2026-04-10');
    expect(Object.keys(hundred)).toHaveLength(100);
    expect(Object.keys(hundred)[99]).toBe('2026-04-10');
    expect(Object.keys(await required(s, '2026-01-01', '2026-01-01'))).toEqual(['2026-01-01']);
    const base = `/${s.tenant.pbxId}/user/${s.employee.id}/required-work-time`;
    for (const [query, field] of [
      ['filter[from]=2026-01-01&filter[to]=2026-04-11', 'filter[to]'],
      ['filter[from]=2026-02-01&filter[to]=2026-01-31', 'filter[to]'],
      ['filter[to]=2026-01-31', 'filter[from]'],
      ['filter[from]=2026-01-01', 'filter[to]'],
      ['filter[from]=2026-01-01T00:00:00Z&filter[to]=2026-01-31', 'filter[from]'],
      ['filter[from]=2026-01-01&filter[to]=2026-02-30', 'filter[to]'],
    ]) {
      const response = await call('GET', `${base}?${query}`, s.worker.token);
      expect(response.statusCode, query).toBe(422);
      expect(response.json(), query).toEqual({ message: expect.any(String), errors: { [field]: [expect.any(String)] } });
    }
    const tooLong = await call('GET', `${base}?filter[from]=2026-01-01&filter[to]=2026-04-11`, s.worker.token);
    expect(tooLong.json().errors['filter[to]']).toEqual(['The range may span at most 100 days, both ends counted.']);
    const both = await call('GET', base, s.worker.token);
    expect(Object.keys(both.json().errors).sort()).toEqual(['filter[from]', 'filter[to]']);
  });

  it('is for the employee itself only: administrators, colleagues, users without a record, unknown ids, keys and other PBXs are 403', async () => {
    const s = await fullTimer();
    const refusals: Array<[string, string]> = [
      ['administrator', s.admin.token],
      ['colleague', s.colleague.token],
      ['user without an employee record', s.outsider.token],
      ['PBX API key', s.pbxKey],
    ];
    for (const [who, token] of refusals) {
      const response = await call('GET', url(s, '2026-03-02', '2026-03-08'), token);
      expect(response.statusCode, who).toBe(403);
      expect(response.json(), who).toEqual({ message: expect.any(String) });
    }
    // An administrator linked to an employee may read its own.
    const adminEmployee = await createEmployee(t.ctx, s.tenant, { userId: s.admin.id });
    expect((await call('GET', url(s, '2026-03-02', '2026-03-08', adminEmployee.id), s.admin.token)).statusCode).toBe(200);
    // No existence oracle: an unknown id and another tenant's employee answer like another employee.
    const other = await createWorkforceTenant(t.ctx);
    for (const employeeId of ['00000000-0000-4000-8000-000000000000', other.employee.id, s.colleagueEmployee.id])
      expect((await call('GET', url(s, '2026-03-02', '2026-03-08', employeeId), s.worker.token)).statusCode, employeeId).toBe(403);
    // Another PBX in the path, even for one's own employee id.
    expect((await call('GET', url(other, '2026-03-02', '2026-03-08', s.employee.id), s.worker.token)).statusCode).toBe(403);
    const stranger = await createAdmin(t.ctx, await createTenant(t.ctx));
    expect((await call('GET', url(s, '2026-03-02', '2026-03-08'), stranger.token)).statusCode).toBe(403);
    const anonymous = await t.app.inject({ method: 'GET', url: `/api/v1${url(s, '2026-03-02', '2026-03-08')}` });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json()).toEqual({ error: expect.any(String) });
    // A deleted employee record is no record.
    await t.ctx.db.updateTable('employees').set({ deleted_at: NOW }).where('id', '=', s.employee.id).execute();
    expect((await call('GET', url(s, '2026-03-02', '2026-03-08'), s.worker.token)).statusCode).toBe(403);
  });

  describe('approved absences (the ledger)', () => {
    it('an employee without absence requests has nothing approved', async () => {
      const s = await createWorkforceTenant(t.ctx);
      expect(await approvedAbsenceSeconds(t.ctx.db, s.tenant, s.employee.id, '2026-01-01', '2026-12-31')).toEqual(new Map());
    });

    it('reduces each day by its approved absence, never below zero, after the holidays', async () => {
      const s = await fullTimer();
      await holiday(s, { date: '2026-03-05', name: 'Half', half_day: true });
      const asked: unknown[] = [];
      const ledger: AbsenceLedger = async (_db, tenant, employeeId, from, to) => {
        asked.push([tenant.pbxId, employeeId, from, to]);
        return new Map([
          ['2026-03-02', 3600],
          ['2026-03-03', 28800],
          ['2026-03-04', 40000],
          ['2026-03-05', 10000],
          ['2026-03-07', 7200],
        ]);
      };
      expect(await requiredWorkTime(t.ctx.db, s.tenant, s.employee.id, '2026-03-02', '2026-03-08', ledger)).toEqual({
        '2026-03-02': 25200,
        '2026-03-03': 0,
        '2026-03-04': 0, // more absence than work: 0, not negative
        '2026-03-05': 4400, // half day 14400, minus 10000
        '2026-03-06': 28800,
        '2026-03-07': 0, // a Saturday: nothing to reduce
        '2026-03-08': 0,
      });
      expect(asked).toEqual([[s.tenant.pbxId, s.employee.id, '2026-03-02', '2026-03-08']]);
    });

    it('the real ledger: accepted absences (half days too) and those being taken back reduce it; pending, home office, removed, rejected and canceled do not', async () => {
      const s = await fullTimer();
      const pbx = `/${s.tenant.pbxId}`;
      const asked = async (body: Record<string, unknown>) => {
        const response = await call('POST', `${pbx}/user/${s.employee.id}/absence-requests`, s.worker.token, body);
        expect(response.statusCode, response.body).toBe(201);
        return response.json<{ data: { id: string } }>().data.id;
      };
      const moved = async (id: string, move: string, token = s.admin.token) => {
        const response = await call('POST', `${pbx}/absence-requests/${id}/${move}`, token);
        expect(response.statusCode, response.body).toBe(move === 'removal' ? 201 : 200);
        return response.json<{ data: { id: string } }>().data.id;
      };
      const day = (type: string, date: string, extra: Record<string, unknown> = {}) => asked({ type, start: date, end: date, ...extra });

      await moved(await day('legal', '2026-04-13'), 'approve');
      await moved(await day('legal', '2026-04-14', { starts_half_day: true }), 'approve');
      await day('legal', '2026-04-15'); // pending
      const homeOffice = await call('POST', `${pbx}/user/${s.employee.id}/home-office-requests`, s.worker.token, { dates: ['2026-04-16'] });
      expect(homeOffice.statusCode, homeOffice.body).toBe(201);
      await moved(homeOffice.json<{ data: Array<{ id: string }> }>().data[0].id, 'approve');
      // Accepted, with a removal pending: still away.
      await moved(await moved(await day('illness', '2026-04-17'), 'approve'), 'removal', s.worker.token);
      // Accepted, then removed (its accepted removal row holds no days either).
      const removal = await moved(await moved(await day('special', '2026-04-20'), 'approve'), 'removal', s.worker.token);
      await moved(removal, 'approve');
      await moved(await day('legal', '2026-04-21'), 'reject');
      await moved(await day('overtime_balance', '2026-04-22', { ends_half_day: true }), 'approve');
      await moved(await day('legal', '2026-04-23'), 'cancel', s.worker.token);

      expect(await required(s, '2026-04-13', '2026-04-24')).toEqual({
        '2026-04-13': 0, // accepted legal absence
        '2026-04-14': 14400, // accepted afternoon off
        '2026-04-15': 28800, // pending
        '2026-04-16': 28800, // home office is work
        '2026-04-17': 0, // pending_removal still counts
        '2026-04-18': 0,
        '2026-04-19': 0,
        '2026-04-20': 28800, // removed
        '2026-04-21': 28800, // rejected
        '2026-04-22': 14400, // half a day off against overtime
        '2026-04-23': 28800, // canceled
        '2026-04-24': 28800,
      });
      // The ledger itself, over part of the range: only the days it reduces.
      expect(await approvedAbsenceSeconds(t.ctx.db, s.tenant, s.employee.id, '2026-04-14', '2026-04-22')).toEqual(
        new Map([
          ['2026-04-14', 14400],
          ['2026-04-17', 28800],
          ['2026-04-22', 14400],
        ]),
      );
      // Another tenant's employee with the same days is untouched.
      const other = await fullTimer();
      expect((await required(other, '2026-04-13', '2026-04-13'))['2026-04-13']).toBe(28800);
    });
  });
});
