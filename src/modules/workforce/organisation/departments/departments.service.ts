import { randomUUID } from 'node:crypto';
import type { PageRequest, SortTerm } from '../../../../db/paging.js';
import { restore, softDelete } from '../../../../platform/soft-delete.js';
import type { AppContext } from '../../../../platform/context.js';
import { NotFound, ValidationFailed, type FieldErrors } from '../../../../platform/errors.js';
import type { Tenant } from '../../../../platform/tenancy.js';
import { presentCompany } from '../companies/companies.presenter.js';
import { companiesByIds, findCompany } from '../companies/companies.queries.js';
import { liveEmployeeIds } from '../employees/employees.queries.js';
import {
  findDepartment,
  insertDepartment,
  listDepartments,
  replaceDepartmentValidators,
  updateDepartment,
  validatorIdsByDepartment,
  type DepartmentFilters,
  type DepartmentRow,
} from './departments.queries.js';
import type { CreateDepartmentInput, DepartmentView, UpdateDepartmentInput } from './departments.schemas.js';
import { presentDepartment } from './departments.presenter.js';

export type { DepartmentRow };

const NOT_FOUND = 'Department not found.';

/** The tenant's departments, each in at most one of its companies. */
export class DepartmentsService {
  constructor(private readonly ctx: AppContext) {}

  /**
   * The departments with their validators, and their company when `include=company` asked for it:
   * one query each for the whole page.
   */
  async present(tenant: Tenant, rows: DepartmentRow[], withCompany: boolean): Promise<DepartmentView[]> {
    const [validators, companies] = await Promise.all([
      validatorIdsByDepartment(
        this.ctx.db,
        tenant,
        rows.map((row) => row.id),
      ),
      withCompany
        ? companiesByIds(
            this.ctx.db,
            tenant,
            rows.flatMap((row) => (row.company_id ? [row.company_id] : [])),
          )
        : undefined,
    ]);
    return rows.map((row) => {
      const view = presentDepartment(row, validators.get(row.id) ?? []);
      if (!companies) return view;
      const company = row.company_id ? companies.get(row.company_id) : undefined;
      return { ...view, company: company ? presentCompany(company) : null };
    });
  }

  list(tenant: Tenant, filters: DepartmentFilters, sort: SortTerm[], page: PageRequest) {
    return listDepartments(this.ctx.db, tenant, filters, sort, page);
  }

  async get(tenant: Tenant, id: string): Promise<DepartmentRow> {
    const row = await findDepartment(this.ctx.db, tenant, id);
    if (!row) throw new NotFound(NOT_FOUND);
    return row;
  }

  /** A department may name a live company of its own tenant only. */
  private async checkCompany(tenant: Tenant, companyId: string | null | undefined): Promise<void> {
    if (!companyId) return;
    if (!(await findCompany(this.ctx.db, tenant, companyId))) throw ValidationFailed.field('company_id', 'The selected company is invalid.');
  }

  /**
   * Validators must be live employees of the tenant, each listed once; the errors name the index
   * (`validator_ids.2`) so a client can point at the entry.
   */
  private async checkValidators(tenant: Tenant, validatorIds: readonly string[] | undefined): Promise<void> {
    if (!validatorIds?.length) return;
    const live = await liveEmployeeIds(this.ctx.db, tenant, validatorIds);
    const errors: FieldErrors = {};
    validatorIds.forEach((employeeId, index) => {
      const first = validatorIds.indexOf(employeeId);
      if (first !== index) errors[`validator_ids.${index}`] = [`The employee at validator_ids.${index} is already listed at validator_ids.${first}.`];
      else if (!live.has(employeeId)) errors[`validator_ids.${index}`] = [`The selected validator_ids.${index} is not an employee of this PBX.`];
    });
    if (Object.keys(errors).length) throw new ValidationFailed(errors);
  }

  async create(tenant: Tenant, body: CreateDepartmentInput): Promise<DepartmentRow> {
    await this.checkCompany(tenant, body.company_id);
    await this.checkValidators(tenant, body.validator_ids);
    const id = randomUUID();
    const now = this.ctx.clock.now().toISOString();
    await this.ctx.db.transaction().execute(async (trx) => {
      await insertDepartment(trx, {
        id,
        pbx_id: tenant.pbxId,
        name: body.name,
        company_id: body.company_id ?? null,
        created_at: now,
        updated_at: now,
      });
      if (body.validator_ids?.length) await replaceDepartmentValidators(trx, tenant, id, body.validator_ids);
    });
    return this.get(tenant, id);
  }

  /**
   * Only the fields sent change; a company kept as it was is not re-checked (it may have been
   * deleted since). `validator_ids`, when sent, replaces the whole list.
   */
  async update(tenant: Tenant, id: string, body: UpdateDepartmentInput): Promise<DepartmentRow> {
    const current = await this.get(tenant, id);
    if (body.company_id !== undefined && body.company_id !== current.company_id) await this.checkCompany(tenant, body.company_id);
    await this.checkValidators(tenant, body.validator_ids);
    await this.ctx.db.transaction().execute(async (trx) => {
      // The department's row is written first: on PostgreSQL its row lock makes concurrent replacements of the list take turns.
      await updateDepartment(trx, tenant, id, {
        ...(body.name !== undefined ? { name: body.name } : {}),
        ...(body.company_id !== undefined ? { company_id: body.company_id } : {}),
        updated_at: this.ctx.clock.now().toISOString(),
      });
      if (body.validator_ids !== undefined) await replaceDepartmentValidators(trx, tenant, id, body.validator_ids);
    });
    return this.get(tenant, id);
  }

  remove(tenant: Tenant, id: string): Promise<void> {
    return softDelete(this.ctx.db, this.ctx.clock, 'departments', tenant, id, NOT_FOUND);
  }

  async restore(tenant: Tenant, id: string): Promise<DepartmentRow> {
    await restore(this.ctx.db, this.ctx.clock, 'departments', tenant, id, NOT_FOUND);
    return this.get(tenant, id);
  }
}
