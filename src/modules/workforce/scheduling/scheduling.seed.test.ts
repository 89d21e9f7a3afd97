import { randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../platform/clock.js';
import { apiCaller, useTestApp } from '../../../../test/helpers.js';
import { seedDemo, type DemoTenant } from '../../../demo-seed.js';

/** Wednesday 18 March 2026, 10:00 in Luxembourg. */
const NOW = '2026-03-18T09:00:00.000Z';
const DATA_DIR = `/tmp/pbx-api-schedules-seed-${process.pid}-${randomUUID().slice(0, 8)}`;

describe('shift schedules demo seed', () => {
  let tenants: DemoTenant[];
  // Registered before useTestApp(), so it runs after the app is closed (after-hooks run in reverse).
  afterAll(() => {
    rmSync(DATA_DIR, { recursive: true, force: true });
  });
  const t = useTestApp({ clock: new ManualClock(NOW), env: { DATA_DIR, JOB_WORKER: 'false', AMI_EVENTS: 'false', RATE_LIMIT_PER_MINUTE: '100000' } });
  beforeAll(async () => {
    tenants = (await seedDemo(t.ctx)).seed.tenants;
  });
  const call = apiCaller(() => t);

  it('gives each tenant a schedule of each scope type with this week booked, and an inactive one', async () => {
    for (const tenant of tenants) {
      const samples = tenant.samples as Record<string, string>;
      const read = async (id: string) => (await call('GET', `/${tenant.pbx_id}/schedule-management/${id}`, tenant.pbx_api_key)).json();
      const [department, company, people] = [
        await read(samples.schedule_department),
        await read(samples.schedule_company),
        await read(samples.schedule_employees),
      ];
      expect([department.scopeType, company.scopeType, people.scopeType]).toEqual(['department', 'company', 'employees']);
      for (const schedule of [department, company, people]) expect(schedule.employees.length).toBeGreaterThan(0);
      // The on-call people come from two departments.
      expect(new Set(people.employees.map((e: { departmentId: string }) => e.departmentId)).size).toBe(2);

      const list = (await call('GET', `/${tenant.pbx_id}/schedule-management?perPage=50`, tenant.pbx_api_key)).json().data;
      expect(list.filter((s: { isActive: boolean }) => !s.isActive).map((s: { name: string }) => s.name)).toEqual(['Night shift']);

      const week = (await call('GET', `/${tenant.pbx_id}/schedule-management/${samples.schedule_department}/planning`, tenant.pbx_api_key)).json().data;
      expect(week.weekStart).toBe('2026-03-16');
      const booked = week.days.filter((day: { slots: Array<{ entries: unknown[] }> }) => day.slots.some((slot) => slot.entries.length > 0));
      expect(booked).toHaveLength(5);
      const statuses = (await call('GET', `/${tenant.pbx_id}/planning-statuses`, tenant.pbx_api_key)).json().data.map((s: { name: string }) => s.name);
      expect(statuses).toEqual(['Break', 'On duty', 'Chat', 'Phone', 'Training']);
      expect((await call('GET', `/${tenant.pbx_id}/planning-statuses/${samples.planning_status}`, tenant.pbx_api_key)).statusCode).toBe(200);
    }
  });
});
