import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../../platform/clock.js';
import { claimJob, JobWorker } from '../../../../platform/jobs/jobs.js';
import { issueUserToken } from '../../../../platform/auth/tokens.js';
import { useTestApp } from '../../../../../test/helpers.js';
import { absenceFixtures, type TimeSetup } from '../../../../../test/absence-fixtures.js';
import { createEmployee } from '../../../../../test/factories.js';
import { runRecurringTransaction } from './recurring-run.js';

// 31 January, 11:00 in Luxembourg (the tenants' zone, CET/CEST like Berlin).
const NOW = '2026-01-31T10:00:00.000Z';
/** Local midnight of the 1st of each month of 2026, as UTC: CET (+1) until March, CEST (+2) from April. */
const START = {
  feb: '2026-01-31T23:00:00.000Z',
  mar: '2026-02-28T23:00:00.000Z',
  apr: '2026-03-31T22:00:00.000Z',
  may: '2026-04-30T22:00:00.000Z',
  jun: '2026-05-31T22:00:00.000Z',
};
const KIND = 'workforce.recurring_transaction.run';

describe('recurring transactions: the scheduler', () => {
  const t = useTestApp({ clock: new ManualClock(NOW), env: { RATE_LIMIT_PER_MINUTE: '100000', JOB_WORKER: 'false' } });
  const f = absenceFixtures(() => t);
  const { call } = f;
  const postgres = () => t.ctx.dialect === 'postgres';

  /** A fresh tenant whose worker has 10 days of leave, 1 h of overtime and (unless told) 5 home-office days. */
  const tenant = (hoBalance: number | null = 5) => f.timeTenant({ balances: { leave_balance: 10, compensatory_balance: 3600, ho_balance: hoBalance } });
  const create = async (s: TimeSetup, fields: Record<string, unknown> = {}) => {
    const response = await call('POST', '/recurring-transactions', s.pbxKey, {
      employee_id: s.employee.id,
      type: 'legal',
      amount: 2.5,
      tr_type: 'credit',
      frequency: 'monthly_start',
      ...fields,
    });
    expect(response.statusCode, response.body).toBe(201);
    return response.json<{ id: string; next_run_at: string }>();
  };
  const template = async (s: TimeSetup, id: string) => (await call('GET', `/recurring-transactions/${id}`, s.pbxKey)).json<Record<string, unknown>>();
  const ledger = (id: string) =>
    t.ctx.db.selectFrom('absence_requests').selectAll().where('recurring_transaction_id', '=', id).orderBy('start_day').orderBy('created_at').execute();
  /** The contract's balances, read with the PBX key (user tokens of the tests expire within the hour the clock jumps over). */
  const balances = async (s: TimeSetup) => {
    const contract = (await call('GET', `/${s.tenant.pbxId}/user-companies/${s.contractId}`, s.pbxKey)).json<{ data: Record<string, unknown> }>().data;
    return { leave_balance: contract.leave_balance, compensatory_balance: contract.compensatory_balance, ho_balance: contract.ho_balance };
  };
  const pendingRuns = async (id: string) =>
    (await t.ctx.db.selectFrom('jobs').select(['run_at', 'payload', 'status']).where('kind', '=', KIND).execute()).filter(
      (job) => job.status === 'pending' && job.payload.includes(id),
    );
  const at = async (instant: string) => {
    t.clock.set(instant);
    return t.app.jobs.drain();
  };

  beforeAll(async () => {
    // Jobs of earlier tests stay in the shared table: each test starts with nothing due.
    t.clock.set(NOW);
  });

  it('runs at the start of the month: one accepted adjustment row, the balance credited, the next run scheduled', async () => {
    const s = await tenant();
    t.clock.set(NOW);
    const created = await create(s, { note: 'Monthly accrual' });
    // Not due before local midnight.
    t.clock.set('2026-01-31T22:59:59.000Z');
    await t.app.jobs.drain();
    expect(await ledger(created.id)).toEqual([]);

    await at(START.feb);
    const [row] = await ledger(created.id);
    expect(await template(s, created.id)).toMatchObject({
      status: 'active',
      last_run_at: START.feb,
      last_transaction_id: row.id,
      next_run_at: START.mar,
      failure_reason: null,
      updated_at: START.feb,
    });
    expect(await balances(s)).toEqual({ leave_balance: 12.5, compensatory_balance: 3600, ho_balance: 5 });
    expect((await pendingRuns(created.id)).map((job) => job.run_at)).toEqual([START.mar]);

    // The row in the employee's absence-request list: the balance's history.
    const listed = await call('GET', `${f.absencesUrl(s)}?filter[type]=legal`, s.pbxKey);
    expect(listed.json().data).toEqual([
      expect.objectContaining({
        id: row.id,
        type: 'legal',
        sub_type: 'recurring',
        status: 'accepted',
        start: '2026-02-01T00:00:00.000Z',
        end: '2026-02-02T00:00:00.000Z',
        requested_time: {},
        working_days: 0,
        total_seconds: 0,
        workshift_seconds_per_day: 0,
        working_day_details: [],
        comment: 'Monthly accrual',
        accepted_by: [],
        company_id: s.company.id,
        adjustment: { tr_type: 'credit', working_days: 2.5, seconds: 0, recurring_transaction_id: created.id },
        recurring_transaction_id: created.id,
      }),
    ]);
    expect((await f.read(s, row.id, s.pbxKey)).next_availability).toBeNull();
    // Not a request: none of the moves apply.
    for (const move of ['approve', 'reject', 'cancel', 'removal']) {
      const response = await call('POST', f.oneUrl(s, row.id, move), s.pbxKey);
      expect(response.statusCode, move).toBe(422);
      expect(Object.keys(response.json().errors)).toEqual(['status']);
    }
    // It holds no day: a request for 1 February (a Sunday) or the Monday after is untouched by it.
    expect((await f.ask(s, { type: 'legal', start: '2026-02-02', end: '2026-02-02' }, { token: s.pbxKey, employeeId: s.employee.id })).working_days).toBe(1);
  });

  it('books overtime in seconds (hours x 3600) and debits', async () => {
    const s = await tenant();
    t.clock.set(NOW);
    const created = await create(s, { type: 'overtime_balance', amount: 1.5, tr_type: 'debit', sub_type: 'monthly_cap' });
    await at(START.feb);
    const [row] = await ledger(created.id);
    expect(row).toMatchObject({
      type: 'overtime_balance',
      sub_type: 'monthly_cap',
      adjustment: 'debit',
      working_days: 0,
      total_seconds: 5400,
      status: 'approved',
    });
    expect(await balances(s)).toEqual({ leave_balance: 10, compensatory_balance: 3600 - 5400, ho_balance: 5 });
  });

  it('its ledger rows take no time (total_seconds and working_days 0, requested_time {}): the signed amount is in adjustment alone', async () => {
    const s = await tenant();
    t.clock.set(NOW);
    const credit = await create(s, { type: 'overtime_balance', amount: 2, tr_type: 'credit' });
    const debit = await create(s, { type: 'overtime_balance', amount: 1.5, tr_type: 'debit' });
    const days = await create(s, { type: 'legal', amount: 2.5, tr_type: 'debit' });
    await at(START.feb);
    // The balances follow the signed amounts: 3600 + 7200 - 5400 s, 10 - 2.5 days.
    expect(await balances(s)).toEqual({ leave_balance: 7.5, compensatory_balance: 5400, ho_balance: 5 });

    const listed = await call('GET', `${f.absencesUrl(s)}?filter[type]=overtime_balance,legal`, s.pbxKey);
    expect(listed.statusCode, listed.body).toBe(200);
    const rows = listed.json<{ data: Array<Record<string, unknown>> }>().data;
    const byTemplate = (id: string) => rows.find((row) => row.recurring_transaction_id === id);
    const noTime = { status: 'accepted', requested_time: {}, total_seconds: 0, working_days: 0, working_day_details: [] };
    expect(byTemplate(credit.id)).toMatchObject({
      ...noTime,
      type: 'overtime_balance',
      adjustment: { tr_type: 'credit', seconds: 7200, working_days: 0, recurring_transaction_id: credit.id },
    });
    expect(byTemplate(debit.id)).toMatchObject({
      ...noTime,
      type: 'overtime_balance',
      adjustment: { tr_type: 'debit', seconds: -5400, working_days: 0, recurring_transaction_id: debit.id },
    });
    expect(byTemplate(days.id)).toMatchObject({
      ...noTime,
      type: 'legal',
      adjustment: { tr_type: 'debit', seconds: 0, working_days: -2.5, recurring_transaction_id: days.id },
    });
    // A client summing the time taken off against overtime counts none of it; the adjustments sum to the balance's change.
    const overtime = rows.filter((row) => row.type === 'overtime_balance');
    expect(overtime.reduce((sum, row) => sum + (row.total_seconds as number), 0)).toBe(0);
    expect(overtime.reduce((sum, row) => sum + (row.adjustment as { seconds: number }).seconds, 0)).toBe(5400 - 3600);
    // Time really taken off against overtime still reads as such, and debits what it says.
    const asked = await f.ask(s, { type: 'overtime_balance', start: '2026-02-02', end: '2026-02-02' }, { token: s.pbxKey, employeeId: s.employee.id });
    const taken = await f.move(s, asked.id, 'approve', s.pbxKey);
    expect(taken).toMatchObject({ adjustment: null, total_seconds: 28800, requested_time: { '2026-02-02': 28800 } });
    expect(await balances(s)).toMatchObject({ compensatory_balance: 5400 - 28800 });
  });

  it('a template for an employee whose contract starts later first runs on or after its first day, not before (nor fails)', async () => {
    const s = await tenant();
    t.clock.set(NOW);
    // A newcomer whose contract starts on 15 March (a Sunday), with 0 days of leave.
    const newcomer = await createEmployee(t.ctx, s.tenant);
    const contractId = await f.post(s, `/user/${newcomer.id}/user-companies`, { company_id: s.company.id, contract_start: '2026-03-15' });
    const monthly = await create(s, { employee_id: newcomer.id });
    const yearly = await create(s, { employee_id: newcomer.id, frequency: 'yearly_start', amount: 26 });
    expect(monthly.next_run_at).toBe(START.apr);
    expect(yearly.next_run_at).toBe('2026-12-31T23:00:00.000Z');
    const leave = async () =>
      (await call('GET', `/${s.tenant.pbxId}/user-companies/${contractId}`, s.pbxKey)).json<{ data: { leave_balance: number } }>().data.leave_balance;

    // 1 February and 1 March pass: nothing is due, nothing fails.
    await at(START.mar);
    expect(await ledger(monthly.id)).toEqual([]);
    expect(await template(s, monthly.id)).toMatchObject({ status: 'active', failure_reason: null, next_run_at: START.apr });
    // 1 April: the first run, on the contract.
    await at(START.apr);
    const [row] = await ledger(monthly.id);
    expect(row).toMatchObject({ start_day: '2026-04-01', contract_id: contractId, adjustment: 'credit' });
    expect(await template(s, monthly.id)).toMatchObject({ status: 'active', last_run_at: START.apr, next_run_at: START.may });
    expect(await leave()).toBe(2.5);
  });

  it('a run_once template completes after its run; home-office days count against ho_balance and never reach the calendar', async () => {
    const s = await tenant();
    t.clock.set(NOW);
    const created = await create(s, { type: 'home_office', amount: 2, run_once: true });
    await at(START.feb);
    const [row] = await ledger(created.id);
    expect(await template(s, created.id)).toMatchObject({ status: 'completed', next_run_at: null, last_run_at: START.feb, last_transaction_id: row.id });
    expect(await pendingRuns(created.id)).toEqual([]);
    expect(await balances(s)).toMatchObject({ ho_balance: 7 });
    await at(START.jun);
    expect(await ledger(created.id)).toHaveLength(1);
    const worker = await issueUserToken(t.ctx.db, t.ctx.clock, { id: s.worker.id, pbx_id: s.tenant.pbxId }, { name: 'test', ttlSeconds: 3600 });
    const calendar = await call('GET', `/${s.tenant.pbxId}/calendar/home-office?filter[from]=2026-01-01`, worker);
    expect(calendar.statusCode, calendar.body).toBe(200);
    expect(calendar.json()).toEqual([]);
    // A completed template is final.
    expect((await call('POST', `/recurring-transactions/${created.id}/resume`, s.pbxKey)).statusCode).toBe(422);
  });

  it('after a long downtime it catches up one run per missed period, each dated at its own period start (DST included)', async () => {
    const s = await tenant();
    t.clock.set(NOW);
    const created = await create(s);
    await at('2026-05-15T12:00:00.000Z');
    const rows = await ledger(created.id);
    expect(rows.map((row) => row.start_day)).toEqual(['2026-02-01', '2026-03-01', '2026-04-01', '2026-05-01']);
    expect(await template(s, created.id)).toMatchObject({ last_run_at: START.may, next_run_at: START.jun, last_transaction_id: rows[3].id });
    expect(await balances(s)).toMatchObject({ leave_balance: 20 });
  });

  it('a yearly template made at 23:30 on 31 December runs half an hour later, on 1 January', async () => {
    const s = await tenant();
    t.clock.set('2026-12-31T22:30:00.000Z');
    const created = await create(s, { frequency: 'yearly_start', amount: 26, note: 'Annual leave allotment' });
    expect(created.next_run_at).toBe('2026-12-31T23:00:00.000Z');
    await at('2026-12-31T23:00:00.000Z');
    expect((await ledger(created.id)).map((row) => row.start_day)).toEqual(['2027-01-01']);
    expect(await template(s, created.id)).toMatchObject({ next_run_at: '2027-12-31T23:00:00.000Z' });
  });

  it('two workers racing over the same jobs book exactly one row per period', async () => {
    const s = await tenant();
    t.clock.set(NOW);
    const created = await create(s);
    t.clock.set('2026-04-15T12:00:00.000Z');
    const workers = [new JobWorker(t.ctx, { workerId: 'worker-a' }), new JobWorker(t.ctx, { workerId: 'worker-b' })];
    await Promise.all([...workers, ...workers].map((worker) => worker.drain()));
    expect((await ledger(created.id)).map((row) => row.start_day)).toEqual(['2026-02-01', '2026-03-01', '2026-04-01']);
    expect(await balances(s)).toMatchObject({ leave_balance: 17.5 });
  });

  it('a run that dies mid-transaction (after its ledger write) rolls back and is retried: exactly one row', async () => {
    const s = await tenant();
    t.clock.set(NOW);
    const created = await create(s);
    // The template's update comes after the ledger row and the balance: make it fail, as a crash there would.
    if (postgres()) {
      await sql`create function recurring_crash() returns trigger language plpgsql as $$ begin raise exception 'simulated crash'; end $$`.execute(t.ctx.db);
      await sql`create trigger recurring_crash before update on recurring_transactions for each row execute function recurring_crash()`.execute(t.ctx.db);
    } else {
      await sql`create trigger recurring_crash before update on recurring_transactions begin select raise(abort, 'simulated crash'); end`.execute(t.ctx.db);
    }
    try {
      await at(START.feb);
      expect(await ledger(created.id)).toEqual([]);
      expect(await balances(s)).toMatchObject({ leave_balance: 10 });
      const [job] = await t.ctx.db.selectFrom('jobs').selectAll().where('kind', '=', KIND).where('payload', 'like', `%${created.id}%`).execute();
      expect(job).toMatchObject({ status: 'pending', attempts: 1, last_error: expect.stringContaining('simulated crash') });
    } finally {
      await sql`drop trigger recurring_crash${postgres() ? sql` on recurring_transactions` : sql``}`.execute(t.ctx.db);
      if (postgres()) await sql`drop function recurring_crash()`.execute(t.ctx.db);
    }
    // The retry after its back-off books it once.
    await at('2026-02-01T00:00:00.000Z');
    await at('2026-02-01T00:05:00.000Z');
    expect((await ledger(created.id)).map((row) => row.start_day)).toEqual(['2026-02-01']);
    expect(await balances(s)).toMatchObject({ leave_balance: 12.5 });
  });

  it('a run whose worker died after committing is not booked again when its job is claimed after the lease', async () => {
    const s = await tenant();
    t.clock.set(NOW);
    const created = await create(s);
    t.clock.set(START.feb);
    // A worker claims the job and books the run, then dies before marking the job complete.
    const claimed = await claimJob(t.ctx.db, t.ctx.dialect, 'dying-worker', START.feb, '2026-01-31T23:01:00.000Z');
    expect(claimed?.payload).toContain(created.id);
    expect(await runRecurringTransaction(t.ctx, JSON.parse(claimed!.payload))).toBe('applied');
    // After the lease another worker claims it again: the run is stale now.
    await at('2026-01-31T23:02:00.000Z');
    expect(await ledger(created.id)).toHaveLength(1);
    expect(await t.ctx.db.selectFrom('jobs').select(['status', 'attempts']).where('id', '=', claimed!.id).executeTakeFirst()).toEqual({
      status: 'completed',
      attempts: 2,
    });
    expect(await runRecurringTransaction(t.ctx, JSON.parse(claimed!.payload))).toBe('stale');
  });

  it('a job made stale by a frequency change, a pause or a deletion does nothing; paused templates do not run', async () => {
    const s = await tenant();
    t.clock.set(NOW);
    const changed = await create(s);
    const paused = await create(s);
    const deleted = await create(s);
    await call('PATCH', `/recurring-transactions/${changed.id}`, s.pbxKey, { frequency: 'yearly_start' });
    await call('POST', `/recurring-transactions/${paused.id}/pause`, s.pbxKey);
    await call('DELETE', `/recurring-transactions/${deleted.id}`, s.pbxKey);
    await at(START.apr);
    for (const id of [changed.id, paused.id, deleted.id]) expect(await ledger(id)).toEqual([]);
    expect(await template(s, changed.id)).toMatchObject({ status: 'active', next_run_at: '2026-12-31T23:00:00.000Z', last_run_at: null });
    expect(await template(s, paused.id)).toMatchObject({ status: 'paused', next_run_at: null });
    expect(await balances(s)).toMatchObject({ leave_balance: 10 });
    // Resumed on 1 April (after its midnight): the first run is 1 May; the missed months are not made up.
    await call('POST', `/recurring-transactions/${paused.id}/resume`, s.pbxKey);
    await at(START.may);
    expect((await ledger(paused.id)).map((row) => row.start_day)).toEqual(['2026-05-01']);
  });

  it('a run that cannot apply fails the template with its reason, writes nothing, and schedules nothing', async () => {
    // Deleted employee.
    const gone = await tenant();
    t.clock.set(NOW);
    const orphan = await create(gone);
    expect((await call('DELETE', `/${gone.tenant.pbxId}/employees/${gone.employee.id}`, gone.pbxKey)).statusCode).toBe(204);
    // Contract ended, after the template was made, the day before the 1 February run.
    const ending = await tenant();
    const ended = await create(ending);
    await call('PATCH', `/${ending.tenant.pbxId}/user-companies/${ending.contractId}`, ending.pbxKey, { contract_end: '2026-01-31' });
    // Home office on a contract that does not track it.
    const untracked = await tenant(null);
    const homeOffice = await create(untracked, { type: 'home_office' });

    await at(START.feb);
    const cases: Array<[TimeSetup, string, string]> = [
      [gone, orphan.id, 'The employee has been deleted.'],
      [ending, ended.id, 'No contract of the employee covers 2026-02-01, the day of the run.'],
      [untracked, homeOffice.id, 'The contract covering 2026-02-01 does not track a home-office balance (its ho_balance is null).'],
    ];
    for (const [s, id, reason] of cases) {
      expect(await template(s, id)).toMatchObject({ status: 'failed', failure_reason: reason, next_run_at: null, last_run_at: null });
      expect(await ledger(id)).toEqual([]);
      expect(await pendingRuns(id)).toEqual([]);
    }
    expect(await balances(untracked)).toMatchObject({ ho_balance: null, leave_balance: 10 });
    // A failed template is resumed once the cause is fixed.
    await call('PATCH', `/${untracked.tenant.pbxId}/user-companies/${untracked.contractId}`, untracked.pbxKey, { ho_balance: 0 });
    const resumed = await call('POST', `/recurring-transactions/${homeOffice.id}/resume`, untracked.pbxKey);
    expect(resumed.json()).toMatchObject({ status: 'active', failure_reason: null, next_run_at: START.mar });
    await at(START.mar);
    expect(await balances(untracked)).toMatchObject({ ho_balance: 2.5 });
  });
});
