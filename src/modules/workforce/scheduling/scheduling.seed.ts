/**
 * The demo's planning statuses and shift schedules, made through the services (so every rule
 * holds): "Support hotline" over the department with the most people, "Front desk" over the
 * first company, "Weekend on-call" over people of two departments, and an inactive "Night shift";
 * each active one with the current week's slots booked.
 */
import type { DemoSeeder } from '../../../platform/demo-seeder.js';
import { ValidationFailed } from '../../../platform/errors.js';
import type { Tenant } from '../../../platform/tenancy.js';
import { PlanningStatusesService } from './planning-statuses/planning-statuses.service.js';
import { addDays, isoWeekday } from '../shared/index.js';
import { demoOrganisationOf, tenantToday } from '../organisation/index.js';
import { tenantContractsActiveOn } from '../time/index.js';
import { PlanningEntriesService } from './schedules/planning-entries.service.js';
import { SchedulesService } from './schedules/schedules.service.js';

export const seedSchedules: DemoSeeder = async (ctx, demo) => {
  const tenant: Tenant = { pbxId: demo.pbxId };
  const statuses = new PlanningStatusesService(ctx);
  const onDuty = await statuses.create(tenant, { name: 'On duty', color: '#2E7D32' });
  const phone = await statuses.create(tenant, { name: 'Phone', parentId: onDuty.id });
  await statuses.create(tenant, { name: 'Chat', parentId: onDuty.id });
  const training = await statuses.create(tenant, { name: 'Training', color: '#1565C0' });
  await statuses.create(tenant, { name: 'Break', color: '#9E9E9E' });

  const schedules = new SchedulesService(ctx);
  const entries = new PlanningEntriesService(ctx);
  const today = await tenantToday(ctx, tenant);
  const [contracts, { companies }] = await Promise.all([tenantContractsActiveOn(ctx.db, tenant, today), demoOrganisationOf(ctx.db, tenant)]);
  // The departments by the people of their contracts active today, most first (then by id).
  const byDepartment = new Map<string, string[]>();
  for (const contract of contracts)
    if (contract.department_id !== null) byDepartment.set(contract.department_id, [...(byDepartment.get(contract.department_id) ?? []), contract.employee_id]);
  const binary = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  const busiest = [...byDepartment]
    .map(([departmentId, employeeIds]) => ({ departmentId, employeeIds: employeeIds.sort(binary) }))
    .sort((a, b) => b.employeeIds.length - a.employeeIds.length || binary(a.departmentId, b.departmentId));
  const company = companies[0];
  if (busiest.length < 2 || !company) throw new Error('seedSchedules: the workforce seeds (organisation, then time) must run first');

  const hotline = await schedules.create(tenant, {
    name: 'Support hotline',
    scopeType: 'department',
    scope: { departments: [busiest[0].departmentId] },
    daysOfWeek: [1, 2, 3, 4, 5],
    dayStartTime: '08:00',
    dayEndTime: '18:00',
    slotDurationMinutes: 30,
    statusId: onDuty.id,
    subStatusId: phone.id,
  });
  const frontDesk = await schedules.create(tenant, {
    name: 'Front desk',
    scopeType: 'company',
    scope: { companies: [company.id] },
    daysOfWeek: [1, 2, 3, 4, 5],
    dayStartTime: '09:00',
    dayEndTime: '17:00',
    slotDurationMinutes: 60,
    statusId: onDuty.id,
    statusFilters: [onDuty.id, training.id],
  });
  // One person from each of the two largest departments.
  const people = busiest.slice(0, 2).map((department) => department.employeeIds[0]);
  const onCall = await schedules.create(tenant, {
    name: 'Weekend on-call',
    scopeType: 'employees',
    scope: { employees: [...new Set(people)] },
    daysOfWeek: [6, 7],
    dayStartTime: '08:00',
    dayEndTime: '20:00',
    slotDurationMinutes: 240,
    statusId: onDuty.id,
  });
  await schedules.create(tenant, {
    name: 'Night shift',
    scopeType: 'department',
    scope: { departments: [busiest[1].departmentId] },
    dayStartTime: '22:00',
    dayEndTime: '24:00',
    slotDurationMinutes: 60,
    isActive: false,
  });

  // The current week's bookings: the hotline's mornings, the front desk's afternoons, the weekend's first shift.
  const monday = addDays(today, 1 - isoWeekday(today));
  const plans: Array<{ id: string; weekdays: number[]; start: string; end: string }> = [
    { id: hotline.id, weekdays: [1, 2, 3, 4, 5], start: '08:00', end: '12:00' },
    { id: frontDesk.id, weekdays: [1, 2, 3, 4, 5], start: '13:00', end: '17:00' },
    { id: onCall.id, weekdays: [6, 7], start: '08:00', end: '12:00' },
  ];
  let sample: string | undefined;
  for (const plan of plans) {
    const pool = await schedules.assignable(tenant, await schedules.get(tenant, plan.id));
    for (const [index, weekday] of plan.weekdays.entries()) {
      const person = pool[index % pool.length];
      if (!person) continue;
      try {
        const entry = await entries.book(tenant, plan.id, {
          employeeId: person.id,
          date: addDays(monday, weekday - 1),
          startTime: plan.start,
          endTime: plan.end,
        });
        sample ??= entry.id;
      } catch (error) {
        // The same person may already hold that time in another schedule: the rule refuses it, the demo moves on.
        if (!(error instanceof ValidationFailed)) throw error;
      }
    }
  }

  return {
    planning_status: onDuty.id,
    schedule_department: hotline.id,
    schedule_company: frontDesk.id,
    schedule_employees: onCall.id,
    planning_entry: sample,
  };
};
