import { randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../platform/clock.js';
import { apiCaller, buildTestApp, type TestApp } from '../../../../test/helpers.js';
import { seedDemo, type DemoTenant } from '../../../demo-seed.js';

/** The seed's clock: Sunday 15 March 2026, 10:00 in Luxembourg. */
const NOW = '2026-03-15T09:00:00.000Z';
const DATA_DIR = `/tmp/pbx-api-recurring-seed-${process.pid}-${randomUUID().slice(0, 8)}`;

interface Template {
  id: string;
  employee_id: string;
  type: string;
  frequency: string;
  run_once: boolean;
  status: string;
  amount: number;
  note: string | null;
  failure_reason: string | null;
  next_run_at: string | null;
  last_run_at: string | null;
  last_transaction_id: string | null;
}

describe('recurring transactions demo seed', () => {
  let t: TestApp;
  let tenants: DemoTenant[];
  beforeAll(async () => {
    t = await buildTestApp({
      clock: new ManualClock(NOW),
      env: { DATA_DIR, JOB_WORKER: 'false', AMI_EVENTS: 'false', RATE_LIMIT_PER_MINUTE: '100000' },
    });
    tenants = (await seedDemo(t.ctx)).seed.tenants;
  });
  afterAll(async () => {
    await t.close();
    rmSync(DATA_DIR, { recursive: true, force: true });
  });
  const call = apiCaller(() => t);
  const templatesOf = async (tenant: DemoTenant) =>
    (await call('GET', '/recurring-transactions?perPage=100', tenant.pbx_api_key)).json<{ data: Template[] }>().data;

  it('gives each tenant templates of each frequency: active, paused, completed (run) and failed (run)', async () => {
    for (const tenant of tenants) {
      const templates = await templatesOf(tenant);
      const byId = new Map(templates.map((row) => [row.id, row]));
      const samples = tenant.samples as Record<string, string>;
      expect(byId.get(samples.recurring_transaction)).toMatchObject({
        status: 'active',
        frequency: 'monthly_start',
        type: 'overtime_balance',
        next_run_at: '2026-03-31T22:00:00.000Z',
      });
      expect(byId.get(samples.recurring_transaction_paused)).toMatchObject({ status: 'paused', next_run_at: null });
      // The one-off was made a month ago and ran on 1 March (local midnight).
      const completed = byId.get(samples.recurring_transaction_completed)!;
      expect(completed).toMatchObject({ status: 'completed', run_once: true, next_run_at: null, last_run_at: '2026-02-28T23:00:00.000Z' });
      const row = await call('GET', `/${tenant.pbx_id}/absence-requests/${completed.last_transaction_id}`, tenant.pbx_api_key);
      expect(row.json().data).toMatchObject({
        type: 'overtime_balance',
        sub_type: 'bonus',
        status: 'accepted',
        adjustment: { tr_type: 'credit', seconds: 4 * 3600, working_days: 0, recurring_transaction_id: completed.id },
        total_seconds: 0,
        working_days: 0,
        requested_time: {},
        start: '2026-03-01T00:00:00.000Z',
        recurring_transaction_id: completed.id,
      });
      expect(byId.get(samples.recurring_transaction_failed)).toMatchObject({
        status: 'failed',
        type: 'home_office',
        next_run_at: null,
        last_transaction_id: null,
        failure_reason: expect.stringContaining('does not track a home-office balance'),
      });
      // A yearly paid-leave allotment for every employee with a current contract, due 1 January.
      const yearly = templates.filter((template) => template.frequency === 'yearly_start');
      expect(yearly.length).toBeGreaterThanOrEqual(4);
      for (const template of yearly)
        expect(template).toMatchObject({ type: 'legal', status: 'active', note: 'Annual leave allotment', next_run_at: '2026-12-31T23:00:00.000Z' });
    }
  });

  it('gives each tenant the absence-type catalogue', async () => {
    for (const tenant of tenants) {
      const types = await call('GET', `/${tenant.pbx_id}/absence-types`, tenant.pbx_api_key);
      expect(types.json().data.map((row: { name: string; type: string }) => [row.name, row.type])).toEqual([
        ['Annual leave', 'legal'],
        ['Home office', 'home_office'],
        ['Overtime compensation', 'overtime_balance'],
        ['Sick leave', 'illness'],
        ['Special leave', 'special'],
      ]);
      expect(types.json().data.find((row: { id: string }) => row.id === tenant.samples.absence_type)).toMatchObject({ name: 'Annual leave' });
    }
  });

  it('credits the one-off run to the balance of the contract covering its day', async () => {
    const [acme] = tenants;
    const template = (await templatesOf(acme)).find((row) => row.id === acme.samples.recurring_transaction_completed)!;
    const contracts = await call('GET', `/${acme.pbx_id}/user/${template.employee_id}/user-companies?filter[active]=true`, acme.pbx_api_key);
    // Luc's time-seed overtime (5400 s) plus the 4 h credit.
    expect(contracts.json().data[0].compensatory_balance).toBe(5400 + 4 * 3600);
  });
});
