import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../../platform/clock.js';
import { buildTestApp, type TestApp } from '../../../../../test/helpers.js';
import { createUser } from '../../../../../test/factories.js';
import { createEmployee } from '../../../../../test/workforce-factories.js';
import { absenceFixtures, type TimeSetup } from '../../../../../test/absence-fixtures.js';
import { failAfterNextPublish, storedEvents } from '../../../../../test/live-events.js';

/** Sunday 15 March 2026, 10:00 in Luxembourg. */
const NOW = '2026-03-15T09:00:00.000Z';
const WEEK = { type: 'legal', start: '2026-05-11', end: '2026-05-15' };

describe('live events of absence and home-office decisions', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ clock: new ManualClock(NOW), env: { RATE_LIMIT_PER_MINUTE: '10000' } });
  });
  afterAll(() => t.close());
  const { call, dataOf, timeTenant, ask, move, setValidators } = absenceFixtures(() => t);

  /** A tenant whose worker has balances, and a user linked to an employee who validates the department's requests. */
  async function withValidator() {
    const s = await timeTenant({ balances: { leave_balance: 26, compensatory_balance: 72000, ho_balance: 10 } });
    const head = await createUser(t.ctx, { tenant: s.tenant });
    const headEmployee = await createEmployee(t.ctx, s.tenant, { userId: head.id });
    await setValidators(s, [headEmployee.id]);
    return { s, head };
  }
  /** The tenant's events: kind, subject, the users named (sorted) and the data. */
  async function said(s: TimeSetup) {
    return (await storedEvents(t.ctx, s.tenant.pbxId)).map((event) => ({
      kind: event.kind,
      subject: event.subject.id,
      users: event.audience.scope === 'users' ? [...event.audience.userIds].sort() : event.audience.scope,
      data: event.data,
    }));
  }

  it('tells the employee and its validator of a request, its approval, the removal asked and approved', async () => {
    const { s, head } = await withValidator();
    const row = await ask(s, WEEK);
    await move(s, row.id, 'approve', head.token);
    const removal = await move(s, row.id, 'removal');
    await move(s, removal.id, 'approve', head.token);
    const both = [s.worker.id, head.id].sort();
    const data = { employee_id: s.employee.id, type: 'legal', start: WEEK.start, end: WEEK.end };
    expect(await said(s)).toEqual([
      { kind: 'absence_request.requested', subject: row.id, users: both, data: { ...data, removal_of_id: null } },
      { kind: 'absence_request.approved', subject: row.id, users: both, data: { ...data, removal_of_id: null } },
      { kind: 'absence_request.removal_requested', subject: removal.id, users: both, data: { ...data, removal_of_id: row.id } },
      { kind: 'absence_request.removal_approved', subject: removal.id, users: both, data: { ...data, removal_of_id: row.id } },
    ]);
  });

  it('tells of a rejection and a cancel; an approval by one validator of two is no decision yet', async () => {
    const { s, head } = await withValidator();
    const deputy = await createUser(t.ctx, { tenant: s.tenant });
    const deputyEmployee = await createEmployee(t.ctx, s.tenant, { userId: deputy.id });
    const headEmployee = (await t.ctx.db.selectFrom('users').select('employee_id').where('id', '=', head.id).executeTakeFirstOrThrow()).employee_id!;
    await setValidators(s, [headEmployee, deputyEmployee.id]);
    const rejected = await ask(s, WEEK);
    await move(s, rejected.id, 'approve', head.token);
    await move(s, rejected.id, 'reject', deputy.token);
    const canceled = await ask(s, { type: 'legal', start: '2026-06-01', end: '2026-06-02' });
    await move(s, canceled.id, 'cancel', s.worker.token);
    const all = [s.worker.id, head.id, deputy.id].sort();
    expect((await said(s)).map(({ kind, subject, users }) => [kind, subject, users])).toEqual([
      ['absence_request.requested', rejected.id, all],
      ['absence_request.rejected', rejected.id, all],
      ['absence_request.requested', canceled.id, all],
      ['absence_request.canceled', canceled.id, all],
    ]);
  });

  it('tells of each home-office day asked for, and its decision, as home_office_request', async () => {
    const { s, head } = await withValidator();
    const days = dataOf<Array<{ id: string }>>(
      await call('POST', `/${s.tenant.pbxId}/user/${s.employee.id}/home-office-requests`, s.worker.token, { dates: ['2026-03-17', '2026-03-18'] }),
      201,
    );
    await move(s, days[0].id, 'approve', head.token);
    const events = await said(s);
    expect(events.map(({ kind, subject }) => [kind, subject])).toEqual([
      ['home_office_request.requested', days[0].id],
      ['home_office_request.requested', days[1].id],
      ['home_office_request.approved', days[0].id],
    ]);
    expect(events[0].data).toEqual({ employee_id: s.employee.id, type: 'home_office', start: '2026-03-17', end: '2026-03-17', removal_of_id: null });
  });

  it('leaves the request pending, without an event, when its approval fails after the publish', async () => {
    const { s, head } = await withValidator();
    const row = await ask(s, WEEK);
    const spy = failAfterNextPublish(t.ctx);
    try {
      expect((await call('POST', `/${s.tenant.pbxId}/absence-requests/${row.id}/approve`, head.token)).statusCode).toBe(500);
    } finally {
      spy.mockRestore();
    }
    expect(dataOf<{ status: string }>(await call('GET', `/${s.tenant.pbxId}/absence-requests/${row.id}`, s.admin.token), 200).status).toBe('pending');
    expect((await said(s)).map(({ kind }) => kind)).toEqual(['absence_request.requested']);
  });
});
