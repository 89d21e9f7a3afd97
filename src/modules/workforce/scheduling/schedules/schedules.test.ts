import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, buildTestApp, type TestApp } from '../../../../../test/helpers.js';
import {
  createAdmin,
  createCompany,
  createDepartment,
  createEmployee,
  createKey,
  createTenant,
  createUser,
  type TestTenant,
} from '../../../../../test/factories.js';
import { ManualClock } from '../../../../platform/clock.js';

/** Monday 23 November 2026, 11:00 in Luxembourg. */
const NOW = '2026-11-23T10:00:00.000Z';

describe('shift schedules', () => {
  let t: TestApp;
  let tenant: TestTenant;
  let admin: { token: string };
  let user: { token: string };
  let pbxKey: string;
  let org: Awaited<ReturnType<typeof organisation>>;
  let other: { tenant: TestTenant; admin: { token: string }; scheduleId: string };

  const contract = async (
    employeeId: string,
    fields: { company_id?: string | null; department_id?: string | null; start?: string; end?: string | null; main?: boolean },
  ) => {
    const now = t.clock.now().toISOString();
    await t.ctx.db
      .insertInto('employee_contracts')
      .values({
        id: randomUUID(),
        pbx_id: tenant.pbxId,
        employee_id: employeeId,
        company_id: fields.company_id ?? null,
        department_id: fields.department_id ?? null,
        participation: 1,
        contract_start: fields.start ?? '2025-01-01',
        contract_end: fields.end ?? null,
        main_company: fields.main === false ? 0 : 1,
        ho_balance: null,
        title: null,
        created_at: now,
        updated_at: now,
      })
      .execute();
  };

  /** Two companies; Dispatch and Sales in the first, Warehouse in the second; people contracted in each way a pool must tell apart. */
  async function organisation() {
    const acme = await createCompany(t.ctx, tenant, { name: 'Acme' });
    const logistik = await createCompany(t.ctx, tenant, { name: 'Acme Logistik' });
    const dispatch = await createDepartment(t.ctx, tenant, { name: 'Dispatch', company_id: acme.id });
    const sales = await createDepartment(t.ctx, tenant, { name: 'Sales', company_id: acme.id });
    const warehouse = await createDepartment(t.ctx, tenant, { name: 'Warehouse', company_id: logistik.id });
    const person = (first_name: string, last_name: string) => createEmployee(t.ctx, tenant, { first_name, last_name });
    const [anna, luc, marie, paul, sophie, tom, gone] = [
      await person('Anna', 'Schmit'),
      await person('Luc', 'Weber'),
      await person('Marie', 'Hoffmann'),
      await person('Paul', 'Muller'),
      await person('Sophie', 'Klein'),
      await person('Tom', 'Reuter'),
      await person('Gina', 'Gone'),
    ];
    await contract(anna.id, { company_id: acme.id, department_id: dispatch.id });
    // Luc moved from Dispatch to Sales this year: his most recent contract names Sales.
    await contract(luc.id, { company_id: acme.id, department_id: dispatch.id, start: '2024-01-01' });
    await contract(luc.id, { company_id: acme.id, department_id: sales.id, start: '2026-06-01', main: false });
    await contract(marie.id, { company_id: logistik.id, department_id: warehouse.id });
    await contract(paul.id, { company_id: acme.id, department_id: dispatch.id, end: '2026-10-31' }); // expired
    await contract(sophie.id, { company_id: acme.id, department_id: dispatch.id, start: '2026-12-01' }); // not yet
    await contract(tom.id, { company_id: acme.id, department_id: null }); // no department
    await contract(gone.id, { company_id: acme.id, department_id: dispatch.id });
    await t.ctx.db.updateTable('employees').set({ deleted_at: NOW }).where('id', '=', gone.id).execute();
    return { acme, logistik, dispatch, sales, warehouse, anna, luc, marie, paul, sophie, tom, gone };
  }

  const url = (path: string, pbxId = tenant.pbxId) => `/api/v1/${pbxId}${path}`;
  const call = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', path: string, token: string, payload?: object, pbxId?: string) =>
    t.app.inject({ method, url: url(path, pbxId), headers: bearer(token), ...(payload ? { payload } : {}) });
  const create = async (payload: object, token = admin.token) => {
    const response = await call('POST', '/schedule-management', token, payload);
    expect(response.statusCode, response.body).toBe(201);
    return response.json();
  };
  const names = (list: Array<{ fullName: string }>) => list.map((e) => e.fullName);

  beforeAll(async () => {
    t = await buildTestApp({ clock: new ManualClock(NOW) });
    tenant = await createTenant(t.ctx);
    admin = await createAdmin(t.ctx, tenant);
    user = await createUser(t.ctx, { tenant });
    pbxKey = await createKey(t.ctx, tenant, 'pbx');
    org = await organisation();
    const otherTenant = await createTenant(t.ctx);
    const otherAdmin = await createAdmin(t.ctx, otherTenant);
    const otherDepartment = await createDepartment(t.ctx, otherTenant, { name: 'Elsewhere' });
    const created = await t.app.inject({
      method: 'POST',
      url: url('/schedule-management', otherTenant.pbxId),
      headers: bearer(otherAdmin.token),
      payload: { name: 'Theirs', scope: { departments: [otherDepartment.id] } },
    });
    other = { tenant: otherTenant, admin: otherAdmin, scheduleId: created.json().id };
  });
  afterAll(() => t.close());

  it('reads a schedule flat, with every field of the contract and its relations resolved', async () => {
    const onDuty = (await call('POST', '/planning-statuses', admin.token, { name: 'On duty', color: '#2E7D32' })).json().data;
    const phone = (await call('POST', '/planning-statuses', admin.token, { name: 'Phone', parentId: onDuty.id })).json().data;
    const created = await create({
      name: 'Support hotline',
      scope: { departments: [org.dispatch.id] },
      daysOfWeek: [5, 1, 3],
      dayStartTime: '08:00',
      dayEndTime: '18:00',
      statusId: onDuty.id,
      subStatusId: phone.id,
    });
    const read = await call('GET', `/schedule-management/${created.id}`, user.token);
    expect(read.statusCode).toBe(200);
    const body = read.json();
    expect(Object.keys(body).sort()).toEqual(
      [
        'createdAt',
        'dayEndTime',
        'dayStartTime',
        'daysOfWeek',
        'department',
        'departments',
        'employees',
        'id',
        'isActive',
        'name',
        'scope',
        'scopeType',
        'slotDurationMinutes',
        'status',
        'statusFilters',
        'subStatus',
        'updatedAt',
      ].sort(),
    );
    expect(body).toMatchObject({
      name: 'Support hotline',
      scopeType: 'department',
      department: { id: org.dispatch.id, name: 'Dispatch' },
      scope: { companies: [], departments: [{ id: org.dispatch.id, name: 'Dispatch' }], employees: [] },
      departments: [{ id: org.dispatch.id, name: 'Dispatch' }],
      daysOfWeek: [1, 3, 5],
      dayStartTime: '08:00',
      dayEndTime: '18:00',
      slotDurationMinutes: 30,
      status: { id: onDuty.id, name: 'On duty' },
      subStatus: { id: phone.id, name: 'Phone' },
      statusFilters: [],
      isActive: true,
      createdAt: NOW,
    });
    // Luc's most recent contract is in Sales, but his Dispatch one is active today: he is in the pool, shown in Sales.
    expect(body.employees).toEqual([
      { id: org.anna.id, fullName: 'Anna Schmit', departmentId: org.dispatch.id, departmentName: 'Dispatch' },
      { id: org.luc.id, fullName: 'Luc Weber', departmentId: org.sales.id, departmentName: 'Sales' },
    ]);
    const employees = await call('GET', `/schedule-management/${created.id}/employees`, pbxKey);
    expect(employees.json()).toEqual({ data: body.employees });
  });

  it('resolves each scope type: companies, departments, people from two departments and two companies', async () => {
    const company = await create({ name: 'Front desk', scopeType: 'company', scope: { companies: [org.acme.id] } });
    expect(names(company.employees)).toEqual(['Anna Schmit', 'Luc Weber', 'Tom Reuter']);
    expect(company.scope).toEqual({ companies: [{ id: org.acme.id, name: 'Acme' }], departments: [], employees: [] });
    expect(company.departments).toEqual([
      { id: org.dispatch.id, name: 'Dispatch' },
      { id: org.sales.id, name: 'Sales' },
    ]);
    expect(company.employees.find((e: { fullName: string }) => e.fullName === 'Tom Reuter')).toMatchObject({ departmentId: null, departmentName: null });

    const people = await create({
      name: 'Weekend on-call',
      scopeType: 'employees',
      scope: { employees: [org.marie.id, org.anna.id, org.paul.id] },
      daysOfWeek: [6, 7],
    });
    expect(names(people.employees)).toEqual(['Anna Schmit', 'Marie Hoffmann']); // Paul's contract ended
    expect(people.scope.employees).toEqual([
      { id: org.marie.id, fullName: 'Marie Hoffmann' },
      { id: org.anna.id, fullName: 'Anna Schmit' },
      { id: org.paul.id, fullName: 'Paul Muller' },
    ]);
    expect(people.departments.map((d: { name: string }) => d.name)).toEqual(['Dispatch', 'Warehouse']);

    const noDepartment = await create({ name: 'Tom only', scopeType: 'employees', scope: { employees: [org.tom.id] } });
    expect(noDepartment).toMatchObject({ department: null, departments: [] });

    // The tenant's name order, in the pool, its order and the scope.
    await t.ctx.db.updateTable('pbxes').set({ name_order: 'last_first' }).where('id', '=', tenant.pbxId).execute();
    const reordered = (await call('GET', `/schedule-management/${company.id}/employees`, user.token)).json().data;
    expect(names(reordered)).toEqual(['Reuter Tom', 'Schmit Anna', 'Weber Luc']);
    await t.ctx.db.updateTable('pbxes').set({ name_order: 'first_last' }).where('id', '=', tenant.pbxId).execute();
  });

  it('refuses bad settings with 422 naming the field', async () => {
    const refuse = async (payload: object, field: string) => {
      const response = await call('POST', '/schedule-management', admin.token, { name: 'Bad', ...payload });
      expect(response.statusCode, JSON.stringify(payload)).toBe(422);
      expect(Object.keys(response.json().errors)).toContain(field);
    };
    await refuse({ scope: { departments: [] } }, 'scope.departments');
    await refuse({ scope: { departments: [org.dispatch.id], companies: [org.acme.id] } }, 'scope.companies');
    await refuse({ scope: { departments: [randomUUID()] } }, 'scope.departments');
    await refuse({ scopeType: 'company', scope: { companies: [org.dispatch.id] } }, 'scope.companies');
    await refuse({ scope: { departments: [org.dispatch.id] }, dayStartTime: '08:00' }, 'dayEndTime');
    await refuse({ scope: { departments: [org.dispatch.id] }, dayStartTime: '18:00', dayEndTime: '08:00' }, 'dayEndTime');
    await refuse({ scope: { departments: [org.dispatch.id] }, dayStartTime: '08:00', dayEndTime: '08:20', slotDurationMinutes: 30 }, 'slotDurationMinutes');
    await refuse({ scope: { departments: [org.dispatch.id] }, slotDurationMinutes: 2 }, 'slotDurationMinutes');
    await refuse({ scope: { departments: [org.dispatch.id] }, daysOfWeek: [8] }, 'daysOfWeek.0');
    await refuse({ scope: { departments: [org.dispatch.id] }, statusId: randomUUID() }, 'statusId');
    await refuse({ scope: { departments: [org.dispatch.id] }, scopeType: 'teams' }, 'scopeType');
    // Another tenant's department is as unknown as a made-up one.
    const theirs = await createDepartment(t.ctx, other.tenant, { name: 'Theirs' });
    await refuse({ scope: { departments: [theirs.id] } }, 'scope.departments');
  });

  it('lets any user of the PBX read, only administrators and the PBX key manage, nobody else see', async () => {
    const created = await create({ name: 'Readable', scope: { departments: [org.dispatch.id] } }, pbxKey);
    expect((await call('POST', '/schedule-management', user.token, { name: 'Mine', scope: { departments: [org.dispatch.id] } })).statusCode).toBe(403);
    expect((await call('PATCH', `/schedule-management/${created.id}`, user.token, { name: 'x' })).statusCode).toBe(403);
    expect((await call('DELETE', `/schedule-management/${created.id}`, user.token)).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: url(`/schedule-management/${created.id}`) })).statusCode).toBe(401);
    // A user of another PBX naming this one: 403; this PBX's user naming another tenant's schedule: 404.
    expect((await call('GET', `/schedule-management/${created.id}`, other.admin.token)).statusCode).toBe(403);
    expect((await call('GET', `/schedule-management/${other.scheduleId}`, admin.token)).statusCode).toBe(404);
    expect((await call('GET', `/schedule-management/${other.scheduleId}/employees`, admin.token)).statusCode).toBe(404);
    expect((await call('PATCH', `/schedule-management/${other.scheduleId}`, admin.token, { name: 'Mine now' })).statusCode).toBe(404);
    expect((await call('DELETE', `/schedule-management/${other.scheduleId}`, pbxKey)).statusCode).toBe(404);
    const listed = (await call('GET', '/schedule-management?perPage=100', user.token)).json();
    expect(listed.data.map((s: { id: string }) => s.id)).toContain(created.id);
    expect(listed.data.map((s: { id: string }) => s.id)).not.toContain(other.scheduleId);

    const changed = await call('PATCH', `/schedule-management/${created.id}`, admin.token, {
      scopeType: 'company',
      scope: { companies: [org.logistik.id] },
      isActive: false,
    });
    expect(changed.statusCode).toBe(200);
    expect(changed.json()).toMatchObject({ scopeType: 'company', isActive: false, employees: [{ fullName: 'Marie Hoffmann' }] });
    expect((await call('PATCH', `/schedule-management/${created.id}`, admin.token, { scopeType: 'department' })).statusCode).toBe(422);
    expect((await call('DELETE', `/schedule-management/${created.id}`, admin.token)).statusCode).toBe(204);
    expect((await call('GET', `/schedule-management/${created.id}`, admin.token)).statusCode).toBe(404);
  });

  describe('planning entries', () => {
    let schedule: { id: string };
    let frontDesk: { id: string };
    const book = (scheduleId: string, payload: object, token = admin.token) => call('POST', `/schedule-management/${scheduleId}/entries`, token, payload);

    beforeAll(async () => {
      schedule = await create({
        name: 'Hotline',
        scope: { departments: [org.dispatch.id] },
        daysOfWeek: [1, 2, 3, 4, 5],
        dayStartTime: '08:00',
        dayEndTime: '12:00',
        slotDurationMinutes: 30,
      });
      frontDesk = await create({
        name: 'Desk',
        scopeType: 'company',
        scope: { companies: [org.acme.id] },
        dayStartTime: '09:00',
        dayEndTime: '17:00',
        slotDurationMinutes: 60,
      });
    });

    it('books whole slots of a listed day for someone in the pool, and shows them on the week grid', async () => {
      const booked = await book(schedule.id, { employeeId: org.anna.id, date: '2026-11-24', startTime: '08:30', endTime: '09:30', note: 'Cover for Luc' });
      expect(booked.statusCode, booked.body).toBe(201);
      expect(booked.json().data).toMatchObject({
        scheduleId: schedule.id,
        employeeId: org.anna.id,
        employeeName: 'Anna Schmit',
        date: '2026-11-24',
        startTime: '08:30',
        endTime: '09:30',
        status: null,
        subStatus: null,
        note: 'Cover for Luc',
      });
      const single = await book(schedule.id, { employeeId: org.luc.id, date: '2026-11-24', startTime: '08:00' });
      expect(single.json().data).toMatchObject({ startTime: '08:00', endTime: '08:30' });

      const grid = (await call('GET', `/schedule-management/${schedule.id}/planning?week=2026-11-26`, user.token)).json().data;
      expect(grid).toMatchObject({ weekStart: '2026-11-23', weekEnd: '2026-11-29', isActive: true });
      expect(grid.days.map((d: { isScheduled: boolean }) => d.isScheduled)).toEqual([true, true, true, true, true, false, false]);
      const tuesday = grid.days[1];
      expect(tuesday.slots).toHaveLength(8);
      expect(tuesday.slots.map((s: { entries: unknown[] }) => s.entries.length)).toEqual([1, 1, 1, 0, 0, 0, 0, 0]);
      expect(tuesday.slots[1].entries[0].employeeName).toBe('Anna Schmit');
      expect(grid.days[5].slots).toEqual([]);
    });

    it('refuses a booking off the grid, off the days, outside the pool, on an inactive schedule, or twice at one time', async () => {
      const refuse = async (scheduleId: string, payload: object, field: string) => {
        const response = await book(scheduleId, payload);
        expect(response.statusCode, JSON.stringify(payload)).toBe(422);
        expect(Object.keys(response.json().errors)).toContain(field);
        return response.json();
      };
      await refuse(schedule.id, { employeeId: org.anna.id, date: '2026-11-28', startTime: '08:00' }, 'date'); // a Saturday
      await refuse(schedule.id, { employeeId: org.anna.id, date: '2026-11-25', startTime: '08:15' }, 'startTime');
      await refuse(schedule.id, { employeeId: org.anna.id, date: '2026-11-25', startTime: '07:30' }, 'startTime');
      await refuse(schedule.id, { employeeId: org.anna.id, date: '2026-11-25', startTime: '11:30', endTime: '12:30' }, 'endTime');
      await refuse(schedule.id, { employeeId: org.anna.id, date: '2026-11-25', startTime: '09:00', endTime: '09:10' }, 'endTime');
      // The contract's case: outside the assignable list (Marie is in another company; Paul's contract ended; Gina is deleted).
      for (const person of [org.marie, org.paul, org.gone]) {
        const body = await refuse(schedule.id, { employeeId: person.id, date: '2026-11-25', startTime: '08:00' }, 'employeeId');
        expect(body.errors.employeeId[0]).toMatch(/not one this schedule may assign/);
      }
      // Anna holds 08:30-09:30 on Tuesday in the hotline: the desk's 09:00 slot that day overlaps it.
      const clash = await refuse(frontDesk.id, { employeeId: org.anna.id, date: '2026-11-24', startTime: '09:00' }, 'employeeId');
      expect(clash.errors.employeeId[0]).toMatch(/already booked from 08:30 to 09:30/);
      expect((await book(frontDesk.id, { employeeId: org.anna.id, date: '2026-11-24', startTime: '10:00' })).statusCode).toBe(201);

      const inactive = await create({ name: 'Paused', scope: { departments: [org.dispatch.id] }, isActive: false });
      await refuse(inactive.id, { employeeId: org.anna.id, date: '2026-11-25', startTime: '08:00' }, 'scheduleId');
      const grid = (await call('GET', `/schedule-management/${inactive.id}/planning?week=2026-11-25`, user.token)).json().data;
      expect(grid.isActive).toBe(false);
      expect(grid.days.every((d: { isScheduled: boolean }) => !d.isScheduled)).toBe(true);

      // Plain users book nothing; another tenant's schedule is not found.
      expect((await book(schedule.id, { employeeId: org.anna.id, date: '2026-11-26', startTime: '08:00' }, user.token)).statusCode).toBe(403);
      expect(
        (
          await call('POST', `/schedule-management/${other.scheduleId}/entries`, admin.token, {
            employeeId: org.anna.id,
            date: '2026-11-26',
            startTime: '08:00',
          })
        ).statusCode,
      ).toBe(404);
    });

    it('never books one person twice at the same time, even when two bookings race', async () => {
      const attempts = await Promise.all(
        [schedule.id, frontDesk.id].map((id) => book(id, { employeeId: org.luc.id, date: '2026-11-27', startTime: '09:00', endTime: '10:00' })),
      );
      expect(attempts.map((r) => r.statusCode).sort()).toEqual([201, 422]);
      const stored = await t.ctx.db.selectFrom('planning_entries').selectAll().where('employee_id', '=', org.luc.id).where('day', '=', '2026-11-27').execute();
      expect(stored).toHaveLength(1);
    });

    it('changes an entry\u2019s status within the schedule\u2019s filters, and unbooks it', async () => {
      const onDuty = (await call('POST', '/planning-statuses', pbxKey, { name: 'Desk duty' })).json().data;
      const training = (await call('POST', '/planning-statuses', pbxKey, { name: 'Desk training' })).json().data;
      const filtered = await create({ name: 'Filtered', scope: { departments: [org.dispatch.id] }, statusFilters: [onDuty.id], statusId: onDuty.id });
      const entry = (await book(filtered.id, { employeeId: org.anna.id, date: '2026-11-26', startTime: '14:00' })).json().data;
      expect(entry.status).toEqual({ id: onDuty.id, name: 'Desk duty' });
      const refused = await call('PATCH', `/schedule-management/${filtered.id}/entries/${entry.id}`, admin.token, { statusId: training.id });
      expect(refused.statusCode).toBe(422);
      const noted = await call('PATCH', `/schedule-management/${filtered.id}/entries/${entry.id}`, admin.token, { note: 'Back office' });
      expect(noted.json().data).toMatchObject({ note: 'Back office', status: { id: onDuty.id } });
      expect((await call('DELETE', `/schedule-management/${schedule.id}/entries/${entry.id}`, admin.token)).statusCode).toBe(404); // another schedule's
      expect((await call('DELETE', `/schedule-management/${filtered.id}/entries/${entry.id}`, admin.token)).statusCode).toBe(204);
      expect((await call('DELETE', `/schedule-management/${filtered.id}/entries/${entry.id}`, admin.token)).statusCode).toBe(404);
    });
    it('reads one entry as {data} for any user of the PBX and its key; unknown or another schedule\u2019s 404, another PBX 403 or 404', async () => {
      const booked = await book(frontDesk.id, { employeeId: org.tom.id, date: '2026-11-25', startTime: '11:00', note: 'Front desk' });
      expect(booked.statusCode, booked.body).toBe(201);
      const entry = booked.json().data;
      const path = `/schedule-management/${frontDesk.id}/entries/${entry.id}`;
      const read = await call('GET', path, user.token);
      expect(read.statusCode, read.body).toBe(200);
      expect(read.json()).toEqual({ data: entry });
      expect(read.json().data).toMatchObject({ scheduleId: frontDesk.id, employeeId: org.tom.id, date: '2026-11-25', startTime: '11:00', endTime: '12:00' });
      const grid = (await call('GET', `/schedule-management/${frontDesk.id}/planning?week=2026-11-25`, user.token)).json().data;
      expect(grid.days[2].slots[2].entries).toEqual([entry]);
      expect((await call('GET', path, pbxKey)).statusCode).toBe(200);
      expect((await call('GET', path, admin.token)).statusCode).toBe(200);
      expect((await call('GET', `/schedule-management/${frontDesk.id}/entries/${randomUUID()}`, user.token)).statusCode).toBe(404);
      expect((await call('GET', `/schedule-management/${schedule.id}/entries/${entry.id}`, user.token)).statusCode).toBe(404); // another schedule's
      // A user of another PBX naming this one: 403; naming its own PBX with this tenant's ids: 404.
      expect((await call('GET', path, other.admin.token)).statusCode).toBe(403);
      expect((await call('GET', path, other.admin.token, undefined, other.tenant.pbxId)).statusCode).toBe(404);
      expect((await call('DELETE', path, admin.token)).statusCode).toBe(204);
      expect((await call('GET', path, user.token)).statusCode).toBe(404);
    });
  });

  it('keeps planning statuses one level deep, with names unique among siblings', async () => {
    const status = (await call('POST', '/planning-statuses', admin.token, { name: 'Support' })).json().data;
    const sub = await call('POST', '/planning-statuses', admin.token, { name: 'Chat', parentId: status.id });
    expect(sub.statusCode).toBe(201);
    expect((await call('POST', '/planning-statuses', admin.token, { name: 'Deeper', parentId: sub.json().data.id })).statusCode).toBe(422);
    expect((await call('POST', '/planning-statuses', admin.token, { name: 'Chat', parentId: status.id })).statusCode).toBe(422);
    expect((await call('POST', '/planning-statuses', admin.token, { name: 'Support' })).statusCode).toBe(422);
    expect((await call('POST', '/planning-statuses', admin.token, { name: 'Bad colour', color: 'green' })).statusCode).toBe(422);
    expect((await call('POST', '/planning-statuses', user.token, { name: 'Mine' })).statusCode).toBe(403);
    const listed = (await call('GET', '/planning-statuses', user.token)).json().data.map((s: { name: string }) => s.name);
    expect(listed.indexOf('Chat')).toBe(listed.indexOf('Support') + 1);
    expect((await call('DELETE', `/planning-statuses/${status.id}`, admin.token)).statusCode).toBe(204);
    expect((await call('GET', `/planning-statuses/${sub.json().data.id}`, admin.token)).statusCode).toBe(404);
    expect((await call('GET', `/planning-statuses/${status.id}`, other.admin.token, undefined, other.tenant.pbxId)).statusCode).toBe(404);
  });
});
