import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../../platform/clock.js';
import { buildTestApp, type TestApp } from '../../../../../test/helpers.js';
import { createAdmin, createKey, createTenant, createUser } from '../../../../../test/factories.js';
import { createEmployee, createWorkforceTenant } from '../../../../../test/workforce-factories.js';
import { absenceFixtures, HALF_TIME, type AbsenceView, type TimeSetup } from '../../../../../test/absence-fixtures.js';

/** 10:00 in Luxembourg on Sunday 15 March 2026. */
const NOW = '2026-03-15T09:00:00.000Z';
const UNKNOWN = '00000000-0000-4000-8000-000000000000';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('absence requests', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ clock: new ManualClock(NOW), env: { RATE_LIMIT_PER_MINUTE: '10000' } });
  });
  afterAll(() => t.close());
  afterEach(() => t.clock.set(NOW));
  const { call, dataOf, employ, timeTenant, absencesUrl, oneUrl, ask, move, read, granted, setValidators } = absenceFixtures(() => t);
  const day = (date: string, seconds = 28800) => ({ date, seconds, is_half_day: false, start_time: null, end_time: null });
  const ids = (response: { json(): { data: Array<{ id: string }> } }) => response.json().data.map((row) => row.id);

  describe('POST /{pbx_id}/user/{employee_id}/absence-requests', () => {
    it("answers 201 with every field of the resource: a legal week over Luxembourg's Ascension counts 4 working days", async () => {
      const s = await timeTenant();
      const response = await call('POST', absencesUrl(s), s.worker.token, { type: 'legal', start: '2026-05-11', end: '2026-05-17', comment: 'Family' });
      expect(response.statusCode, response.body).toBe(201);
      const { data } = response.json<{ data: AbsenceView }>();
      expect(data.id).toMatch(UUID);
      expect(data).toEqual({
        id: data.id,
        mxvp_user_id: s.tenant.pbxId,
        employee_id: s.employee.id,
        requester_id: s.employee.id,
        creator_id: s.employee.id,
        ext_id: s.employee.ext_id,
        company_id: s.company.id,
        absence_request_id: data.id,
        holiday_id: null,
        status: 'pending',
        type: 'legal',
        sub_type: null,
        start: '2026-05-11T00:00:00.000Z',
        end: '2026-05-18T00:00:00.000Z',
        requested_time: { '2026-05-11': 28800, '2026-05-12': 28800, '2026-05-13': 28800, '2026-05-15': 28800 },
        working_days: 4,
        total_seconds: 115200,
        workshift_seconds_per_day: 28800,
        is_half_day: false,
        starts_half_day: false,
        ends_half_day: false,
        start_time: null,
        end_time: null,
        working_day_details: [day('2026-05-11'), day('2026-05-12'), day('2026-05-13'), day('2026-05-15')],
        comment: 'Family',
        accepted_by: [{ employee_id: null, status: 'pending' }],
        next_availability: { date: '2026-05-18', time: null, in_past: false, reason: 'after_request' },
        request_group_id: null,
        removal_of_id: null,
        adjustment: null,
        recurring_transaction_id: null,
        created: NOW,
        modified: NOW,
      });
      // A whole number of working days is written without a fraction.
      expect(response.body).toContain('"working_days":4,');
      expect(await read(s, data.id, s.worker.token)).toEqual(data);
    });

    it('counts each type over weekends and public holidays (Whit Monday, National Day, Easter Monday)', async () => {
      const s = await timeTenant();
      const cases: Array<[string, string, string, string[]]> = [
        ['illness', '2026-05-22', '2026-05-26', ['2026-05-22', '2026-05-26']],
        ['special', '2026-06-22', '2026-06-24', ['2026-06-22', '2026-06-24']],
        ['overtime_balance', '2026-04-03', '2026-04-07', ['2026-04-03', '2026-04-07']],
        // Assumption (15 August) falls on a Saturday: it takes no working day.
        ['legal', '2026-08-13', '2026-08-17', ['2026-08-13', '2026-08-14', '2026-08-17']],
      ];
      for (const [type, start, end, days] of cases) {
        const row = await ask(s, { type, start, end });
        expect(row, type).toMatchObject({ type, status: 'pending', working_days: days.length, total_seconds: days.length * 28800 });
        expect(Object.keys(row.requested_time ?? {}), type).toEqual(days);
        expect(row.working_day_details, type).toEqual(days.map((date) => day(date)));
      }
    });

    it('half days: a half-day start, a half-day end with its own hour, one half day (both flags), the split from the settings', async () => {
      const s = await timeTenant();
      const starting = await call('POST', absencesUrl(s), s.worker.token, { type: 'legal', start: '2026-06-01', end: '2026-06-03', starts_half_day: true });
      expect(starting.statusCode, starting.body).toBe(201);
      expect(starting.body).toContain('"working_days":2.5,');
      expect(starting.json().data).toMatchObject({
        requested_time: { '2026-06-01': 14400, '2026-06-02': 28800, '2026-06-03': 28800 },
        working_days: 2.5,
        total_seconds: 72000,
        workshift_seconds_per_day: 28800,
        is_half_day: true,
        starts_half_day: true,
        ends_half_day: false,
        start_time: '12:00',
        end_time: null,
        working_day_details: [{ ...day('2026-06-01', 14400), is_half_day: true, start_time: '12:00' }, day('2026-06-02'), day('2026-06-03')],
      });

      const ending = await ask(s, { type: 'legal', start: '2026-06-08', end: '2026-06-09', ends_half_day: true, end_time: '11:30' });
      expect(ending).toMatchObject({
        working_days: 1.5,
        total_seconds: 43200,
        starts_half_day: false,
        ends_half_day: true,
        start_time: null,
        end_time: '11:30',
        working_day_details: [day('2026-06-08'), { ...day('2026-06-09', 14400), is_half_day: true, end_time: '11:30' }],
      });

      // On a single day either flag makes one half day: both flags are true; the flag sent says which half (ends: the morning).
      const single = await ask(s, { type: 'special', start: '2026-06-10', end: '2026-06-10', ends_half_day: true });
      expect(single).toMatchObject({
        requested_time: { '2026-06-10': 14400 },
        working_days: 0.5,
        total_seconds: 14400,
        is_half_day: true,
        starts_half_day: true,
        ends_half_day: true,
        start_time: null,
        end_time: '12:00',
        working_day_details: [{ date: '2026-06-10', seconds: 14400, is_half_day: true, start_time: null, end_time: '12:00' }],
      });
      // The hours, when sent, say the half: start_time alone is the afternoon, both a window.
      const afternoon = await ask(s, { type: 'special', start: '2026-06-11', end: '2026-06-11', ends_half_day: true, start_time: '14:00' });
      expect([afternoon.start_time, afternoon.end_time, afternoon.starts_half_day, afternoon.ends_half_day]).toEqual(['14:00', null, true, true]);
      const window = await ask(s, { type: 'special', start: '2026-06-15', end: '2026-06-15', starts_half_day: true, start_time: '09:00', end_time: '13:00' });
      expect([window.start_time, window.end_time]).toEqual(['09:00', '13:00']);
      // A half-day flag on a first day that is not a working day takes nothing, and is dropped.
      const fromSunday = await ask(s, { type: 'legal', start: '2026-06-21', end: '2026-06-22', starts_half_day: true });
      expect(fromSunday).toMatchObject({ starts_half_day: false, is_half_day: false, start_time: null, working_days: 1 });

      // The tenant's split is the default hour: rows without an hour of their own read it, the others keep theirs.
      dataOf(await call('PATCH', `/${s.tenant.pbxId}/workforce-settings`, s.admin.token, { half_day_split: '13:00' }), 200);
      const later = await ask(s, { type: 'legal', start: '2026-06-12', end: '2026-06-12', starts_half_day: true });
      expect([later.start_time, later.end_time]).toEqual(['13:00', null]);
      expect((await read(s, starting.json().data.id)).start_time).toBe('13:00');
      expect((await read(s, ending.id)).end_time).toBe('11:30');
    });

    it("a part-timer's 4 h day is one working day of 14400 seconds; its half day is 7200", async () => {
      const s = await timeTenant({ shift: HALF_TIME });
      const week = await ask(s, { type: 'legal', start: '2026-06-01', end: '2026-06-05' });
      expect(week).toMatchObject({ working_days: 5, total_seconds: 72000, workshift_seconds_per_day: 14400 });
      const one = await ask(s, { type: 'legal', start: '2026-06-08', end: '2026-06-08' });
      expect(one).toMatchObject({ requested_time: { '2026-06-08': 14400 }, working_days: 1, total_seconds: 14400, workshift_seconds_per_day: 14400 });
      expect(one.working_day_details).toEqual([day('2026-06-08', 14400)]);
      const half = await ask(s, { type: 'legal', start: '2026-06-09', end: '2026-06-09', starts_half_day: true });
      expect(half).toMatchObject({ working_days: 0.5, total_seconds: 7200, workshift_seconds_per_day: 14400 });
    });

    it('refuses bad periods and bodies with 422 on the field', async () => {
      const s = await timeTenant();
      const cases: Array<[Record<string, unknown>, string]> = [
        [{ type: 'legal', start: '2026-06-05', end: '2026-06-04' }, 'end'],
        [{ type: 'legal', start: '2026-05-16', end: '2026-05-17' }, 'start'], // a weekend
        [{ type: 'legal', start: '2026-05-14', end: '2026-05-14' }, 'start'], // Ascension
        [{ type: 'legal', start: '2026-01-01', end: '2027-01-02' }, 'end'], // 367 days
        [{ type: 'home_office', start: '2026-06-01', end: '2026-06-01' }, 'type'],
        [{ type: 'vacation', start: '2026-06-01', end: '2026-06-01' }, 'type'],
        [{ type: 'legal', start: '2026-06-01', end: '2026-06-02', start_time: '09:00' }, 'start_time'],
        [{ type: 'legal', start: '2026-06-01', end: '2026-06-02', starts_half_day: true, end_time: '09:00' }, 'end_time'],
        [{ type: 'legal', start: '2026-06-01', end: '2026-06-01', starts_half_day: true, start_time: '14:00', end_time: '13:00' }, 'end_time'],
        [{ type: 'legal', start: '2026-06-01', end: '2026-06-01', ends_half_day: true, end_time: '25:00' }, 'end_time'],
        [{ type: 'legal', start: '2026-06-01', end: '2026-06-01', comment: 'x'.repeat(501) }, 'comment'],
        [{ type: 'legal', start: '2026-06-01T00:00:00Z', end: '2026-06-01' }, 'start'],
        [{ type: 'legal', end: '2026-06-01' }, 'start'],
        [{ type: 'legal', start: '2026-06-01', end: '2026-06-01', status: 'accepted' }, 'status'],
        [{ type: 'legal', start: '2026-06-01', end: '2026-06-01', employee_id: s.colleagueEmployee.id }, 'employee_id'],
      ];
      for (const [body, field] of cases) {
        const response = await call('POST', absencesUrl(s), s.worker.token, body);
        expect(response.statusCode, JSON.stringify(body)).toBe(422);
        expect(response.json(), JSON.stringify(body)).toEqual({ message: expect.any(String), errors: { [field]: [expect.any(String)] } });
      }
      // 500 characters of comment are fine; nothing of the refused ones was written.
      const fine = await ask(s, { type: 'legal', start: '2026-06-01', end: '2026-06-01', comment: 'x'.repeat(500) });
      expect(fine.comment).toHaveLength(500);
      expect((await call('GET', absencesUrl(s), s.worker.token)).json().meta.total).toBe(1);
      // An employee without a contract or shift has no working day.
      const idle = await call('POST', absencesUrl(s, s.colleagueEmployee.id), s.colleague.token, { type: 'legal', start: '2026-06-01', end: '2026-06-05' });
      expect(idle.statusCode).toBe(422);
      expect(Object.keys(idle.json().errors)).toEqual(['start']);
    });

    it('refuses a working day held by a pending or accepted row (naming it); rejected and canceled rows hold none', async () => {
      const s = await timeTenant();
      const pending = await ask(s, { type: 'legal', start: '2026-06-01', end: '2026-06-05' });
      const overlapping = await call('POST', absencesUrl(s), s.worker.token, { type: 'illness', start: '2026-06-05', end: '2026-06-09' });
      expect(overlapping.statusCode).toBe(422);
      expect(overlapping.json().errors.start).toEqual([expect.stringContaining(pending.id)]);
      expect(overlapping.json().errors.start[0]).toContain('2026-06-05');
      // Days off between do not overlap: a weekend next to it is no working day, and the next week is free.
      expect((await call('POST', absencesUrl(s), s.worker.token, { type: 'legal', start: '2026-06-06', end: '2026-06-07' })).statusCode).toBe(422);
      await ask(s, { type: 'illness', start: '2026-06-06', end: '2026-06-08' });

      const accepted = await granted(s, { type: 'special', start: '2026-07-01', end: '2026-07-01' });
      const onAccepted = await call('POST', absencesUrl(s), s.admin.token, { type: 'legal', start: '2026-06-29', end: '2026-07-03' });
      expect(onAccepted.statusCode).toBe(422);
      expect(onAccepted.json().errors.start[0]).toContain(accepted.id);

      // A half day already taken still holds the day.
      await ask(s, { type: 'legal', start: '2026-07-06', end: '2026-07-06', starts_half_day: true });
      expect(
        (await call('POST', absencesUrl(s), s.worker.token, { type: 'legal', start: '2026-07-06', end: '2026-07-06', ends_half_day: true })).statusCode,
      ).toBe(422);

      await move(s, pending.id, 'cancel', s.worker.token);
      const rejected = await ask(s, { type: 'legal', start: '2026-09-01', end: '2026-09-01' });
      await move(s, rejected.id, 'reject');
      await ask(s, { type: 'legal', start: '2026-06-01', end: '2026-06-04' });
      await ask(s, { type: 'legal', start: '2026-09-01', end: '2026-09-01' });
    });

    it('the employee itself, an administrator or the PBX key ask; anyone else is 403, an unknown employee 404, another PBX 403', async () => {
      const s = await timeTenant();
      const body = { type: 'legal', start: '2026-06-01', end: '2026-06-01' };
      const byAdmin = await ask(s, body, { token: s.admin.token });
      // Whoever asks, the requester and creator are the employee.
      expect(byAdmin).toMatchObject({ employee_id: s.employee.id, requester_id: s.employee.id, creator_id: s.employee.id });
      expect((await ask(s, { ...body, start: '2026-06-02', end: '2026-06-02' }, { token: s.pbxKey })).employee_id).toBe(s.employee.id);
      for (const [who, token] of [
        ['colleague', s.colleague.token],
        ['user without an employee record', s.outsider.token],
      ]) {
        const response = await call('POST', absencesUrl(s), token, { ...body, start: '2026-06-03', end: '2026-06-03' });
        expect(response.statusCode, who).toBe(403);
        expect(response.json(), who).toEqual({ message: expect.any(String) });
      }
      // A plain user gets no existence oracle; an administrator learns the employee is unknown.
      expect((await call('POST', absencesUrl(s, UNKNOWN), s.worker.token, body)).statusCode).toBe(403);
      const unknown = await call('POST', absencesUrl(s, UNKNOWN), s.admin.token, body);
      expect(unknown.statusCode).toBe(404);
      expect(unknown.json()).toEqual({ message: [expect.any(String)] });
      const other = await createWorkforceTenant(t.ctx);
      expect((await call('POST', absencesUrl(s, other.employee.id), s.admin.token, body)).statusCode).toBe(404);
      // Another PBX in the path, even for one's own employee.
      expect((await call('POST', absencesUrl(other, s.employee.id), s.worker.token, body)).statusCode).toBe(403);
      expect((await call('POST', absencesUrl(s), other.admin.token, body)).statusCode).toBe(403);
      // An integration API key is not a caller of the workforce.
      const integration = await createKey(t.ctx, s.tenant, 'integration');
      expect((await call('POST', absencesUrl(s), integration, body)).statusCode).toBe(403);
      expect((await call('GET', absencesUrl(s), integration)).statusCode).toBe(403);
      const anonymous = await t.app.inject({ method: 'POST', url: `/api/v1${absencesUrl(s)}`, payload: body });
      expect(anonymous.statusCode).toBe(401);
      expect(anonymous.json()).toEqual({ error: expect.any(String) });
    });
  });

  describe('lists and reads', () => {
    let s: TimeSetup;
    let head: Awaited<ReturnType<typeof createUser>>;
    let headEmployee: string;
    let c0: AbsenceView; // the colleague's, asked before the department named a validator
    let w1: AbsenceView; // the worker's pending legal absence
    let w2: AbsenceView; // the worker's accepted illness
    let w3: AbsenceView; // the worker's canceled time off against overtime
    let c1: AbsenceView; // the colleague's pending legal absence, decided by the head
    let foreign: AbsenceView; // another tenant's
    beforeAll(async () => {
      s = await timeTenant();
      await employ(s, { employeeId: s.colleagueEmployee.id });
      head = await createUser(t.ctx, { tenant: s.tenant });
      headEmployee = (await createEmployee(t.ctx, s.tenant, { userId: head.id })).id;
      c0 = await ask(s, { type: 'legal', start: '2026-05-04', end: '2026-05-05' }, { token: s.colleague.token, employeeId: s.colleagueEmployee.id });
      await setValidators(s, [headEmployee]);
      w1 = await ask(s, { type: 'legal', start: '2026-04-06', end: '2026-04-10' });
      w2 = await granted(s, { type: 'illness', start: '2026-02-02', end: '2026-02-03' });
      w3 = await ask(s, { type: 'overtime_balance', start: '2026-06-01', end: '2026-06-01' });
      await move(s, w3.id, 'cancel', s.worker.token);
      c1 = await ask(s, { type: 'legal', start: '2026-04-13', end: '2026-04-14' }, { token: s.colleague.token, employeeId: s.colleagueEmployee.id });
      const other = await timeTenant();
      foreign = await ask(other, { type: 'legal', start: '2026-04-06', end: '2026-04-10' });
    });
    const tenantList = (query = '') => `/${s.tenant.pbxId}/absence-requests${query}`;

    it('the employee list: its own rows, latest first, in the paginated envelope, for the employee, administrators and the PBX key', async () => {
      for (const token of [s.worker.token, s.admin.token, s.pbxKey]) {
        const response = await call('GET', absencesUrl(s), token);
        expect(response.statusCode).toBe(200);
        expect(ids(response)).toEqual([w3.id, w1.id, w2.id]);
      }
      const body = (await call('GET', `${absencesUrl(s)}?perPage=2`, s.worker.token)).json();
      expect(body.meta).toMatchObject({
        current_page: 1,
        per_page: 2,
        last_page: 2,
        from: 1,
        to: 2,
        total: 3,
        path: `http://pbx.test/api/v1${absencesUrl(s)}`,
      });
      expect(body.links).toMatchObject({ prev: null, next: `http://pbx.test/api/v1${absencesUrl(s)}?perPage=2&page=2` });
      // Statuses read in the contract's spelling; lists leave next_availability out unless asked.
      expect(body.data.map((row: AbsenceView) => row.status)).toEqual(['canceled', 'pending']);
      expect(body.data[0]).not.toHaveProperty('next_availability');
      expect(ids(await call('GET', `${absencesUrl(s)}?sort=start`, s.worker.token))).toEqual([w2.id, w1.id, w3.id]);
      expect(ids(await call('GET', absencesUrl(s, s.colleagueEmployee.id), s.colleague.token))).toEqual([c0.id, c1.id]);
    });

    it('the employee list refuses other users (403), answers 404 for an unknown employee to those who may ask, 403 for another PBX', async () => {
      for (const token of [s.colleague.token, s.outsider.token, head.token]) {
        const response = await call('GET', absencesUrl(s), token);
        expect(response.statusCode).toBe(403);
        expect(response.json()).toEqual({ message: expect.any(String) });
      }
      expect((await call('GET', absencesUrl(s, UNKNOWN), s.worker.token)).statusCode).toBe(403);
      const unknown = await call('GET', absencesUrl(s, UNKNOWN), s.admin.token);
      expect(unknown.statusCode).toBe(404);
      expect(unknown.json()).toEqual({ message: [expect.any(String)] });
      expect((await call('GET', absencesUrl(s, foreign.employee_id), s.admin.token)).statusCode).toBe(404);
      const stranger = await createAdmin(t.ctx, await createTenant(t.ctx));
      expect((await call('GET', absencesUrl(s), stranger.token)).statusCode).toBe(403);
      expect((await call('GET', `${absencesUrl(s)}?filter[status]=approved`, s.worker.token)).statusCode).toBe(422);
    });

    it('the tenant list: administrators and the PBX key see every row of the PBX, a validator its own and those it decides, a plain user its own', async () => {
      for (const token of [s.admin.token, s.pbxKey]) expect(ids(await call('GET', tenantList(), token))).toEqual([w3.id, c0.id, c1.id, w1.id, w2.id]);
      expect(ids(await call('GET', tenantList(), head.token))).toEqual([w3.id, c1.id, w1.id, w2.id]);
      expect(ids(await call('GET', tenantList(), s.worker.token))).toEqual([w3.id, w1.id, w2.id]);
      expect(ids(await call('GET', tenantList(), s.colleague.token))).toEqual([c0.id, c1.id]);
      const noRecord = await call('GET', tenantList(), s.outsider.token);
      expect(noRecord.statusCode).toBe(403);
      expect(noRecord.json()).toEqual({ message: expect.any(String) });
      const elsewhere = await call('GET', `/${foreign.mxvp_user_id as string}/absence-requests`, s.admin.token);
      expect(elsewhere.statusCode).toBe(403);
    });

    it('filters by employee, status list, type, period and awaiting_me; filter[to] before filter[from] is 422', async () => {
      const admin = async (query: string) => ids(await call('GET', tenantList(query), s.admin.token));
      expect(await admin(`?filter[employee_id]=${s.colleagueEmployee.id}`)).toEqual([c0.id, c1.id]);
      expect(await admin(`?filter[employee_id]=${foreign.employee_id}`)).toEqual([]);
      expect(await admin('?filter[status]=pending,canceled')).toEqual([w3.id, c0.id, c1.id, w1.id]);
      expect(await admin('?filter[status]=accepted')).toEqual([w2.id]);
      expect(await admin('?filter[type]=illness')).toEqual([w2.id]);
      expect(await admin('?filter[type]=legal,overtime_balance')).toEqual([w3.id, c0.id, c1.id, w1.id]);
      expect(await admin('?filter[from]=2026-04-10&filter[to]=2026-04-13')).toEqual([c1.id, w1.id]);
      expect(await admin('?filter[from]=2026-05-05')).toEqual([w3.id, c0.id]);
      expect(await admin('?filter[to]=2026-02-02')).toEqual([w2.id]);
      expect(ids(await call('GET', tenantList(`?filter[employee_id]=${s.colleagueEmployee.id}`), s.worker.token))).toEqual([]);

      // Awaiting the caller: pending rows with its entry still pending; every pending row for administrators.
      expect(ids(await call('GET', tenantList('?filter[awaiting_me]=true'), head.token))).toEqual([c1.id, w1.id]);
      expect(ids(await call('GET', tenantList('?filter[awaiting_me]=1'), head.token))).toEqual([c1.id, w1.id]);
      expect(ids(await call('GET', tenantList('?filter[awaiting_me]=0'), head.token))).toEqual([w3.id, c1.id, w1.id, w2.id]);
      expect(await admin('?filter[awaiting_me]=true')).toEqual([c0.id, c1.id, w1.id]);
      expect(ids(await call('GET', tenantList('?filter[awaiting_me]=true'), s.worker.token))).toEqual([]);

      for (const [query, field] of [
        ['?filter[from]=2026-04-14&filter[to]=2026-04-13', 'filter[to]'],
        ['?filter[status]=approved', 'filter[status]'],
        ['?filter[status]=pending,', 'filter[status]'],
        ['?filter[type]=absence', 'filter[type]'],
        ['?filter[employee_id]=nobody', 'filter[employee_id]'],
        ['?filter[from]=2026-02-30', 'filter[from]'],
        ['?include=employee', 'include'],
        ['?sort=end', 'sort'],
      ]) {
        const response = await call('GET', tenantList(query), s.admin.token);
        expect(response.statusCode, query).toBe(422);
        expect(response.json(), query).toEqual({ message: expect.any(String), errors: { [field]: [expect.any(String)] } });
      }
      expect((await call('GET', `${absencesUrl(s)}?filter[from]=2026-04-14&filter[to]=2026-04-13`, s.worker.token)).statusCode).toBe(422);
    });

    it('include=next_availability adds each row\u2019s next availability (null for time off against overtime)', async () => {
      const response = await call('GET', `${absencesUrl(s)}?include=next_availability`, s.worker.token);
      expect(response.statusCode).toBe(200);
      const rows = response.json<{ data: AbsenceView[] }>().data;
      expect(rows.map((row) => row.next_availability)).toEqual([
        null,
        { date: '2026-04-13', time: null, in_past: false, reason: 'after_request' },
        { date: '2026-02-04', time: null, in_past: true, reason: 'after_request' },
      ]);
      const tenantWide = await call('GET', tenantList('?include=next_availability&filter[employee_id]=' + s.colleagueEmployee.id), s.admin.token);
      expect(tenantWide.json().data[1].next_availability).toEqual({ date: '2026-04-15', time: null, in_past: false, reason: 'after_request' });
    });

    it('reads one row for its employee, its validators, administrators and the PBX key; anyone else and other tenants 404', async () => {
      for (const token of [s.worker.token, head.token, s.admin.token, s.pbxKey]) expect((await read(s, w1.id, token)).id).toBe(w1.id);
      expect((await read(s, c0.id, s.colleague.token)).accepted_by).toEqual([{ employee_id: null, status: 'pending' }]);
      expect((await read(s, w1.id)).accepted_by).toEqual([{ employee_id: headEmployee, status: 'pending' }]);
      for (const [who, token, id] of [
        ['colleague', s.colleague.token, w1.id],
        ['user without an employee record', s.outsider.token, w1.id],
        ['a validator named after the row was asked', head.token, c0.id],
        ['another tenant\u2019s row', s.admin.token, foreign.id],
        ['an unknown id', s.admin.token, UNKNOWN],
      ]) {
        const response = await call('GET', oneUrl(s, id), token);
        expect(response.statusCode, who).toBe(404);
        expect(response.json(), who).toEqual({ message: [expect.any(String)] });
      }
      const stranger = await createAdmin(t.ctx, await createTenant(t.ctx));
      expect((await call('GET', oneUrl(s, w1.id), stranger.token)).statusCode).toBe(403);
      expect((await call('GET', oneUrl(s, 'not-a-uuid'), s.admin.token)).statusCode).toBe(422);
    });
  });
});
