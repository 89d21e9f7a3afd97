import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../../platform/clock.js';
import { buildTestApp, type TestApp } from '../../../../../test/helpers.js';
import { createUser } from '../../../../../test/factories.js';
import { createEmployee } from '../../../../../test/workforce-factories.js';
import { absenceFixtures, type AbsenceView, type TimeSetup } from '../../../../../test/absence-fixtures.js';

/** 10:00 in Luxembourg on Sunday 15 March 2026. */
const NOW = '2026-03-15T09:00:00.000Z';
const UNKNOWN = '00000000-0000-4000-8000-000000000000';
/** Monday to Friday, 4 working days (Ascension on the Thursday). */
const WEEK = { type: 'legal', start: '2026-05-11', end: '2026-05-15' };

describe('absence request moves', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ clock: new ManualClock(NOW), env: { RATE_LIMIT_PER_MINUTE: '10000' } });
  });
  afterAll(() => t.close());
  afterEach(() => t.clock.set(NOW));
  const { call, dataOf, employ, timeTenant, absencesUrl, oneUrl, ask, move, read, granted, setValidators, balances } = absenceFixtures(() => t);

  /** A tenant whose worker has balances, and two users linked to employees who may validate. */
  async function withValidators(balanceFields: Record<string, number | null> = { leave_balance: 26, compensatory_balance: 72000, ho_balance: 10 }) {
    const s = await timeTenant({ balances: balanceFields });
    const validator = async () => {
      const user = await createUser(t.ctx, { tenant: s.tenant });
      return { ...user, employeeId: (await createEmployee(t.ctx, s.tenant, { userId: user.id })).id };
    };
    return { s, head: await validator(), deputy: await validator() };
  }
  const refused = async (s: TimeSetup, id: string, name: string, token: string, status: number) => {
    const response = await call('POST', oneUrl(s, id, name), token);
    expect(response.statusCode, `${name}: ${response.body}`).toBe(status);
    return response.json<{ message: string | string[]; errors?: Record<string, string[]> }>();
  };
  const statusOf = async (s: TimeSetup, id: string) => (await read(s, id)).status;

  describe('approve and reject', () => {
    it('a single validator accepts: the request is accepted and the leave balance debited by its working days', async () => {
      const { s, head } = await withValidators();
      await setValidators(s, [head.employeeId]);
      const row = await ask(s, WEEK);
      expect(row.accepted_by).toEqual([{ employee_id: head.employeeId, status: 'pending' }]);
      t.clock.advance(60);
      const accepted = await move(s, row.id, 'approve', head.token);
      expect(accepted).toMatchObject({ id: row.id, status: 'accepted', accepted_by: [{ employee_id: head.employeeId, status: 'accepted' }] });
      expect([accepted.created, accepted.modified]).toEqual([NOW, '2026-03-15T09:01:00.000Z']);
      expect(await balances(s)).toEqual({ leave_balance: 22, compensatory_balance: 72000, ho_balance: 10 });
      // Decided rows are decided: approving or rejecting again is 422 on status.
      for (const [name, token] of [
        ['approve', head.token],
        ['approve', s.admin.token],
        ['reject', head.token],
      ]) {
        const body = await refused(s, row.id, name, token, 422);
        expect(body).toEqual({ message: expect.any(String), errors: { status: [expect.stringContaining('accepted')] } });
      }
      expect(await balances(s)).toMatchObject({ leave_balance: 22 });
    });

    it('two validators: the first approval keeps it pending, the second accepts it; deciding one\u2019s entry twice is 422', async () => {
      const { s, head, deputy } = await withValidators();
      await setValidators(s, [head.employeeId, deputy.employeeId]);
      const row = await ask(s, WEEK);
      const first = await move(s, row.id, 'approve', head.token);
      expect(first).toMatchObject({
        status: 'pending',
        accepted_by: [
          { employee_id: head.employeeId, status: 'accepted' },
          { employee_id: deputy.employeeId, status: 'pending' },
        ],
      });
      expect(await balances(s)).toMatchObject({ leave_balance: 26 });
      const twice = await refused(s, row.id, 'approve', head.token, 422);
      expect(twice.errors).toEqual({ status: [expect.stringContaining('already decided')] });
      expect(await refused(s, row.id, 'reject', head.token, 422)).toMatchObject({ errors: { status: [expect.any(String)] } });
      const second = await move(s, row.id, 'approve', deputy.token);
      expect(second).toMatchObject({
        status: 'accepted',
        accepted_by: [
          { employee_id: head.employeeId, status: 'accepted' },
          { employee_id: deputy.employeeId, status: 'accepted' },
        ],
      });
      expect(await balances(s)).toMatchObject({ leave_balance: 22 });
    });

    it('one rejection rejects, whatever the others decided; nothing is debited', async () => {
      const { s, head, deputy } = await withValidators();
      await setValidators(s, [head.employeeId, deputy.employeeId]);
      const row = await ask(s, WEEK);
      await move(s, row.id, 'approve', head.token);
      const rejected = await move(s, row.id, 'reject', deputy.token);
      expect(rejected).toMatchObject({
        status: 'rejected',
        accepted_by: [
          { employee_id: head.employeeId, status: 'accepted' },
          { employee_id: deputy.employeeId, status: 'rejected' },
        ],
      });
      expect(await balances(s)).toMatchObject({ leave_balance: 26 });
      expect((await refused(s, row.id, 'approve', s.admin.token, 422)).errors?.status[0]).toContain('rejected');
      // A rejection by the first validator settles it too.
      const next = await ask(s, { type: 'legal', start: '2026-06-01', end: '2026-06-01' });
      expect((await move(s, next.id, 'reject', head.token)).accepted_by).toEqual([
        { employee_id: head.employeeId, status: 'rejected' },
        { employee_id: deputy.employeeId, status: 'pending' },
      ]);
      expect(await statusOf(s, next.id)).toBe('rejected');
      expect(await refused(s, next.id, 'approve', deputy.token, 422)).toMatchObject({ errors: { status: [expect.any(String)] } });
    });

    it('an administrator (or the PBX key) decides every entry still pending at once', async () => {
      const { s, head, deputy } = await withValidators();
      await setValidators(s, [head.employeeId, deputy.employeeId]);
      const row = await ask(s, WEEK);
      await move(s, row.id, 'approve', head.token);
      expect((await move(s, row.id, 'approve', s.admin.token)).accepted_by).toEqual([
        { employee_id: head.employeeId, status: 'accepted' },
        { employee_id: deputy.employeeId, status: 'accepted' },
      ]);
      expect(await statusOf(s, row.id)).toBe('accepted');
      const other = await ask(s, { type: 'illness', start: '2026-06-01', end: '2026-06-02' });
      expect(await move(s, other.id, 'reject', s.pbxKey)).toMatchObject({
        status: 'rejected',
        accepted_by: [
          { employee_id: head.employeeId, status: 'rejected' },
          { employee_id: deputy.employeeId, status: 'rejected' },
        ],
      });
    });

    it('without department validators: one entry for any administrator; the employee itself is never its own validator', async () => {
      const { s, head } = await withValidators();
      const row = await ask(s, WEEK);
      expect(row.accepted_by).toEqual([{ employee_id: null, status: 'pending' }]);
      // Nobody but an administrator sees it to decide it.
      for (const token of [head.token, s.colleague.token, s.outsider.token]) expect((await refused(s, row.id, 'approve', token, 404)).message).toHaveLength(1);
      expect((await move(s, row.id, 'approve', s.admin.token)).accepted_by).toEqual([{ employee_id: null, status: 'accepted' }]);
      // A department naming the employee itself leaves it out; naming only it is as naming nobody.
      await setValidators(s, [s.employee.id, head.employeeId]);
      expect((await ask(s, { type: 'legal', start: '2026-06-01', end: '2026-06-01' })).accepted_by).toEqual([
        { employee_id: head.employeeId, status: 'pending' },
      ]);
      await setValidators(s, [s.employee.id]);
      expect((await ask(s, { type: 'legal', start: '2026-06-02', end: '2026-06-02' })).accepted_by).toEqual([{ employee_id: null, status: 'pending' }]);
      // Validators are snapshotted when the request is made: a later change leaves its entries as they were.
      await setValidators(s, [head.employeeId]);
      expect((await read(s, row.id)).accepted_by).toEqual([{ employee_id: null, status: 'accepted' }]);
    });

    it('the employee may not decide its own request (403), nor an administrator its own; others who cannot see it 404; other PBXs 403', async () => {
      const { s, head, deputy } = await withValidators();
      await setValidators(s, [head.employeeId]);
      const row = await ask(s, WEEK);
      for (const name of ['approve', 'reject']) expect(await refused(s, row.id, name, s.worker.token, 403)).toEqual({ message: expect.any(String) });
      // Users who do not see the row: a non-validator, a user without an employee record.
      for (const token of [deputy.token, s.colleague.token, s.outsider.token])
        for (const name of ['approve', 'reject', 'cancel', 'removal'])
          expect(await refused(s, row.id, name, token, 404)).toEqual({ message: [expect.any(String)] });
      // Unknown ids, and another tenant's row under one's own PBX, are 404; another PBX in the path 403.
      const other = await withValidators();
      const foreign = await ask(other.s, WEEK);
      for (const id of [UNKNOWN, foreign.id]) expect(await refused(s, id, 'approve', s.admin.token, 404)).toEqual({ message: [expect.any(String)] });
      expect(await refused(other.s, foreign.id, 'approve', s.admin.token, 403)).toEqual({ message: expect.any(String) });
      expect(await refused(s, 'not-a-uuid', 'approve', s.admin.token, 422)).toMatchObject({ errors: { absence_request: [expect.any(String)] } });
      expect(await statusOf(other.s, foreign.id)).toBe('pending');
      expect(await statusOf(s, row.id)).toBe('pending');

      // An administrator with an employee record of its own decides everyone's but its own.
      const own = await createEmployee(t.ctx, s.tenant, { userId: s.admin.id });
      await employ(s, { employeeId: own.id });
      const adminsOwn = await ask(s, WEEK, { token: s.admin.token, employeeId: own.id });
      expect(adminsOwn.accepted_by).toEqual([{ employee_id: head.employeeId, status: 'pending' }]);
      expect(await refused(s, adminsOwn.id, 'approve', s.admin.token, 403)).toEqual({ message: expect.any(String) });
      expect((await move(s, adminsOwn.id, 'approve', head.token)).status).toBe('accepted');
      expect((await move(s, row.id, 'approve', s.admin.token)).status).toBe('accepted');
    });
  });

  describe('cancel', () => {
    it('the employee (or an administrator) withdraws a pending request; a validator may not (403); a decided one is 422', async () => {
      const { s, head } = await withValidators();
      await setValidators(s, [head.employeeId]);
      const row = await ask(s, WEEK);
      expect(await refused(s, row.id, 'cancel', head.token, 403)).toEqual({ message: expect.any(String) });
      const canceled = await move(s, row.id, 'cancel', s.worker.token);
      expect(canceled).toMatchObject({ status: 'canceled', accepted_by: [{ employee_id: head.employeeId, status: 'pending' }] });
      expect(await refused(s, row.id, 'cancel', s.worker.token, 422)).toEqual({
        message: expect.any(String),
        errors: { status: [expect.stringContaining('canceled')] },
      });
      expect(await refused(s, row.id, 'approve', head.token, 422)).toMatchObject({ errors: { status: [expect.any(String)] } });

      const byAdmin = await ask(s, { type: 'illness', start: '2026-06-01', end: '2026-06-01' });
      expect((await move(s, byAdmin.id, 'cancel', s.admin.token)).status).toBe('canceled');
      // An accepted request is taken back with a removal, not canceled.
      const accepted = await granted(s, { type: 'legal', start: '2026-06-02', end: '2026-06-02' });
      const refusal = await refused(s, accepted.id, 'cancel', s.worker.token, 422);
      expect(refusal.errors?.status[0]).toContain('accepted');
      expect(await statusOf(s, accepted.id)).toBe('accepted');
    });
  });

  describe('removal', () => {
    it('an accepted request becomes pending_removal and a removal row is created (201); approving it removes the request and credits the balance', async () => {
      const { s, head } = await withValidators();
      await setValidators(s, [head.employeeId]);
      const row = await ask(s, { ...WEEK, comment: 'Trip' });
      await move(s, row.id, 'approve', head.token);
      expect(await balances(s)).toMatchObject({ leave_balance: 22 });

      const response = await call('POST', oneUrl(s, row.id, 'removal'), s.worker.token);
      expect(response.statusCode, response.body).toBe(201);
      const removal = response.json<{ data: AbsenceView }>().data;
      expect(removal.id).not.toBe(row.id);
      expect(removal).toMatchObject({
        absence_request_id: removal.id,
        employee_id: s.employee.id,
        company_id: s.company.id,
        status: 'pending',
        type: 'legal',
        sub_type: 'removal',
        removal_of_id: row.id,
        start: row.start,
        end: row.end,
        requested_time: row.requested_time,
        working_days: 4,
        total_seconds: 115200,
        comment: 'Trip',
        accepted_by: [{ employee_id: head.employeeId, status: 'pending' }],
      });
      expect(await statusOf(s, row.id)).toBe('pending_removal');
      // The removal row is listed beside the request it takes back; the balance is untouched until it is decided.
      const listed = (await call('GET', absencesUrl(s), s.worker.token)).json<{ data: AbsenceView[] }>().data;
      expect(listed.map((entry) => [entry.id, entry.status, entry.sub_type])).toEqual(
        expect.arrayContaining([
          [row.id, 'pending_removal', null],
          [removal.id, 'pending', 'removal'],
        ]),
      );
      expect(await balances(s)).toMatchObject({ leave_balance: 22 });

      const approved = await move(s, removal.id, 'approve', head.token);
      expect(approved).toMatchObject({ status: 'accepted', sub_type: 'removal', accepted_by: [{ employee_id: head.employeeId, status: 'accepted' }] });
      expect(await statusOf(s, row.id)).toBe('removed');
      expect(await balances(s)).toMatchObject({ leave_balance: 26 });
      // The days are free again.
      expect((await ask(s, WEEK)).working_days).toBe(4);
      // A removed request is not taken back again.
      expect((await refused(s, row.id, 'removal', s.worker.token, 422)).errors?.status[0]).toContain('removed');
    });

    it('one removal at a time (the second names the pending one); a pending request, a removal row and a validator are refused', async () => {
      const { s, head, deputy } = await withValidators();
      await setValidators(s, [head.employeeId]);
      const pending = await ask(s, { type: 'legal', start: '2026-06-01', end: '2026-06-01' });
      const pendingRefusal = await refused(s, pending.id, 'removal', s.worker.token, 422);
      expect(pendingRefusal).toEqual({ message: expect.any(String), errors: { status: [expect.stringContaining('cancel it instead')] } });

      const row = await granted(s, WEEK);
      expect(await refused(s, row.id, 'removal', head.token, 403)).toEqual({ message: expect.any(String) });
      const removal = await move(s, row.id, 'removal', s.worker.token);
      const second = await refused(s, row.id, 'removal', s.worker.token, 422);
      expect(second.errors?.status[0]).toContain(removal.id);
      expect((await refused(s, removal.id, 'removal', s.worker.token, 422)).errors).toEqual({ status: [expect.any(String)] });
      // The request being taken back is not decided itself: its removal row is.
      expect((await refused(s, row.id, 'approve', head.token, 422)).errors?.status[0]).toContain('removal');
      expect((await refused(s, row.id, 'cancel', s.worker.token, 422)).errors?.status[0]).toContain('pending removal');
      // An administrator may ask a removal for the employee; the department's validators of now decide it.
      const other = await granted(s, { type: 'illness', start: '2026-06-02', end: '2026-06-02' });
      expect(other.accepted_by).toEqual([{ employee_id: head.employeeId, status: 'accepted' }]);
      await setValidators(s, [deputy.employeeId]);
      expect(await move(s, other.id, 'removal', s.admin.token)).toMatchObject({
        sub_type: 'removal',
        removal_of_id: other.id,
        type: 'illness',
        accepted_by: [{ employee_id: deputy.employeeId, status: 'pending' }],
      });
    });

    it('a rejected or canceled removal leaves the request accepted, its balance still debited; it can be asked again', async () => {
      const { s, head } = await withValidators();
      await setValidators(s, [head.employeeId]);
      const row = await granted(s, WEEK);
      expect(await balances(s)).toMatchObject({ leave_balance: 22 });
      const rejected = await move(s, await move(s, row.id, 'removal', s.worker.token).then((r) => r.id), 'reject', head.token);
      expect(rejected).toMatchObject({ status: 'rejected', sub_type: 'removal' });
      expect(await statusOf(s, row.id)).toBe('accepted');
      const canceled = await move(s, (await move(s, row.id, 'removal', s.worker.token)).id, 'cancel', s.worker.token);
      expect(canceled).toMatchObject({ status: 'canceled', sub_type: 'removal' });
      expect(await statusOf(s, row.id)).toBe('accepted');
      expect(await balances(s)).toMatchObject({ leave_balance: 22 });
      // The employee may not decide its own removal either.
      const third = await move(s, row.id, 'removal', s.worker.token);
      expect(await refused(s, third.id, 'approve', s.worker.token, 403)).toEqual({ message: expect.any(String) });
      await move(s, third.id, 'approve', s.admin.token);
      expect(await statusOf(s, row.id)).toBe('removed');
      expect(await balances(s)).toMatchObject({ leave_balance: 26 });
    });
  });

  describe('balances', () => {
    it('a legal absence debits leave_balance by its working days (half days too), illness and special leave nothing', async () => {
      const { s } = await withValidators({ leave_balance: 3 });
      await granted(s, { type: 'legal', start: '2026-06-01', end: '2026-06-02', ends_half_day: true });
      expect(await balances(s)).toMatchObject({ leave_balance: 1.5 });
      await granted(s, { type: 'illness', start: '2026-06-03', end: '2026-06-05' });
      await granted(s, { type: 'special', start: '2026-06-08', end: '2026-06-08' });
      expect(await balances(s)).toMatchObject({ leave_balance: 1.5 });
      // The balance may go below zero: the approval records what the contract owes.
      await granted(s, WEEK);
      expect(await balances(s)).toMatchObject({ leave_balance: -2.5 });
    });

    it('time off against overtime debits compensatory_balance by its seconds, and a removal credits them back', async () => {
      const { s } = await withValidators();
      const row = await granted(s, { type: 'overtime_balance', start: '2026-06-01', end: '2026-06-02', starts_half_day: true });
      expect(row.total_seconds).toBe(43200);
      expect(await balances(s)).toEqual({ leave_balance: 26, compensatory_balance: 28800, ho_balance: 10 });
      await move(s, (await move(s, row.id, 'removal', s.worker.token)).id, 'approve');
      expect(await balances(s)).toEqual({ leave_balance: 26, compensatory_balance: 72000, ho_balance: 10 });
    });

    it('a home-office day debits ho_balance when it is tracked, and leaves an untracked (null) one null', async () => {
      const homeOffice = async (s: TimeSetup, date: string) =>
        dataOf<AbsenceView[]>(await call('POST', `/${s.tenant.pbxId}/user/${s.employee.id}/home-office-requests`, s.worker.token, { dates: [date] }), 201)[0];
      const tracked = await withValidators();
      const day = await homeOffice(tracked.s, '2026-04-14');
      expect(day).toMatchObject({ type: 'home_office', working_days: 1, total_seconds: 28800 });
      await move(tracked.s, day.id, 'approve');
      expect(await balances(tracked.s)).toEqual({ leave_balance: 26, compensatory_balance: 72000, ho_balance: 9 });
      await move(tracked.s, (await move(tracked.s, day.id, 'removal', tracked.s.worker.token)).id, 'approve');
      expect(await balances(tracked.s)).toMatchObject({ ho_balance: 10 });

      const untracked = await withValidators({ leave_balance: 26, ho_balance: null });
      const other = await homeOffice(untracked.s, '2026-04-14');
      expect((await move(untracked.s, other.id, 'approve')).status).toBe('accepted');
      expect(await balances(untracked.s)).toMatchObject({ ho_balance: null, leave_balance: 26 });
      await move(untracked.s, (await move(untracked.s, other.id, 'removal', untracked.s.worker.token)).id, 'approve');
      expect(await balances(untracked.s)).toMatchObject({ ho_balance: null });
    });
  });

  describe('concurrent decisions', () => {
    it('two validators approving at once: accepted, debited exactly once', async () => {
      const { s, head, deputy } = await withValidators();
      await setValidators(s, [head.employeeId, deputy.employeeId]);
      const row = await ask(s, WEEK);
      const answers = await Promise.all([head.token, deputy.token].map((token) => call('POST', oneUrl(s, row.id, 'approve'), token)));
      expect(answers.map((answer) => answer.statusCode)).toEqual([200, 200]);
      expect((await read(s, row.id)).status).toBe('accepted');
      expect(await balances(s)).toMatchObject({ leave_balance: 22 });
    });

    it('the same administrator approving twice at once: one 200, one 422, debited exactly once', async () => {
      const { s } = await withValidators();
      const row = await ask(s, WEEK);
      const answers = await Promise.all([1, 2].map(() => call('POST', oneUrl(s, row.id, 'approve'), s.admin.token)));
      expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 422]);
      expect((await read(s, row.id)).status).toBe('accepted');
      expect(await balances(s)).toMatchObject({ leave_balance: 22 });
    });

    it('two requests for the same day at once: one is created, the other refused as overlapping', async () => {
      const { s } = await withValidators();
      const answers = await Promise.all(
        [s.worker.token, s.admin.token].map((token) => call('POST', absencesUrl(s), token, { type: 'legal', start: '2026-06-01', end: '2026-06-03' })),
      );
      expect(answers.map((answer) => answer.statusCode).sort()).toEqual([201, 422]);
      expect((await call('GET', absencesUrl(s), s.worker.token)).json().meta.total).toBe(1);
    });

    it('approving two requests at once debits both; two removals of one request at once create one', async () => {
      const { s } = await withValidators();
      const [first, second] = [await ask(s, WEEK), await ask(s, { type: 'legal', start: '2026-06-01', end: '2026-06-02' })];
      await Promise.all([first, second].map((row) => move(s, row.id, 'approve')));
      expect(await balances(s)).toMatchObject({ leave_balance: 20 });
      const removals = await Promise.all([1, 2].map(() => call('POST', oneUrl(s, first.id, 'removal'), s.worker.token)));
      expect(removals.map((answer) => answer.statusCode).sort()).toEqual([201, 422]);
      const rows = (await call('GET', `${absencesUrl(s)}?filter[status]=pending`, s.worker.token)).json<{ data: AbsenceView[] }>().data;
      expect(rows.map((entry) => entry.removal_of_id)).toEqual([first.id]);
    });
  });
});
