import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../../platform/clock.js';
import { buildTestApp, type TestApp } from '../../../../../test/helpers.js';
import { absenceFixtures, type AbsenceView } from '../../../../../test/absence-fixtures.js';

/** 10:00 in Luxembourg on Sunday 15 March 2026. */
const NOW = '2026-03-15T09:00:00.000Z';
const UNKNOWN = '00000000-0000-4000-8000-000000000000';

describe('next availability', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ clock: new ManualClock(NOW), env: { RATE_LIMIT_PER_MINUTE: '10000' } });
  });
  afterAll(() => t.close());
  afterEach(() => t.clock.set(NOW));
  const { call, dataOf, timeTenant, ask, move, read, granted } = absenceFixtures(() => t);

  describe('next_availability of a request', () => {
    it('after a Friday-ending absence: the next Monday; with an accepted absence following: after it', async () => {
      const s = await timeTenant();
      const week = await ask(s, { type: 'legal', start: '2026-06-15', end: '2026-06-19' });
      expect(week.next_availability).toEqual({ date: '2026-06-22', time: null, in_past: false, reason: 'after_request' });
      // A pending request that follows is ignored; an accepted one counts.
      const queued = await ask(s, { type: 'legal', start: '2026-06-22', end: '2026-06-22' });
      expect((await read(s, week.id)).next_availability).toEqual({ date: '2026-06-22', time: null, in_past: false, reason: 'after_request' });
      await move(s, queued.id, 'approve');
      await granted(s, { type: 'illness', start: '2026-06-23', end: '2026-06-24' });
      expect((await read(s, week.id)).next_availability).toEqual({ date: '2026-06-25', time: null, in_past: false, reason: 'after_absences' });
    });

    it('ending with a half day: that day, from its end_time; across a public holiday: the day after it', async () => {
      const s = await timeTenant();
      const half = await ask(s, { type: 'legal', start: '2026-07-06', end: '2026-07-07', ends_half_day: true });
      expect(half.next_availability).toEqual({ date: '2026-07-07', time: '12:00', in_past: false, reason: 'after_request' });
      const own = await ask(s, { type: 'illness', start: '2026-07-09', end: '2026-07-09', ends_half_day: true, end_time: '10:15' });
      expect(own.next_availability).toEqual({ date: '2026-07-09', time: '10:15', in_past: false, reason: 'after_request' });
      // A single afternoon off: back on the next working day (Friday 10 July to Monday 13 July), not that morning.
      const afternoon = await ask(s, { type: 'special', start: '2026-07-10', end: '2026-07-10', starts_half_day: true });
      expect(afternoon.next_availability).toEqual({ date: '2026-07-13', time: null, in_past: false, reason: 'after_request' });
      // Wednesday before Ascension: Thursday is a holiday, so Friday.
      const ascension = await ask(s, { type: 'special', start: '2026-05-11', end: '2026-05-13' });
      expect(ascension.next_availability).toEqual({ date: '2026-05-15', time: null, in_past: false, reason: 'after_request' });
      // Whit Monday after a Friday: Tuesday.
      const whitsun = await ask(s, { type: 'legal', start: '2026-05-22', end: '2026-05-22' });
      expect(whitsun.next_availability?.date).toBe('2026-05-26');
    });

    it("a removal row: the removed request's first working day, in the past when that is before today", async () => {
      const s = await timeTenant();
      const past = await granted(s, { type: 'legal', start: '2026-03-01', end: '2026-03-06' });
      const removal = await move(s, past.id, 'removal', s.worker.token);
      expect(removal.next_availability).toEqual({ date: '2026-03-02', time: null, in_past: true, reason: 'removal' });
      const future = await granted(s, { type: 'illness', start: '2026-04-20', end: '2026-04-24' });
      const futureRemoval = await move(s, future.id, 'removal', s.admin.token);
      expect(futureRemoval.next_availability).toEqual({ date: '2026-04-20', time: null, in_past: false, reason: 'removal' });
      // The request being taken back (pending_removal) still counts as away.
      expect((await read(s, future.id)).next_availability).toEqual({ date: '2026-04-27', time: null, in_past: false, reason: 'after_request' });
    });

    it('is null for home office and time off against overtime', async () => {
      const s = await timeTenant();
      const overtime = await ask(s, { type: 'overtime_balance', start: '2026-06-01', end: '2026-06-02' });
      expect(overtime.next_availability).toBeNull();
      const homeOffice = dataOf<AbsenceView[]>(
        await call('POST', `/${s.tenant.pbxId}/user/${s.employee.id}/home-office-requests`, s.worker.token, { dates: ['2026-06-03'] }),
        201,
      );
      expect(homeOffice[0]).toMatchObject({ type: 'home_office', next_availability: null });
      expect((await read(s, homeOffice[0].id)).next_availability).toBeNull();
    });
  });

  describe('GET /user/{employee_id}/next-availability', () => {
    const url = (employeeId: string) => `/user/${employeeId}/next-availability`;
    /** 11:00 in Luxembourg on Wednesday 10 June 2026. */
    const WEDNESDAY = '2026-06-10T09:00:00.000Z';

    // User tokens live an hour: the setup is made at the day of the test, and the PBX key (which does not expire) asks on other days.
    it('at_work today; next_working_day over a weekend; after_absences during an accepted absence (pending ones ignored)', async () => {
      t.clock.set(WEDNESDAY);
      const s = await timeTenant();
      const atWork = await call('GET', url(s.employee.id), s.worker.token);
      expect(atWork.statusCode).toBe(200);
      expect(atWork.json()).toEqual({ data: { employee_id: s.employee.id, date: '2026-06-10', time: null, in_past: false, reason: 'at_work' } });
      // A pending request for today is ignored.
      const today = await ask(s, { type: 'legal', start: '2026-06-10', end: '2026-06-10' });
      expect(dataOf(await call('GET', url(s.employee.id), s.worker.token), 200)).toMatchObject({ date: '2026-06-10', reason: 'at_work' });
      await move(s, today.id, 'cancel', s.worker.token);
      await ask(s, { type: 'legal', start: '2026-06-11', end: '2026-06-12' });

      t.clock.set('2026-06-13T09:00:00.000Z'); // a Saturday
      expect(dataOf(await call('GET', url(s.employee.id), s.pbxKey), 200)).toEqual({
        employee_id: s.employee.id,
        date: '2026-06-15',
        time: null,
        in_past: false,
        reason: 'next_working_day',
      });

      t.clock.set(WEDNESDAY);
      await granted(s, { type: 'illness', start: '2026-06-15', end: '2026-06-17' });
      const away = await granted(s, { type: 'special', start: '2026-06-09', end: '2026-06-10' });
      expect(away.status).toBe('accepted');
      // The pending legal absence of 11 and 12 June does not count: Thursday.
      expect(dataOf(await call('GET', url(s.employee.id), s.worker.token), 200)).toEqual({
        employee_id: s.employee.id,
        date: '2026-06-11',
        time: null,
        in_past: false,
        reason: 'after_absences',
      });
      t.clock.set('2026-06-13T09:00:00.000Z');
      expect(dataOf(await call('GET', url(s.employee.id), s.pbxKey), 200)).toMatchObject({ date: '2026-06-18', reason: 'after_absences' });
    });

    it('a morning off today: at work from its end_time; home office is work', async () => {
      t.clock.set(WEDNESDAY);
      const s = await timeTenant();
      await granted(s, { type: 'legal', start: '2026-06-10', end: '2026-06-10', ends_half_day: true, end_time: '12:30' });
      expect(dataOf(await call('GET', url(s.employee.id), s.worker.token), 200)).toMatchObject({ date: '2026-06-10', time: '12:30' });
      const [homeOffice] = dataOf<AbsenceView[]>(
        await call('POST', `/${s.tenant.pbxId}/user/${s.employee.id}/home-office-requests`, s.worker.token, { dates: ['2026-06-11'] }),
        201,
      );
      await move(s, homeOffice.id, 'approve');
      t.clock.set('2026-06-11T09:00:00.000Z');
      expect(dataOf(await call('GET', url(s.employee.id), s.pbxKey), 200)).toMatchObject({ date: '2026-06-11', time: null, reason: 'at_work' });
    });

    it('a team view: colleagues, administrators and the PBX key ask; a user without an employee record 403; unknown or other tenants\u2019 employees 404', async () => {
      const s = await timeTenant();
      for (const token of [s.colleague.token, s.admin.token, s.pbxKey])
        expect(dataOf(await call('GET', url(s.employee.id), token), 200)).toMatchObject({ employee_id: s.employee.id });
      // An employee without contract or shift has no scheduled work.
      expect(dataOf(await call('GET', url(s.colleagueEmployee.id), s.worker.token), 200)).toEqual({
        employee_id: s.colleagueEmployee.id,
        date: null,
        time: null,
        in_past: false,
        reason: 'no_scheduled_work',
      });
      const noRecord = await call('GET', url(s.employee.id), s.outsider.token);
      expect(noRecord.statusCode).toBe(403);
      expect(noRecord.json()).toEqual({ message: expect.any(String) });
      const other = await timeTenant();
      for (const employeeId of [UNKNOWN, other.employee.id]) {
        const response = await call('GET', url(employeeId), s.worker.token);
        expect(response.statusCode, employeeId).toBe(404);
        expect(response.json()).toEqual({ message: [expect.any(String)] });
      }
      expect((await call('GET', url(s.employee.id), other.admin.token)).statusCode).toBe(404);
      expect((await call('GET', url('not-a-uuid'), s.worker.token)).statusCode).toBe(422);
      expect((await t.app.inject({ method: 'GET', url: `/api/v1${url(s.employee.id)}` })).statusCode).toBe(401);
    });
  });
});
