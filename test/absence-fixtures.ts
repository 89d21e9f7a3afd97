/**
 * Test-only: an employee ready to ask for absences (a Luxembourg contract in the tenant's
 * department, a work shift), and the calls the absence tests repeat, all through the API.
 */
import { expect } from 'vitest';
import type { TestApp } from './helpers.js';
import { apiCaller } from './helpers.js';
import { createWorkforceTenant, type WorkforceSetup } from './workforce-factories.js';

export const FULL_TIME = { monday: 28800, tuesday: 28800, wednesday: 28800, thursday: 28800, friday: 28800 };
export const HALF_TIME = { monday: 14400, tuesday: 14400, wednesday: 14400, thursday: 14400, friday: 14400 };

export type { WorkforceSetup };
export type TimeSetup = WorkforceSetup & { contractId: string };

interface Answer {
  statusCode: number;
  body: string;
  json<T = Record<string, unknown>>(): T;
}

export function absenceFixtures(app: () => TestApp) {
  const call = apiCaller(app);

  /** `{data}` of an answer that must have this status. */
  const dataOf = <T = Record<string, unknown>>(response: Answer, status: number): T => {
    expect(response.statusCode, response.body).toBe(status);
    return response.json<{ data: T }>().data;
  };
  const post = async (s: WorkforceSetup, url: string, body: Record<string, unknown>) =>
    dataOf<{ id: string }>(await call('POST', `/${s.tenant.pbxId}${url}`, s.admin.token, body), 201).id;

  /**
   * The tenant's worker (or another employee of it) under a Luxembourg contract in the tenant's
   * department since 2024, on a Monday-to-Friday shift (8 h a day unless told).
   */
  async function employ(
    s: WorkforceSetup,
    options: { employeeId?: string; shift?: Record<string, number>; balances?: Record<string, number | null>; department?: string | null } = {},
  ): Promise<string> {
    const employeeId = options.employeeId ?? s.employee.id;
    const contractId = await post(s, `/user/${employeeId}/user-companies`, {
      company_id: s.company.id,
      department_id: options.department === undefined ? s.department.id : options.department,
      contract_start: '2024-01-01',
      ...options.balances,
    });
    const shift = await post(s, '/work-shifts', { name: `Shift ${employeeId.slice(0, 8)}`, ...(options.shift ?? FULL_TIME) });
    await post(s, `/user/${employeeId}/work-shift-assignments`, { work_shift_id: shift, valid_from: '2024-01-01' });
    return contractId;
  }

  /** A fresh tenant whose worker is employed (see employ). */
  async function timeTenant(options: Parameters<typeof employ>[1] = {}): Promise<TimeSetup> {
    const s = await createWorkforceTenant(app().ctx);
    return { ...s, contractId: await employ(s, options) };
  }

  const absencesUrl = (s: WorkforceSetup, employeeId = s.employee.id) => `/${s.tenant.pbxId}/user/${employeeId}/absence-requests`;
  const oneUrl = (s: WorkforceSetup, id: string, move = '') => `/${s.tenant.pbxId}/absence-requests/${id}${move ? `/${move}` : ''}`;

  /** Asks for an absence (by the worker for itself unless told) and answers the created row. */
  async function ask(s: WorkforceSetup, body: Record<string, unknown>, options: { token?: string; employeeId?: string } = {}) {
    return dataOf<AbsenceView>(await call('POST', absencesUrl(s, options.employeeId), options.token ?? s.worker.token, body), 201);
  }

  /** Runs a move (approve, reject, cancel, removal) that must succeed; answers the row. */
  async function move(s: WorkforceSetup, id: string, name: 'approve' | 'reject' | 'cancel' | 'removal', token = s.admin.token) {
    return dataOf<AbsenceView>(await call('POST', oneUrl(s, id, name), token), name === 'removal' ? 201 : 200);
  }

  async function read(s: WorkforceSetup, id: string, token = s.admin.token) {
    return dataOf<AbsenceView>(await call('GET', oneUrl(s, id), token), 200);
  }

  /** An accepted request (asked by the worker, approved by the administrator). */
  async function granted(s: WorkforceSetup, body: Record<string, unknown>, employeeId?: string) {
    const row = await ask(s, body, employeeId ? { token: s.admin.token, employeeId } : {});
    return move(s, row.id, 'approve');
  }

  async function setValidators(s: WorkforceSetup, validatorIds: string[], departmentId = s.department.id) {
    dataOf(await call('PATCH', `/${s.tenant.pbxId}/departments/${departmentId}`, s.admin.token, { validator_ids: validatorIds }), 200);
  }

  /** The contract's balances as the user-companies API shows them. */
  async function balances(s: TimeSetup) {
    const contract = dataOf<{ leave_balance: number; compensatory_balance: number; ho_balance: number | null }>(
      await call('GET', `/${s.tenant.pbxId}/user-companies/${s.contractId}`, s.admin.token),
      200,
    );
    return { leave_balance: contract.leave_balance, compensatory_balance: contract.compensatory_balance, ho_balance: contract.ho_balance };
  }

  return { call, dataOf, post, employ, timeTenant, absencesUrl, oneUrl, ask, move, read, granted, setValidators, balances };
}

/** The absence request resource as the tests read it. */
export interface AbsenceView {
  id: string;
  status: string | null;
  type: string;
  sub_type: string | null;
  employee_id: string;
  working_days: number;
  total_seconds: number;
  requested_time: Record<string, number> | null;
  accepted_by: Array<{ employee_id: string | null; status: string }>;
  next_availability?: { date: string | null; time: string | null; in_past: boolean; reason: string } | null;
  removal_of_id: string | null;
  start_time: string | null;
  end_time: string | null;
  [field: string]: unknown;
}
