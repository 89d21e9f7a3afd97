import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';
import { Type } from '@sinclair/typebox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../../platform/clock.js';
import { apiCaller, buildTestApp, type TestApp } from '../../../../../test/helpers.js';
import { createAdmin, createCompany, createDepartment, createEmployee, createTenant, createUser } from '../../../../../test/factories.js';
import { createWorkforceTenant, type WorkforceSetup } from '../../../../../test/workforce-factories.js';
import { HomeOfficeCalendarEntry } from './home-office.schemas.js';

/** Sunday 15 March 2026, 10:00 in Luxembourg: the tenant's today is 2026-03-15. */
const NOW = '2026-03-15T09:00:00.000Z';
const FULL_TIME = { monday: 28800, tuesday: 28800, wednesday: 28800, thursday: 28800, friday: 28800 };
const PART_TIME_4H = { monday: 14400, tuesday: 14400, wednesday: 14400, thursday: 14400, friday: 14400 };
const UNKNOWN = '00000000-0000-4000-8000-000000000000';

describe('home office', () => {
  let t: TestApp;
  let clock: ManualClock;
  beforeAll(async () => {
    clock = new ManualClock(NOW);
    t = await buildTestApp({ clock, env: { RATE_LIMIT_PER_MINUTE: '10000' } });
  });
  afterAll(() => t.close());
  const call = apiCaller(() => t);

  const post = async (s: WorkforceSetup, url: string, body: Record<string, unknown>) => {
    const response = await call('POST', `/${s.tenant.pbxId}${url}`, s.admin.token, body);
    expect(response.statusCode, response.body).toBe(201);
    return response.json().data.id as string;
  };
  let shifts = 0;
  const shift = (s: WorkforceSetup, days: Record<string, number>) => post(s, '/work-shifts', { name: `Shift ${++shifts}`, ...days });
  /** A contract with the tenant's company (in its department unless told) and the shift from the same day. */
  async function employ(
    s: WorkforceSetup,
    employeeId: string,
    options: { days?: Record<string, number>; start?: string; end?: string | null; [k: string]: unknown } = {},
  ) {
    const { days = FULL_TIME, start = '2025-01-01', end = null, ...contract } = options;
    const contractId = await post(s, `/user/${employeeId}/user-companies`, {
      company_id: s.company.id,
      department_id: s.department.id,
      contract_start: start,
      contract_end: end,
      ...contract,
    });
    await post(s, `/user/${employeeId}/work-shift-assignments`, { work_shift_id: await shift(s, days), valid_from: start });
    return contractId;
  }
  /** The worker and its colleague, full-timers of the Luxembourg company's Dispatch department since 2025. */
  async function office() {
    const s = await createWorkforceTenant(t.ctx);
    await employ(s, s.employee.id);
    await employ(s, s.colleagueEmployee.id);
    return s;
  }

  const requestsUrl = (s: WorkforceSetup, employeeId = s.employee.id) => `/${s.tenant.pbxId}/user/${employeeId}/home-office-requests`;
  const ask = (s: WorkforceSetup, body: Record<string, unknown>, token = s.worker.token, employeeId = s.employee.id) =>
    call('POST', requestsUrl(s, employeeId), token, body);
  async function booked(s: WorkforceSetup, dates: string[], token = s.worker.token, employeeId = s.employee.id) {
    const response = await ask(s, { dates }, token, employeeId);
    expect(response.statusCode, response.body).toBe(201);
    return response.json().data as Array<Record<string, unknown> & { id: string }>;
  }
  const rowCount = async (s: WorkforceSetup) =>
    Number(
      (
        await t.ctx.db
          .selectFrom('absence_requests')
          .select((eb) => eb.fn.countAll().as('n'))
          .where('pbx_id', '=', s.tenant.pbxId)
          .executeTakeFirstOrThrow()
      ).n,
    );
  const move = async (s: WorkforceSetup, id: string, action: 'approve' | 'reject' | 'cancel' | 'removal', token = s.admin.token) => {
    const response = await call('POST', `/${s.tenant.pbxId}/absence-requests/${id}/${action}`, token);
    expect(response.statusCode, response.body).toBe(action === 'removal' ? 201 : 200);
    return response.json().data as { id: string; status: string };
  };

  describe('POST /{pbx_id}/user/{employee_id}/home-office-requests', () => {
    it('creates one pending home_office row per date, in date order, sharing a request_group_id (201)', async () => {
      const s = await office();
      // The department names the colleague as its validator: each row gets its entry.
      expect(
        (await call('PATCH', `/${s.tenant.pbxId}/departments/${s.department.id}`, s.admin.token, { validator_ids: [s.colleagueEmployee.id] })).statusCode,
      ).toBe(200);
      const response = await ask(s, { dates: ['2026-03-18', '2026-03-16'], comment: 'Plumber coming' });
      expect(response.statusCode, response.body).toBe(201);
      const body = response.json();
      expect(Object.keys(body)).toEqual(['data']);
      expect(body.data).toHaveLength(2);
      const [first, second] = body.data;
      expect(first).toEqual({
        id: expect.any(String),
        mxvp_user_id: s.tenant.pbxId,
        employee_id: s.employee.id,
        requester_id: s.employee.id,
        creator_id: s.employee.id,
        ext_id: s.employee.ext_id,
        company_id: s.company.id,
        absence_request_id: first.id,
        holiday_id: null,
        status: 'pending',
        type: 'home_office',
        sub_type: null,
        start: '2026-03-16T00:00:00.000Z',
        end: '2026-03-17T00:00:00.000Z',
        requested_time: { '2026-03-16': 28800 },
        working_days: 1,
        total_seconds: 28800,
        workshift_seconds_per_day: 28800,
        is_half_day: false,
        starts_half_day: false,
        ends_half_day: false,
        start_time: null,
        end_time: null,
        working_day_details: [{ date: '2026-03-16', seconds: 28800, is_half_day: false, start_time: null, end_time: null }],
        comment: 'Plumber coming',
        accepted_by: [{ employee_id: s.colleagueEmployee.id, status: 'pending' }],
        next_availability: null,
        request_group_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        removal_of_id: null,
        adjustment: null,
        recurring_transaction_id: null,
        created: NOW,
        modified: NOW,
      });
      expect(second).toMatchObject({ start: '2026-03-18T00:00:00.000Z', requested_time: { '2026-03-18': 28800 }, comment: 'Plumber coming' });
      expect(second.request_group_id).toBe(first.request_group_id);
      expect(second.id).not.toBe(first.id);
      // Working days are written whole.
      expect(response.body).toContain('"working_days":1,');

      // Another request is another group; the comment may be left out (null).
      const next = await booked(s, ['2026-03-17']);
      expect(next[0].request_group_id).not.toBe(first.request_group_id);
      expect(next[0].comment).toBeNull();
    });

    it("costs the employee's own day: 14400 seconds and 1 working day for a 4 h part-timer; half on a half-day holiday", async () => {
      const s = await createWorkforceTenant(t.ctx);
      await employ(s, s.employee.id, { days: PART_TIME_4H });
      const [partTime] = await booked(s, ['2026-03-16']);
      expect(partTime).toMatchObject({ requested_time: { '2026-03-16': 14400 }, working_days: 1, total_seconds: 14400, workshift_seconds_per_day: 14400 });
      expect(partTime.working_day_details).toEqual([{ date: '2026-03-16', seconds: 14400, is_half_day: false, start_time: null, end_time: null }]);

      const full = await office();
      expect(
        (await call('POST', `/${full.tenant.pbxId}/holidays`, full.admin.token, { date: '2026-03-19', name: 'Afternoon off', half_day: true })).statusCode,
      ).toBe(201);
      const [half] = await booked(full, ['2026-03-19']);
      expect(half).toMatchObject({
        requested_time: { '2026-03-19': 14400 },
        working_days: 0.5,
        total_seconds: 14400,
        workshift_seconds_per_day: 28800,
        is_half_day: false,
        starts_half_day: false,
        ends_half_day: false,
      });
      // The day itself reads as a half day (14400 falls short of 28800 by more than 900).
      expect(half.working_day_details).toEqual([{ date: '2026-03-19', seconds: 14400, is_half_day: true, start_time: null, end_time: null }]);
    });

    it('today counts (the tenant’s today, in its time zone) and the 500-character comment is accepted', async () => {
      // Monday 16 March, 23:30 UTC: already Tuesday 17 March in Luxembourg (the test tokens live an hour, so the tenant is made then).
      clock.set('2026-03-16T23:30:00.000Z');
      try {
        const s = await office();
        const refused = await ask(s, { dates: ['2026-03-16', '2026-03-17'] });
        expect(refused.statusCode).toBe(422);
        expect(refused.json().invalid_dates).toEqual({
          '2026-03-16': { reason: 'in_past', message: '2026-03-16 is in the past (today is 2026-03-17).' },
        });
        const rows = await booked(s, ['2026-03-17']);
        expect(rows[0].start).toBe('2026-03-17T00:00:00.000Z');
      } finally {
        clock.set(NOW);
      }
      const s = await office();
      const long = await ask(s, { dates: ['2026-03-18'], comment: 'x'.repeat(500) });
      expect(long.statusCode, long.body).toBe(201);
      expect(long.json().data[0].comment).toHaveLength(500);
    });

    it('refuses each invalid date with its reason in invalid_dates (422), creating nothing', async () => {
      const s = await createWorkforceTenant(t.ctx);
      // Under contract until the end of May; a three-day week (Monday to Wednesday).
      await employ(s, s.employee.id, { end: '2026-05-31', days: { monday: 28800, tuesday: 28800, wednesday: 28800 } });
      const [held] = await booked(s, ['2026-03-23']);
      const absence = await call('POST', `/${s.tenant.pbxId}/user/${s.employee.id}/absence-requests`, s.worker.token, {
        type: 'legal',
        start: '2026-03-24',
        end: '2026-03-25',
        ends_half_day: true,
      });
      expect(absence.statusCode, absence.body).toBe(201);
      const absenceId = absence.json().data.id as string;
      const before = await rowCount(s);

      const cases: Array<[string[], string, { reason: string; message: string }]> = [
        [['2026-03-16', '2026-03-16'], '2026-03-16', { reason: 'duplicate', message: '2026-03-16 is sent more than once.' }],
        [['2026-03-13'], '2026-03-13', { reason: 'in_past', message: '2026-03-13 is in the past (today is 2026-03-15).' }],
        [['2026-09-16'], '2026-09-16', { reason: 'beyond_six_months', message: '2026-09-16 is more than 6 months ahead (the last day is 2026-09-15).' }],
        // Easter Monday, a Luxembourg public holiday.
        [['2026-04-06'], '2026-04-06', { reason: 'public_holiday', message: '2026-04-06 is a holiday of the employee\u2019s company.' }],
        [['2026-06-01'], '2026-06-01', { reason: 'no_contract', message: '2026-06-01 is outside every contract of the employee.' }],
        [['2026-03-19'], '2026-03-19', { reason: 'not_a_working_day', message: '2026-03-19 is not a working day of the employee.' }],
        [['2026-03-21'], '2026-03-21', { reason: 'not_a_working_day', message: '2026-03-21 is not a working day of the employee.' }],
        [['2026-03-23'], '2026-03-23', { reason: 'already_booked', message: `2026-03-23 is already booked as home office (${held.id}).` }],
        [['2026-03-25'], '2026-03-25', { reason: 'overlaps_absence', message: `2026-03-25 overlaps absence request ${absenceId}.` }],
      ];
      for (const [dates, date, refusal] of cases) {
        // A valid day beside the refused one: the whole request is refused.
        const response = await ask(s, { dates: ['2026-03-17', ...dates], comment: 'x' });
        expect(response.statusCode, date).toBe(422);
        expect(response.json(), date).toEqual({
          message: `Some dates cannot be booked for home office: ${refusal.message}`,
          errors: { dates: [refusal.message] },
          invalid_dates: { [date]: refusal },
        });
      }
      expect(await rowCount(s)).toBe(before);
    });

    it('names every refused date of one request, whatever the reasons, in one answer', async () => {
      const s = await office();
      const [held] = await booked(s, ['2026-03-16']);
      // Luxembourg's national day (23 June), a past day and a booked day together.
      const response = await ask(s, { dates: ['2026-06-23', '2026-03-12', '2026-03-16', '2026-03-17'] });
      expect(response.statusCode).toBe(422);
      const body = response.json();
      expect(body.invalid_dates).toEqual({
        '2026-06-23': { reason: 'public_holiday', message: '2026-06-23 is a holiday of the employee\u2019s company.' },
        '2026-03-12': { reason: 'in_past', message: expect.any(String) },
        '2026-03-16': { reason: 'already_booked', message: `2026-03-16 is already booked as home office (${held.id}).` },
      });
      expect(body.errors.dates).toHaveLength(3);
      expect(body.message).toMatch(/ \(and 2 more\)$/);
    });

    it('counts six months by month arithmetic from the tenant’s today (31 August + 6 months = 28 February)', async () => {
      clock.set('2026-08-31T10:00:00.000Z');
      try {
        const s = await createWorkforceTenant(t.ctx);
        // Seven days a week, so the last day (a Sunday) is a working day.
        await employ(s, s.employee.id, { days: { ...FULL_TIME, saturday: 28800, sunday: 28800 } });
        expect((await booked(s, ['2027-02-28']))[0].start).toBe('2027-02-28T00:00:00.000Z');
        const beyond = await ask(s, { dates: ['2027-03-01'] });
        expect(beyond.statusCode).toBe(422);
        expect(beyond.json().invalid_dates).toEqual({
          '2027-03-01': { reason: 'beyond_six_months', message: '2027-03-01 is more than 6 months ahead (the last day is 2027-02-28).' },
        });
        // Today itself is bookable.
        expect((await booked(s, ['2026-08-31']))[0].start).toBe('2026-08-31T00:00:00.000Z');
      } finally {
        clock.set(NOW);
      }
    });

    // The calendar is computed for the window's dates only: computing it up to 9999 took half a minute,
    // so this test's own 5-second limit (not a measured duration) is what guards it.
    it('refuses far-off and ancient dates without computing the years up to them', async () => {
      const s = await office();
      for (const [dates, refused] of [
        [['2026-03-16', '9999-12-31'], { '9999-12-31': 'beyond_six_months' }],
        [['0001-01-01', '2026-03-16'], { '0001-01-01': 'in_past' }],
        [['0001-01-01', '9999-12-31'], { '0001-01-01': 'in_past', '9999-12-31': 'beyond_six_months' }],
      ] as const) {
        const response = await ask(s, { dates });
        expect(response.statusCode, dates.join()).toBe(422);
        const reasons = Object.fromEntries(
          Object.entries(response.json().invalid_dates).map(([date, refusal]) => [date, (refusal as { reason: string }).reason]),
        );
        expect(reasons, dates.join()).toEqual(refused);
      }
    }, 5_000);

    it('frees a date again once its row is canceled or rejected', async () => {
      const s = await office();
      const [canceled] = await booked(s, ['2026-03-16']);
      const [rejected] = await booked(s, ['2026-03-17']);
      await move(s, canceled.id, 'cancel', s.worker.token);
      await move(s, rejected.id, 'reject');
      expect(await booked(s, ['2026-03-16', '2026-03-17'])).toHaveLength(2);
    });

    it('validates the body: 1-100 dates, real days, a comment of at most 500, nothing the server sets (422)', async () => {
      const s = await office();
      const before = await rowCount(s);
      const hundredOne = Array.from({ length: 101 }, (_, i) => new Date(Date.UTC(2026, 2, 16 + i)).toISOString().slice(0, 10));
      const cases: Array<[Record<string, unknown>, string]> = [
        [{}, 'dates'],
        [{ dates: [] }, 'dates'],
        [{ dates: hundredOne }, 'dates'],
        [{ dates: '2026-03-16' }, 'dates'],
        [{ dates: ['2026-02-30'] }, 'dates.0'],
        [{ dates: ['2026-03-16T00:00:00Z'] }, 'dates.0'],
        [{ dates: ['2026-03-16'], comment: 'x'.repeat(501) }, 'comment'],
        [{ dates: ['2026-03-16'], comment: 5 }, 'comment'],
        [{ dates: ['2026-03-16'], type: 'home_office' }, 'type'],
        [{ dates: ['2026-03-16'], status: 'approved' }, 'status'],
        [{ dates: ['2026-03-16'], pbx_id: s.tenant.pbxId }, 'pbx_id'],
        [{ dates: ['2026-03-16'], mxvp_user_id: s.tenant.pbxId }, 'mxvp_user_id'],
        [{ dates: ['2026-03-16'], employee_id: s.employee.id }, 'employee_id'],
        [{ dates: ['2026-03-16'], working_days: 1 }, 'working_days'],
      ];
      for (const [body, field] of cases) {
        const response = await ask(s, body);
        expect(response.statusCode, JSON.stringify(body).slice(0, 80)).toBe(422);
        const answer = response.json();
        expect(answer, field).toEqual({ message: expect.any(String), errors: expect.objectContaining({ [field]: [expect.any(String)] }) });
        expect(answer.invalid_dates, field).toBeUndefined();
      }
      // 100 dates pass validation (the later ones are refused as dates, not as a count).
      const hundred = await ask(s, { dates: hundredOne.slice(0, 100) });
      expect(hundred.statusCode).toBe(422);
      expect(hundred.json().errors).toEqual({ dates: expect.any(Array) });
      expect(hundred.json().invalid_dates).toBeDefined();
      expect(await rowCount(s)).toBe(before);
    });

    it('is the employee’s own, an administrator’s or the PBX key’s to ask; anyone else and other tenants are refused', async () => {
      const s = await office();
      const byAdmin = await booked(s, ['2026-03-16'], s.admin.token);
      const byKey = await booked(s, ['2026-03-17'], s.pbxKey);
      expect([byAdmin[0].employee_id, byKey[0].employee_id]).toEqual([s.employee.id, s.employee.id]);
      expect([byAdmin[0].requester_id, byKey[0].creator_id]).toEqual([s.employee.id, s.employee.id]);
      const before = await rowCount(s);
      // Another employee's record, by a colleague or by a user without an employee record.
      for (const token of [s.colleague.token, s.outsider.token]) {
        const refused = await ask(s, { dates: ['2026-03-18'] }, token);
        expect(refused.statusCode).toBe(403);
        expect(refused.json()).toEqual({ message: expect.any(String) });
      }
      // No existence oracle for plain users; administrators learn an unknown employee is 404.
      expect((await ask(s, { dates: ['2026-03-18'] }, s.worker.token, UNKNOWN)).statusCode).toBe(403);
      const unknown = await ask(s, { dates: ['2026-03-18'] }, s.admin.token, UNKNOWN);
      expect(unknown.statusCode).toBe(404);
      expect(unknown.json()).toEqual({ message: ['Employee not found.'] });
      // Another tenant: its PBX in the path is 403; its employee under this PBX is 404.
      const other = await createWorkforceTenant(t.ctx);
      await employ(other, other.employee.id);
      for (const token of [s.admin.token, s.pbxKey, s.worker.token]) expect((await ask(other, { dates: ['2026-03-18'] }, token)).statusCode).toBe(403);
      expect((await ask(s, { dates: ['2026-03-18'] }, s.admin.token, other.employee.id)).statusCode).toBe(404);
      expect((await ask(s, { dates: ['2026-03-18'] }, s.pbxKey, other.employee.id)).statusCode).toBe(404);
      const stranger = await createAdmin(t.ctx, await createTenant(t.ctx));
      expect((await ask(s, { dates: ['2026-03-18'] }, stranger.token)).statusCode).toBe(403);
      const anonymous = await t.app.inject({ method: 'POST', url: `/api/v1${requestsUrl(s)}`, payload: { dates: ['2026-03-18'] } });
      expect(anonymous.statusCode).toBe(401);
      expect(anonymous.json()).toEqual({ error: expect.any(String) });
      expect(await rowCount(s)).toBe(before);
    });
  });

  describe('GET /{pbx_id}/user/{employee_id}/home-office-requests', () => {
    it('lists the employee’s home_office rows only, paginated, latest first', async () => {
      const s = await office();
      const rows = await booked(s, ['2026-03-16', '2026-03-18']);
      const absence = await call('POST', `/${s.tenant.pbxId}/user/${s.employee.id}/absence-requests`, s.worker.token, {
        type: 'legal',
        start: '2026-03-19',
        end: '2026-03-20',
      });
      expect(absence.statusCode).toBe(201);
      await booked(s, ['2026-03-16'], s.colleague.token, s.colleagueEmployee.id);
      // filter[type] does not widen it.
      for (const query of ['', '?filter[type]=legal']) {
        const response = await call('GET', `${requestsUrl(s)}${query}`, s.worker.token);
        expect(response.statusCode, query).toBe(200);
        const body = response.json();
        expect(body.data.map((row: { id: string }) => row.id)).toEqual([rows[1].id, rows[0].id]);
        expect(body.data.every((row: { type: string }) => row.type === 'home_office')).toBe(true);
        expect(body.meta).toMatchObject({ current_page: 1, per_page: 15, total: 2 });
        expect(body.links).toMatchObject({ prev: null, next: null });
      }
      // The row reads as the request answered it (lists leave next_availability out unless asked).
      const listed = (await call('GET', requestsUrl(s), s.worker.token)).json().data[1];
      const { next_availability: _next, ...created } = rows[0];
      expect(listed).toEqual(created);
      expect((await call('GET', requestsUrl(s), s.admin.token)).json().meta.total).toBe(2);
      expect((await call('GET', requestsUrl(s), s.pbxKey)).json().meta.total).toBe(2);
    });

    it('refuses other users, bad filters and other tenants', async () => {
      const s = await office();
      for (const token of [s.colleague.token, s.outsider.token]) expect((await call('GET', requestsUrl(s), token)).statusCode).toBe(403);
      const bad = await call('GET', `${requestsUrl(s)}?filter[from]=2026-04-01&filter[to]=2026-03-01`, s.worker.token);
      expect(bad.statusCode).toBe(422);
      expect(bad.json()).toEqual({ message: expect.any(String), errors: { 'filter[to]': [expect.any(String)] } });
      const other = await createWorkforceTenant(t.ctx);
      expect((await call('GET', requestsUrl(other), s.admin.token)).statusCode).toBe(403);
      expect((await call('GET', requestsUrl(s, other.employee.id), s.admin.token)).statusCode).toBe(404);
    });
  });

  describe('GET /{pbx_id}/calendar/home-office', () => {
    const calendarUrl = (s: WorkforceSetup, query = '') => `/${s.tenant.pbxId}/calendar/home-office${query}`;
    const calendar = async (s: WorkforceSetup, query = '', token = s.worker.token) => {
      const response = await call('GET', calendarUrl(s, query), token);
      expect(response.statusCode, response.body).toBe(200);
      return response.json<Array<Record<string, unknown> & { id: string; status: string }>>();
    };
    const ids = (entries: Array<{ id: string }>) => entries.map((entry) => entry.id);

    it('answers a flat array of entries with every documented field, sorted by day then employee', async () => {
      const s = await office();
      await t.ctx.db.updateTable('employees').set({ first_name: 'Anna', last_name: 'Schmit' }).where('id', '=', s.employee.id).execute();
      const [mine] = await booked(s, ['2026-03-17']);
      const [theirs] = await booked(s, ['2026-03-16'], s.colleague.token, s.colleagueEmployee.id);
      const response = await call('GET', calendarUrl(s), s.worker.token);
      expect(response.statusCode).toBe(200);
      const body = response.json();
      expect(Array.isArray(body)).toBe(true);
      expect(ids(body)).toEqual([theirs.id, mine.id]);
      expect(body[1]).toEqual({
        id: mine.id,
        employee_id: s.employee.id,
        employee_name: 'Anna Schmit',
        department_id: s.department.id,
        type: 'home_office',
        sub_type: null,
        status: 'pending',
        start: '2026-03-17',
        end: '2026-03-17',
        total_seconds: 28800,
        days: [{ date: '2026-03-17', seconds: 28800 }],
        working_days: 1,
        workshift_seconds_per_day: 28800,
        is_half_day: false,
        starts_half_day: false,
        ends_half_day: false,
        start_time: null,
        end_time: null,
        working_day_details: [{ date: '2026-03-17', seconds: 28800, is_half_day: false, start_time: null, end_time: null }],
      });
      // The tenant's name order.
      expect((await call('PATCH', `/${s.tenant.pbxId}/workforce-settings`, s.admin.token, { name_order: 'last_first' })).statusCode).toBe(200);
      expect((await calendar(s))[1].employee_name).toBe('Schmit Anna');
    });

    it('writes the text fast-json-stringify writes from the entry schema: half days, their hours, names that need escaping', async () => {
      const s = await office();
      await t.ctx.db.updateTable('employees').set({ first_name: 'Zoë "Q" \\ O\u2019Brien\u0001', last_name: ' ' }).where('id', '=', s.employee.id).execute();
      await t.ctx.db.updateTable('employees').set({ first_name: '', last_name: '' }).where('id', '=', s.colleagueEmployee.id).execute();
      const [, morning, hours] = await booked(s, ['2026-03-16', '2026-03-17', '2026-03-18']);
      await booked(s, ['2026-03-19'], s.colleague.token, s.colleagueEmployee.id);
      await t.ctx.db
        .updateTable('absence_requests')
        .set({
          starts_half_day: 1,
          ends_half_day: 1,
          half_day_part: 'morning',
          requested_time: JSON.stringify({ '2026-03-17': 14400 }),
          total_seconds: 14400,
          working_days: 0.5,
        })
        .where('id', '=', morning.id)
        .execute();
      await t.ctx.db
        .updateTable('absence_requests')
        .set({ starts_half_day: 1, start_time: '09:15', end_time: '11:00', workshift_seconds_per_day: 0 })
        .where('id', '=', hours.id)
        .execute();
      const response = await call('GET', calendarUrl(s), s.worker.token);
      expect(response.statusCode, response.body).toBe(200);
      expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
      const entries = response.json<Array<Record<string, unknown>>>();
      expect(entries.map((entry) => [entry.employee_name, entry.is_half_day, entry.start_time, entry.end_time])).toEqual([
        ['Zoë "Q" \\ O\u2019Brien\u0001', false, null, null],
        ['Zoë "Q" \\ O\u2019Brien\u0001', true, null, '12:00'],
        ['Zoë "Q" \\ O\u2019Brien\u0001', true, '09:15', null],
        [null, false, null, null],
      ]);
      const serialize = SerializerSelector()({ HomeOfficeCalendarEntry }, {})({
        schema: Type.Array(Type.Ref(HomeOfficeCalendarEntry)),
        method: 'GET',
        url: '/calendar/home-office',
        httpStatus: '200',
      }) as (data: unknown) => string;
      expect(response.body).toBe(serialize(entries));
    });

    it('shows pending, approved (the stored spelling) and pending_removal rows; a removal pending shows its row once', async () => {
      const s = await office();
      const rows = await booked(s, ['2026-03-16', '2026-03-17', '2026-03-18', '2026-03-19', '2026-03-20', '2026-03-23', '2026-03-24']);
      const [pending, approved, beingRemoved, canceled, rejected, removed, removalCanceled] = rows.map((row) => row.id);
      for (const id of [approved, beingRemoved, removed, removalCanceled]) expect((await move(s, id, 'approve')).status).toBe('accepted');
      await move(s, canceled, 'cancel', s.worker.token);
      await move(s, rejected, 'reject');
      const removal = await move(s, beingRemoved, 'removal', s.worker.token);
      const removedRemoval = await move(s, removed, 'removal', s.worker.token);
      await move(s, removedRemoval.id, 'approve');
      const canceledRemoval = await move(s, removalCanceled, 'removal', s.worker.token);
      await move(s, canceledRemoval.id, 'cancel', s.worker.token);

      const entries = await calendar(s);
      expect(entries.map((entry) => [entry.id, entry.status])).toEqual([
        [pending, 'pending'],
        [approved, 'approved'],
        [beingRemoved, 'pending_removal'],
        [removalCanceled, 'approved'],
      ]);
      expect(ids(entries)).not.toContain(removal.id);
      expect(entries.every((entry) => entry.sub_type === null)).toBe(true);
    });

    it('filters by period overlap and by the department of the contract active today (comma list)', async () => {
      const s = await office();
      const warehouse = await createDepartment(t.ctx, s.tenant, { name: 'Warehouse', company_id: s.company.id });
      const mover = await createEmployee(t.ctx, s.tenant, { first_name: 'Paul', last_name: 'Muller' });
      // Dispatch until yesterday, the Warehouse since today: the Warehouse is the department.
      await employ(s, mover.id, { start: '2025-01-01', end: '2026-03-14' });
      await post(s, `/user/${mover.id}/user-companies`, { company_id: s.company.id, department_id: warehouse.id, contract_start: '2026-03-15' });
      const [mine] = await booked(s, ['2026-03-16']);
      const [colleague] = await booked(s, ['2026-03-18'], s.colleague.token, s.colleagueEmployee.id);
      const [moved] = await booked(s, ['2026-03-20'], s.admin.token, mover.id);

      expect(ids(await calendar(s))).toEqual([mine.id, colleague.id, moved.id]);
      expect(ids(await calendar(s, `?filter[department_id]=${s.department.id}`))).toEqual([mine.id, colleague.id]);
      expect(ids(await calendar(s, `?filter[department_id]=${warehouse.id}`))).toEqual([moved.id]);
      expect((await calendar(s, `?filter[department_id]=${warehouse.id}`))[0].department_id).toBe(warehouse.id);
      expect(ids(await calendar(s, `?filter[department_id]=${warehouse.id},${s.department.id}`))).toEqual([mine.id, colleague.id, moved.id]);
      expect(await calendar(s, `?filter[department_id]=${UNKNOWN}`)).toEqual([]);

      expect(ids(await calendar(s, '?filter[from]=2026-03-18'))).toEqual([colleague.id, moved.id]);
      expect(ids(await calendar(s, '?filter[to]=2026-03-18'))).toEqual([mine.id, colleague.id]);
      expect(ids(await calendar(s, '?filter[from]=2026-03-17&filter[to]=2026-03-19'))).toEqual([colleague.id]);
      expect(ids(await calendar(s, '?filter[from]=2026-03-18&filter[to]=2026-03-18'))).toEqual([colleague.id]);
      expect(await calendar(s, '?filter[from]=2026-03-21')).toEqual([]);
    });

    it('refuses bad filters with 422', async () => {
      const s = await office();
      for (const [query, field] of [
        ['?filter[from]=2026-03-20&filter[to]=2026-03-19', 'filter[to]'],
        ['?filter[department_id]=not-a-uuid', 'filter[department_id]'],
        [`?filter[department_id]=${s.department.id},`, 'filter[department_id]'],
        ['?filter[from]=2026-02-30', 'filter[from]'],
        ['?filter[to]=2026-03-19T00:00:00Z', 'filter[to]'],
        ['?filter[nope]=1', 'filter[nope]'],
      ]) {
        const response = await call('GET', calendarUrl(s, query), s.worker.token);
        expect(response.statusCode, query).toBe(422);
        expect(response.json(), query).toEqual({ message: expect.any(String), errors: { [field]: [expect.any(String)] } });
      }
    });

    it("is the company's: colleagues of the same company see each other's rows, another company's employees do not", async () => {
      const s = await office();
      const [mine] = await booked(s, ['2026-03-16']);
      const [theirs] = await booked(s, ['2026-03-17'], s.colleague.token, s.colleagueEmployee.id);
      // An employee of another company of the same tenant, with its own row.
      const munich = await createCompany(t.ctx, s.tenant, { country_cc: 'DE', region: 'BY' });
      const elsewhereUser = await createUser(t.ctx, { tenant: s.tenant });
      const elsewhere = await createEmployee(t.ctx, s.tenant, { userId: elsewhereUser.id });
      await employ(s, elsewhere.id, { company_id: munich.id, department_id: null });
      const [far] = await booked(s, ['2026-03-16'], elsewhereUser.token, elsewhere.id);

      expect(ids(await calendar(s, '', s.colleague.token))).toEqual([mine.id, theirs.id]);
      expect(ids(await calendar(s, '', s.worker.token))).toEqual([mine.id, theirs.id]);
      expect(ids(await calendar(s, '', elsewhereUser.token))).toEqual([far.id]);
      // An administrator with an employee record in both companies sees both.
      const boss = await createEmployee(t.ctx, s.tenant, { userId: s.admin.id });
      await employ(s, boss.id);
      await post(s, `/user/${boss.id}/user-companies`, { company_id: munich.id, contract_start: '2025-01-01', main_company: 0 });
      const both = await calendar(s, '', s.admin.token);
      expect(ids(both).sort()).toEqual([mine.id, far.id, theirs.id].sort());
      // By day, then by employee (two rows on 16 March).
      const order = (entry: Record<string, unknown>) => `${String(entry.start)} ${String(entry.employee_id)}`;
      expect(both.map(order)).toEqual(both.map(order).sort());
      expect(both[2].id).toBe(theirs.id);
      // A contract that ended leaves its employee's rows out of the company's calendar.
      const leaver = await createEmployee(t.ctx, s.tenant);
      await employ(s, leaver.id, { end: '2026-03-31' });
      const [leaving] = await booked(s, ['2026-03-19'], s.admin.token, leaver.id);
      expect(ids(await calendar(s))).toContain(leaving.id);
      await t.ctx.db.updateTable('employee_contracts').set({ contract_end: '2026-03-14' }).where('employee_id', '=', leaver.id).execute();
      expect(ids(await calendar(s))).not.toContain(leaving.id);
    });

    it('refuses callers without an employee record or an active contract, the PBX key and other tenants (403)', async () => {
      const s = await office();
      await booked(s, ['2026-03-16']);
      const notYet = await createUser(t.ctx, { tenant: s.tenant });
      await employ(s, (await createEmployee(t.ctx, s.tenant, { userId: notYet.id })).id, { start: '2026-04-01' });
      const left = await createUser(t.ctx, { tenant: s.tenant });
      await employ(s, (await createEmployee(t.ctx, s.tenant, { userId: left.id })).id, { start: '2025-01-01', end: '2026-03-14' });
      const noCompany = await createUser(t.ctx, { tenant: s.tenant });
      await employ(s, (await createEmployee(t.ctx, s.tenant, { userId: noCompany.id })).id, { company_id: null, department_id: null });
      const other = await office();
      const stranger = await createAdmin(t.ctx, await createTenant(t.ctx));
      const refusals: Array<[string, string, WorkforceSetup]> = [
        ['user without an employee record', s.outsider.token, s],
        ['administrator without an employee record', s.admin.token, s],
        ['contract not started', notYet.token, s],
        ['contract ended', left.token, s],
        ['contract without a company', noCompany.token, s],
        ['PBX API key', s.pbxKey, s],
        ['employee of another tenant', s.worker.token, other],
        ['administrator of another tenant', stranger.token, s],
      ];
      for (const [who, token, tenant] of refusals) {
        const response = await call('GET', calendarUrl(tenant), token);
        expect(response.statusCode, who).toBe(403);
        expect(response.json(), who).toEqual({ message: expect.any(String) });
      }
      const anonymous = await t.app.inject({ method: 'GET', url: `/api/v1${calendarUrl(s)}` });
      expect(anonymous.statusCode).toBe(401);
      expect(anonymous.json()).toEqual({ error: expect.any(String) });
    });
  });
});
