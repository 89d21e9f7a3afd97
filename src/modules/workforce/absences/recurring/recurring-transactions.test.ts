import { beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../../platform/clock.js';
import { bearer, useTestApp } from '../../../../../test/helpers.js';
import { createEmployee, createKey } from '../../../../../test/factories.js';
import { absenceFixtures, type TimeSetup } from '../../../../../test/absence-fixtures.js';

// 31 January, 11:00 in Luxembourg (the test tenants' zone): the next month starts on 1 February, 00:00 CET = 23:00 UTC.
const NOW = '2026-01-31T10:00:00.000Z';
const FEB_1 = '2026-01-31T23:00:00.000Z';
const JAN_1_2027 = '2026-12-31T23:00:00.000Z';

describe('recurring transactions: the API', () => {
  const t = useTestApp({ clock: new ManualClock(NOW), env: { RATE_LIMIT_PER_MINUTE: '100000', JOB_WORKER: 'false' } });
  const f = absenceFixtures(() => t);
  const { call } = f;

  const body = (s: TimeSetup, fields: Record<string, unknown> = {}): Record<string, unknown> => ({
    employee_id: s.employee.id,
    type: 'legal',
    amount: 2.5,
    tr_type: 'credit',
    frequency: 'monthly_start',
    ...fields,
  });
  const create = async (s: TimeSetup, fields: Record<string, unknown> = {}) => {
    const response = await call('POST', '/recurring-transactions', s.pbxKey, body(s, fields));
    expect(response.statusCode, response.body).toBe(201);
    return response.json<Record<string, unknown> & { id: string }>();
  };
  const url = (id: string, move = '') => `/recurring-transactions/${id}${move ? `/${move}` : ''}`;
  const errorsOf = (response: { statusCode: number; body: string; json(): unknown }) => {
    expect(response.statusCode, response.body).toBe(422);
    const answer = response.json() as { message: string; errors: Record<string, string[]> };
    expect(typeof answer.message).toBe('string');
    return answer.errors;
  };

  let s: TimeSetup;
  beforeAll(async () => {
    s = await f.timeTenant();
  });

  it('creates an active template (flat), its first run due at the next month start in the PBX zone, and enqueues that run', async () => {
    const created = await create(s, { sub_type: 'allotment', note: 'Monthly leave accrual' });
    expect(created).toEqual({
      id: expect.any(String),
      pbx_id: s.tenant.pbxId,
      employee_id: s.employee.id,
      type: 'legal',
      sub_type: 'allotment',
      absence_type_id: null,
      amount: 2.5,
      tr_type: 'credit',
      note: 'Monthly leave accrual',
      frequency: 'monthly_start',
      run_once: false,
      status: 'active',
      failure_reason: null,
      next_run_at: FEB_1,
      last_run_at: null,
      last_transaction_id: null,
      created_by_user_id: null,
      created_at: NOW,
      updated_at: NOW,
    });
    const jobs = await t.ctx.db.selectFrom('jobs').selectAll().where('kind', '=', 'workforce.recurring_transaction.run').execute();
    const mine = jobs.filter((job) => (JSON.parse(job.payload) as { templateId: string }).templateId === created.id);
    expect(mine.map((job) => [job.status, job.run_at, JSON.parse(job.payload)])).toEqual([
      ['pending', FEB_1, { pbxId: s.tenant.pbxId, templateId: created.id, dueAt: FEB_1 }],
    ]);

    const yearly = await create(s, { frequency: 'yearly_start', run_once: true, type: 'overtime_balance', amount: 1.5, tr_type: 'debit' });
    expect(yearly).toMatchObject({ next_run_at: JAN_1_2027, run_once: true, type: 'overtime_balance', tr_type: 'debit', sub_type: null, note: null });
    // Read flat, as created.
    const read = await call('GET', url(created.id), s.pbxKey);
    expect(read.statusCode).toBe(200);
    expect(read.json()).toEqual(created);
  });

  it('lists the PBX’s live templates, paginated, by employee and status', async () => {
    const own = await f.timeTenant();
    await f.employ(own, { employeeId: own.colleagueEmployee.id });
    // Created a second apart, so the default order (created_at) is theirs.
    const first = await create(own);
    t.clock.advance(1);
    const second = await create(own, { employee_id: own.colleagueEmployee.id });
    t.clock.advance(1);
    const third = await create(own, { frequency: 'yearly_start' });
    t.clock.set(NOW);
    await call('POST', url(third.id, 'pause'), own.pbxKey);
    const deleted = await create(own);
    expect((await call('DELETE', url(deleted.id), own.pbxKey)).statusCode).toBe(204);
    const ids = async (query: string) => {
      const response = await call('GET', `/recurring-transactions${query}`, own.pbxKey);
      expect(response.statusCode, response.body).toBe(200);
      return response.json<{ data: Array<{ id: string }> }>().data.map((row) => row.id);
    };
    expect(await ids('')).toEqual([first.id, second.id, third.id]);
    expect(await ids(`?filter[employee_id]=${own.colleagueEmployee.id}`)).toEqual([second.id]);
    expect(await ids('?filter[status]=paused')).toEqual([third.id]);
    // A paused template has no next run: last either way.
    expect((await ids('?sort=-next_run_at')).at(-1)).toBe(third.id);
    expect((await ids('?sort=next_run_at')).at(-1)).toBe(third.id);
    const page = await call('GET', '/recurring-transactions?perPage=2&page=2', own.pbxKey);
    expect(page.json()).toMatchObject({ data: [{ id: third.id }], meta: { per_page: 2, current_page: 2, total: 3 } });
    expect((await call('GET', '/recurring-transactions?filter[status]=running', own.pbxKey)).statusCode).toBe(422);
  });

  it('accepts the PBX API key only: user tokens (administrators too) and every other key get 403 {message}; no token 401', async () => {
    const created = await create(s);
    const others = {
      admin: s.admin.token,
      user: s.worker.token,
      integration: await createKey(t.ctx, s.tenant, 'integration', ['contacts', 'call-history', 'phone-numbers', 'push-configuration']),
      pbxServer: await createKey(t.ctx, s.tenant, 'pbx_server'),
    };
    const requests: Array<[Parameters<typeof call>[0], string, object?]> = [
      ['POST', '/recurring-transactions', body(s)],
      ['GET', '/recurring-transactions'],
      ['GET', url(created.id)],
      ['PATCH', url(created.id), { amount: 3 }],
      ['POST', url(created.id, 'pause')],
      ['POST', url(created.id, 'resume')],
      ['DELETE', url(created.id)],
    ];
    for (const [who, token] of Object.entries(others))
      for (const [method, path, payload] of requests) {
        const response = await call(method, path, token, payload);
        expect(response.statusCode, `${who} ${method} ${path}`).toBe(403);
        expect(response.json()).toEqual({ message: expect.any(String) });
      }
    const internal = await createKey(t.ctx, s.tenant, 'internal');
    const asInternal = await t.app.inject({ method: 'GET', url: `/api/v1${url(created.id)}`, headers: { authorization: internal } });
    expect(asInternal.statusCode).toBe(403);
    const anonymous = await t.app.inject({ method: 'POST', url: '/api/v1/recurring-transactions', payload: body(s) });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json()).toEqual({ error: expect.any(String) });
    // Nothing changed.
    expect((await call('GET', url(created.id), s.pbxKey)).json()).toMatchObject({ status: 'active', amount: 2.5 });
  });

  it("answers another PBX's key 404 {message: [..]} on every route of a template, as for an unknown id", async () => {
    const created = await create(s);
    const other = await f.timeTenant();
    for (const [method, move, payload] of [
      ['GET', ''],
      ['PATCH', '', { amount: 1 }],
      ['POST', 'pause'],
      ['POST', 'resume'],
      ['DELETE', ''],
    ] as const) {
      const response = await call(method, url(created.id, move), other.pbxKey, payload);
      expect(response.statusCode, `${method} ${move}`).toBe(404);
      expect(response.json()).toEqual({ message: ['Recurring transaction not found.'] });
    }
    expect((await call('GET', '/recurring-transactions', other.pbxKey)).json().data).toEqual([]);
    // Another PBX's employee cannot be named either.
    expect(errorsOf(await call('POST', '/recurring-transactions', other.pbxKey, body(s)))).toHaveProperty('employee_id');
    expect((await call('GET', url(created.id), s.pbxKey)).json()).toMatchObject({ status: 'active' });
  });

  it('refuses bad input with 422 naming the field', async () => {
    const longNote = 'x'.repeat(65536);
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ pbx_id: s.tenant.pbxId }, 'pbx_id'],
      [{ created_by_user_id: null }, 'created_by_user_id'],
      [{ amount: 0 }, 'amount'],
      [{ amount: -1 }, 'amount'],
      [{ amount: '2' }, 'amount'],
      [{ amount: 10001 }, 'amount'],
      [{ type: 'illness' }, 'type'],
      [{ type: 'absence' }, 'type'],
      [{ tr_type: 'refund' }, 'tr_type'],
      [{ frequency: 'weekly' }, 'frequency'],
      [{ note: longNote }, 'note'],
      [{ sub_type: '' }, 'sub_type'],
      [{ sub_type: 'x'.repeat(65) }, 'sub_type'],
      [{ run_once: 'yes' }, 'run_once'],
      [{ employee_id: 'not-a-uuid' }, 'employee_id'],
      [{ absence_type_id: 'nope' }, 'absence_type_id'],
    ];
    for (const [fields, field] of cases) {
      const errors = errorsOf(await call('POST', '/recurring-transactions', s.pbxKey, body(s, fields)));
      expect(Object.keys(errors), JSON.stringify(fields).slice(0, 80)).toContain(field);
    }
    for (const field of ['employee_id', 'type', 'amount', 'tr_type', 'frequency']) {
      const { [field]: _left, ...rest } = body(s);
      expect(Object.keys(errorsOf(await call('POST', '/recurring-transactions', s.pbxKey, rest)))).toContain(field);
    }
    const typeErrors = errorsOf(await call('POST', '/recurring-transactions', s.pbxKey, body(s, { type: 'special' })));
    expect(typeErrors.type[0]).toContain('legal, home_office, overtime_balance');
    // The limits themselves are accepted.
    expect(
      (await call('POST', '/recurring-transactions', s.pbxKey, body(s, { note: 'x'.repeat(65535), sub_type: 'x'.repeat(64), amount: 0.01 }))).statusCode,
    ).toBe(201);
  });

  it('needs a live employee of the PBX with a contract covering a run', async () => {
    const own = await f.timeTenant();
    const expectEmployeeRefused = async (employeeId: string) =>
      expect(errorsOf(await call('POST', '/recurring-transactions', own.pbxKey, body(own, { employee_id: employeeId })))).toHaveProperty('employee_id');
    // Unknown, no contract at all.
    await expectEmployeeRefused('00000000-0000-4000-8000-000000000000');
    await expectEmployeeRefused(own.colleagueEmployee.id);
    // A contract that ended yesterday (in the tenant's zone).
    const ended = await createEmployee(t.ctx, own.tenant);
    await f.post(own, `/user/${ended.id}/user-companies`, { company_id: own.company.id, contract_start: '2024-01-01', contract_end: '2026-01-30' });
    await expectEmployeeRefused(ended.id);
    // A contract ending today: no run (1 February) would find it.
    const endsToday = await createEmployee(t.ctx, own.tenant);
    await f.post(own, `/user/${endsToday.id}/user-companies`, { company_id: own.company.id, contract_start: '2024-01-01', contract_end: '2026-01-31' });
    expect(errorsOf(await call('POST', '/recurring-transactions', own.pbxKey, body(own, { employee_id: endsToday.id })))).toEqual({
      employee_id: ['No contract of the employee covers the start of a month from now on: a run would have no balance to change.'],
    });
    // Through the next run, or starting later, will do.
    const endsLater = await createEmployee(t.ctx, own.tenant);
    await f.post(own, `/user/${endsLater.id}/user-companies`, { company_id: own.company.id, contract_start: '2024-01-01', contract_end: '2026-02-01' });
    expect(await create(own, { employee_id: endsLater.id })).toMatchObject({ next_run_at: FEB_1 });
    const starts = await createEmployee(t.ctx, own.tenant);
    await f.post(own, `/user/${starts.id}/user-companies`, { company_id: own.company.id, contract_start: '2026-03-01' });
    expect((await call('POST', '/recurring-transactions', own.pbxKey, body(own, { employee_id: starts.id }))).statusCode).toBe(201);
    // A deleted employee.
    expect((await call('DELETE', `/${own.tenant.pbxId}/employees/${own.employee.id}`, own.admin.token)).statusCode).toBe(204);
    await expectEmployeeRefused(own.employee.id);
  });

  it('a contract that starts later: the first run is at a period start on or after its first day, never before; resume and a new frequency alike', async () => {
    const own = await f.timeTenant();
    const hire = async (contracts: Array<[string, string | null]>) => {
      const employee = await createEmployee(t.ctx, own.tenant);
      for (const [start, end] of contracts)
        await f.post(own, `/user/${employee.id}/user-companies`, { company_id: own.company.id, contract_start: start, contract_end: end });
      return employee.id;
    };
    // Starting on 1 March: 1 March itself (local midnight, CET); on 15 March: 1 April (CEST), or 1 January for a yearly template.
    const onFirst = await hire([['2026-03-01', null]]);
    expect(await create(own, { employee_id: onFirst })).toMatchObject({ status: 'active', next_run_at: '2026-02-28T23:00:00.000Z' });
    const midMonth = await hire([['2026-03-15', null]]);
    const monthly = await create(own, { employee_id: midMonth });
    expect(monthly).toMatchObject({ next_run_at: '2026-03-31T22:00:00.000Z' });
    expect(await create(own, { employee_id: midMonth, frequency: 'yearly_start' })).toMatchObject({ next_run_at: JAN_1_2027 });
    // The pending run is the contract's too.
    const jobs = await t.ctx.db.selectFrom('jobs').select(['run_at', 'payload']).where('kind', '=', 'workforce.recurring_transaction.run').execute();
    expect(jobs.filter((job) => job.payload.includes(monthly.id)).map((job) => job.run_at)).toEqual(['2026-03-31T22:00:00.000Z']);
    // A contract from 10 to 20 March covers no month start: 422; a gap in February is skipped to the next contract.
    const short = await hire([['2026-03-10', '2026-03-20']]);
    expect(Object.keys(errorsOf(await call('POST', '/recurring-transactions', own.pbxKey, body(own, { employee_id: short }))))).toEqual(['employee_id']);
    const gap = await hire([
      ['2025-01-01', '2026-01-31'],
      ['2026-04-10', null],
    ]);
    expect(await create(own, { employee_id: gap })).toMatchObject({ next_run_at: '2026-04-30T22:00:00.000Z' });

    // A new frequency and a resume compute it the same way.
    expect((await call('PATCH', url(monthly.id), own.pbxKey, { frequency: 'yearly_start' })).json()).toMatchObject({ next_run_at: JAN_1_2027 });
    expect((await call('PATCH', url(monthly.id), own.pbxKey, { frequency: 'monthly_start' })).json()).toMatchObject({
      next_run_at: '2026-03-31T22:00:00.000Z',
    });
    await call('POST', url(monthly.id, 'pause'), own.pbxKey);
    expect((await call('POST', url(monthly.id, 'resume'), own.pbxKey)).json()).toMatchObject({ status: 'active', next_run_at: '2026-03-31T22:00:00.000Z' });
    // Resuming for an employee whose contracts all ended before the next run is 422; the template stays paused.
    const leaver = await hire([['2025-01-01', '2026-03-10']]);
    const leaving = await create(own, { employee_id: leaver });
    await call('POST', url(leaving.id, 'pause'), own.pbxKey);
    t.clock.set('2026-03-05T10:00:00.000Z');
    expect(Object.keys(errorsOf(await call('POST', url(leaving.id, 'resume'), own.pbxKey)))).toEqual(['employee_id']);
    expect((await call('GET', url(leaving.id), own.pbxKey)).json()).toMatchObject({ status: 'paused', next_run_at: null });
    t.clock.set(NOW);
  });

  it('bounds amount at 10000 in the template’s unit (days, or hours for overtime), documented in the OpenAPI schemas with its reason', async () => {
    expect(await create(s, { amount: 10000 })).toMatchObject({ amount: 10000, type: 'legal' });
    const overtime = await create(s, { amount: 10000, type: 'overtime_balance' });
    expect(overtime).toMatchObject({ amount: 10000 });
    expect(errorsOf(await call('POST', '/recurring-transactions', s.pbxKey, body(s, { amount: 10000.5 })))).toEqual({
      amount: ['The amount field must not be greater than 10000.'],
    });
    expect(Object.keys(errorsOf(await call('PATCH', url(overtime.id), s.pbxKey, { amount: 10001 })))).toEqual(['amount']);

    const document = (await t.app.inject('/api/v1/openapi.json')).json<{
      paths: Record<string, Record<string, { requestBody: { content: Record<string, { schema: { properties: Record<string, { description: string }> } }> } }>>;
      components: { schemas: Record<string, { properties: Record<string, { description: string }> }> };
    }>();
    const bodies = [document.paths['/recurring-transactions'].post, document.paths['/recurring-transactions/{id}'].patch].map(
      (operation) => operation.requestBody.content['application/json'].schema.properties.amount.description,
    );
    for (const description of bodies) {
      expect(description).toContain('at most 10000');
      expect(description).toContain('days for legal and home_office, hours for overtime_balance');
      // Why, since the contract asks only > 0.
      expect(description).toContain('The contract asks only > 0');
      expect(description).toContain('catches a wrong unit');
      expect(description).toContain('32-bit balance of seconds');
    }
    expect(document.components.schemas.RecurringTransaction.properties.amount.description).toContain('at most 10000');
  });

  it('takes an absence type of the PBX whose type is the template’s, else 422 on absence_type_id', async () => {
    const own = await f.timeTenant();
    const other = await f.timeTenant();
    const annual = await f.post(own, '/absence-types', { name: 'Annual leave', type: 'legal' });
    const homeOffice = await f.post(own, '/absence-types', { name: 'Home office', type: 'home_office' });
    const sick = await f.post(own, '/absence-types', { name: 'Sick leave', type: 'illness' });
    const foreign = await f.post(other, '/absence-types', { name: 'Annual leave', type: 'legal' });
    const gone = await f.post(own, '/absence-types', { name: 'Old leave', type: 'legal' });
    expect((await call('DELETE', `/${own.tenant.pbxId}/absence-types/${gone}`, own.pbxKey)).statusCode).toBe(204);
    expect(await create(own, { absence_type_id: annual })).toMatchObject({ absence_type_id: annual, type: 'legal' });
    for (const id of [homeOffice, sick, foreign, gone]) {
      const errors = errorsOf(await call('POST', '/recurring-transactions', own.pbxKey, body(own, { absence_type_id: id })));
      expect(Object.keys(errors)).toEqual(['absence_type_id']);
    }
    expect(await create(own, { type: 'home_office', absence_type_id: homeOffice })).toMatchObject({ absence_type_id: homeOffice });
  });

  it('PATCH changes only amount, tr_type, note, frequency and run_once; the body is optional; fixed fields are 422', async () => {
    const created = await create(s, { note: 'first' });
    // No body, an empty body: nothing changes (not even updated_at).
    const bare = await t.app.inject({ method: 'PATCH', url: `/api/v1${url(created.id)}`, headers: bearer(s.pbxKey) });
    expect(bare.statusCode, bare.body).toBe(200);
    expect(bare.json()).toEqual(created);
    expect((await call('PATCH', url(created.id), s.pbxKey, {})).json()).toEqual(created);

    for (const [field, value] of [
      ['employee_id', s.colleagueEmployee.id],
      ['type', 'overtime_balance'],
      ['sub_type', 'other'],
      ['absence_type_id', null],
      ['pbx_id', s.tenant.pbxId],
      ['status', 'paused'],
      ['next_run_at', FEB_1],
    ] as const) {
      const errors = errorsOf(await call('PATCH', url(created.id), s.pbxKey, { amount: 4, [field]: value }));
      expect(Object.keys(errors), field).toEqual([field]);
      expect(errors[field][0]).toContain('not allowed');
    }
    expect(Object.keys(errorsOf(await call('PATCH', url(created.id), s.pbxKey, { amount: 0 })))).toEqual(['amount']);
    expect(Object.keys(errorsOf(await call('PATCH', url(created.id), s.pbxKey, { note: 'x'.repeat(65536) })))).toEqual(['note']);
    expect((await call('GET', url(created.id), s.pbxKey)).json()).toEqual(created);

    t.clock.advance(60);
    const changed = await call('PATCH', url(created.id), s.pbxKey, { amount: 4, tr_type: 'debit', note: null, run_once: true });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json()).toEqual({ ...created, amount: 4, tr_type: 'debit', note: null, run_once: true, updated_at: t.clock.now().toISOString() });
    t.clock.set(NOW);
  });

  it('a new frequency recomputes next_run_at from now and makes the pending run stale; a completed template refuses changes', async () => {
    const created = await create(s);
    const changed = await call('PATCH', url(created.id), s.pbxKey, { frequency: 'yearly_start' });
    expect(changed.json()).toMatchObject({ frequency: 'yearly_start', next_run_at: JAN_1_2027, status: 'active' });
    const jobs = await t.ctx.db.selectFrom('jobs').select(['run_at', 'payload']).where('kind', '=', 'workforce.recurring_transaction.run').execute();
    expect(jobs.filter((job) => job.payload.includes(created.id)).map((job) => job.run_at)).toEqual([FEB_1, JAN_1_2027]);
    // The same frequency again moves nothing.
    expect((await call('PATCH', url(created.id), s.pbxKey, { frequency: 'yearly_start' })).json()).toMatchObject({ next_run_at: JAN_1_2027 });

    // A paused template keeps no next run; it gets one when resumed.
    await call('POST', url(created.id, 'pause'), s.pbxKey);
    expect((await call('PATCH', url(created.id), s.pbxKey, { frequency: 'monthly_start' })).json()).toMatchObject({ status: 'paused', next_run_at: null });
    expect((await call('POST', url(created.id, 'resume'), s.pbxKey)).json()).toMatchObject({ status: 'active', next_run_at: FEB_1 });

    await t.ctx.db.updateTable('recurring_transactions').set({ status: 'completed', next_run_at: null }).where('id', '=', created.id).execute();
    const refused = errorsOf(await call('PATCH', url(created.id), s.pbxKey, { amount: 1 }));
    expect(refused).toEqual({ status: ['A completed recurring transaction cannot be changed.'] });
  });

  it('pauses, resumes and deletes; a move the status does not allow is 422 on status', async () => {
    const created = await create(s);
    t.clock.set('2026-02-10T08:00:00.000Z');
    const paused = await call('POST', url(created.id, 'pause'), s.pbxKey);
    expect(paused.statusCode, paused.body).toBe(200);
    expect(paused.json()).toMatchObject({ status: 'paused', next_run_at: null, updated_at: '2026-02-10T08:00:00.000Z' });
    expect(errorsOf(await call('POST', url(created.id, 'pause'), s.pbxKey))).toEqual({
      status: ['Only an active recurring transaction can be paused; this one is paused.'],
    });
    // Resumed in February: the next run is 1 March (CET), the February one missed while paused is not made up.
    const resumed = await call('POST', url(created.id, 'resume'), s.pbxKey);
    expect(resumed.json()).toMatchObject({ status: 'active', next_run_at: '2026-02-28T23:00:00.000Z', failure_reason: null });
    expect(errorsOf(await call('POST', url(created.id, 'resume'), s.pbxKey))).toHaveProperty('status');

    expect((await call('DELETE', url(created.id), s.pbxKey)).statusCode).toBe(204);
    expect((await call('GET', url(created.id), s.pbxKey)).statusCode).toBe(404);
    expect((await call('DELETE', url(created.id), s.pbxKey)).statusCode).toBe(404);
    t.clock.set(NOW);
  });
});
