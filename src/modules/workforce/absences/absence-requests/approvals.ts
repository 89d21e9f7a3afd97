/**
 * Who decides a request: snapshotted when the row is written, one entry per validator. The
 * validators are those the department of the employee's governing contract names (the employee
 * itself left out); with none, one entry for "any administrator of the PBX" (employee_id null).
 */
import { randomUUID } from 'node:crypto';
import type { Insertable, Kysely } from 'kysely';
import type { DB } from '../../../../db/schema.js';
import type { Tenant } from '../../../../platform/tenancy.js';
import { departmentValidatorIds } from '../../organisation/index.js';
import type { AbsenceRequestValidatorTable } from '../absences.tables.js';

export type ValidatorPlan = Array<string | null>;

export async function validatorPlan(db: Kysely<DB>, tenant: Tenant, employeeId: string, departmentId: string | null | undefined): Promise<ValidatorPlan> {
  const named = departmentId ? (await departmentValidatorIds(db, tenant, departmentId)).filter((id) => id !== employeeId) : [];
  return named.length ? named : [null];
}

/** The entries of one request under a plan, all pending. */
export function validatorEntries(tenant: Tenant, requestId: string, plan: ValidatorPlan): Insertable<AbsenceRequestValidatorTable>[] {
  return plan.map((employeeId, position) => ({
    id: randomUUID(),
    pbx_id: tenant.pbxId,
    absence_request_id: requestId,
    position,
    employee_id: employeeId,
    decided_by_user_id: null,
    decided_at: null,
  }));
}
