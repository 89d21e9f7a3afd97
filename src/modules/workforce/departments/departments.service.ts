import { randomUUID } from 'node:crypto';
import type { PageRequest, SortTerm } from '../../../db/paging.js';
import { restore, softDelete } from '../../../http/soft-delete.js';
import type { AppContext } from '../../../platform/context.js';
import { NotFound, ValidationFailed } from '../../../platform/errors.js';
import type { Tenant } from '../../../platform/tenancy.js';
import { presentCompany } from '../companies/company-view.js';
import { companiesByIds, findCompany } from '../companies/companies.queries.js';
import { findDepartment, insertDepartment, listDepartments, updateDepartment, type DepartmentFilters, type DepartmentRow } from './departments.queries.js';
import type { CreateDepartmentInput, DepartmentView, UpdateDepartmentInput } from './departments.schemas.js';

const NOT_FOUND = 'Department not found.';

export function presentDepartment(row: DepartmentRow): DepartmentView {
  return {
    id: row.id,
    name: row.name,
    company_id: row.company_id,
    delete_date: row.deleted_at,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

/** The tenant's departments, each in at most one of its companies. */
export class DepartmentsService {
  constructor(private readonly ctx: AppContext) {}

  /** The departments, with their company when `include=company` asked for it (one query for the page). */
  async present(tenant: Tenant, rows: DepartmentRow[], withCompany: boolean): Promise<DepartmentView[]> {
    if (!withCompany) return rows.map(presentDepartment);
    const companies = await companiesByIds(
      this.ctx.db,
      tenant,
      rows.flatMap((row) => (row.company_id ? [row.company_id] : [])),
    );
    return rows.map((row) => {
      const company = row.company_id ? companies.get(row.company_id) : undefined;
      return { ...presentDepartment(row), company: company ? presentCompany(company) : null };
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

  async create(tenant: Tenant, body: CreateDepartmentInput): Promise<DepartmentRow> {
    await this.checkCompany(tenant, body.company_id);
    const id = randomUUID();
    const now = this.ctx.clock.now().toISOString();
    await insertDepartment(this.ctx.db, {
      id,
      pbx_id: tenant.pbxId,
      name: body.name,
      company_id: body.company_id ?? null,
      created_at: now,
      updated_at: now,
    });
    return this.get(tenant, id);
  }

  /** Only the fields sent change; a company kept as it was is not re-checked (it may have been deleted since). */
  async update(tenant: Tenant, id: string, body: UpdateDepartmentInput): Promise<DepartmentRow> {
    const current = await this.get(tenant, id);
    if (body.company_id !== undefined && body.company_id !== current.company_id) await this.checkCompany(tenant, body.company_id);
    await updateDepartment(this.ctx.db, tenant, id, {
      ...(body.name !== undefined ? { name: body.name } : {}),
      ...(body.company_id !== undefined ? { company_id: body.company_id } : {}),
      updated_at: this.ctx.clock.now().toISOString(),
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
