import { randomUUID } from 'node:crypto';
import type { Transaction } from 'kysely';
import type { DB } from '../../../../db/schema.js';
import type { PageRequest, SortTerm } from '../../../../db/paging.js';
import { type TrashedFilter } from '../../../../db/soft-delete.js';
import { restore, softDelete } from '../../../../platform/soft-delete.js';
import type { Principal } from '../../../../platform/auth/principal.js';
import type { AppContext } from '../../../../platform/context.js';
import { Forbidden, NotFound, ValidationFailed, type FieldErrors } from '../../../../platform/errors.js';
import type { Tenant } from '../../../../platform/tenancy.js';
import { guardUnique } from '../../../../platform/unique.js';
import type { CalendarDay } from '../../shared/index.js';
import {
  employeeForRead,
  employeeForWrite,
  lockEmployee,
  managesEmployees,
  tenantToday,
  companiesByIds,
  findCompany,
  findDepartment,
} from '../../organisation/index.js';
import {
  clearOtherMain,
  currentMainContractId,
  findContract,
  hasOtherLiveMain,
  insertContract,
  listContracts,
  updateContract,
  type ContractRow,
  type ContractTableRow,
} from './contracts.queries.js';
import type { ContractInput, UserCompanyView } from './contracts.schemas.js';
import { presentUserCompany } from './contracts.presenter.js';

export type { ContractRow };

const CONTRACT_NOT_FOUND = 'Contract not found.';
/** Two writes making different contracts of one employee main at the same moment: the later one loses. */
const ONE_MAIN = [{ match: 'employee_contracts', field: 'main_company', message: 'Another contract of this employee was made main at the same time.' }];

export interface UserCompanyQuery {
  from?: CalendarDay;
  to?: CalendarDay;
  active?: boolean;
  trashed?: TrashedFilter;
}

const asFlag = (value: 0 | 1 | boolean) => (value === true || value === 1 ? 1 : 0);

/** Employee-company contracts (the contract's user companies). */
export class ContractsService {
  constructor(private readonly ctx: AppContext) {}

  async present(tenant: Tenant, rows: ContractRow[]): Promise<UserCompanyView[]> {
    const companies = await companiesByIds(
      this.ctx.db,
      tenant,
      rows.map((row) => row.company_id),
    );
    return rows.map((row) => presentUserCompany(row, row.company_id === null ? null : companies.get(row.company_id)));
  }

  /** An employee's contracts; `main_company` as the list shows it (see UserCompany.main_company). */
  async listForEmployee(tenant: Tenant, principal: Principal, employeeId: string, query: UserCompanyQuery, sort: SortTerm[], page: PageRequest) {
    // Independent reads go out together (each is a round trip on PostgreSQL).
    const [employee, today] = await Promise.all([employeeForRead(this.ctx.db, tenant, principal, employeeId), tenantToday(this.ctx, tenant)]);
    if (query.trashed && query.trashed !== 'without' && !managesEmployees(principal))
      throw new Forbidden('Only an administrator of this PBX may list deleted contracts.');
    if (query.from && query.to && query.to < query.from)
      throw ValidationFailed.field('filter[to]', 'The filter[to] must be a date after or equal to filter[from].');
    const [{ rows, total }, mainId] = await Promise.all([
      listContracts(this.ctx.db, tenant, employee.id, { ...query, today }, sort, page),
      query.active === undefined ? currentMainContractId(this.ctx.db, tenant, employee.id, today) : undefined,
    ]);
    return {
      total,
      rows: rows.map(({ end_sort: _endSort, ...row }): ContractRow => ({
        ...row,
        ext_id: employee.ext_id,
        main_company: mainId === undefined ? row.main_company : row.id === mainId ? 1 : 0,
      })),
    };
  }

  async get(tenant: Tenant, id: string, trashed: TrashedFilter = 'without'): Promise<ContractRow> {
    const row = await findContract(this.ctx.db, tenant, id, trashed);
    if (!row) throw new NotFound(CONTRACT_NOT_FOUND);
    return row;
  }

  async create(tenant: Tenant, employeeId: string, body: ContractInput & { contract_start: CalendarDay }): Promise<ContractRow> {
    const employee = await employeeForWrite(this.ctx.db, tenant, employeeId);
    const id = randomUUID();
    const now = this.ctx.clock.now().toISOString();
    const fields = await this.validate(tenant, null, body);
    await this.write(tenant, employee.id, async (trx) => {
      const main = body.main_company === undefined ? 0 : asFlag(body.main_company);
      if (main) await clearOtherMain(trx, tenant, employee.id, id, now);
      await insertContract(trx, {
        id,
        pbx_id: tenant.pbxId,
        employee_id: employee.id,
        company_id: null,
        department_id: null,
        participation: null,
        contract_end: null,
        ho_balance: null,
        title: null,
        ...fields,
        contract_start: body.contract_start,
        main_company: main,
        compensatory_balance: body.compensatory_balance ?? 0,
        created_at: now,
        updated_at: now,
      });
    });
    return this.get(tenant, id);
  }

  /** PATCH: changes the fields sent; the period is checked as it will be. */
  async update(tenant: Tenant, id: string, body: ContractInput): Promise<ContractRow> {
    const current = await this.get(tenant, id);
    const fields = await this.validate(tenant, current, body);
    const now = this.ctx.clock.now().toISOString();
    await this.write(tenant, current.employee_id, async (trx) => {
      const main = body.main_company === undefined ? undefined : asFlag(body.main_company);
      if (main) await clearOtherMain(trx, tenant, current.employee_id, id, now);
      await updateContract(trx, tenant, id, {
        ...fields,
        ...(main === undefined ? {} : { main_company: main }),
        ...(body.compensatory_balance === undefined ? {} : { compensatory_balance: body.compensatory_balance }),
        updated_at: now,
      });
    });
    return this.get(tenant, id);
  }

  async remove(tenant: Tenant, id: string): Promise<void> {
    await softDelete(this.ctx.db, this.ctx.clock, 'employee_contracts', tenant, id, CONTRACT_NOT_FOUND);
  }

  /** A restored main contract stays main unless another contract of the employee became main meanwhile. */
  async restore(tenant: Tenant, id: string): Promise<ContractRow> {
    const row = await this.get(tenant, id, 'only');
    await this.write(tenant, row.employee_id, async (trx) => {
      if (row.main_company === 1 && (await hasOtherLiveMain(trx, tenant, row.employee_id, id)))
        await updateContract(trx, tenant, id, { main_company: 0, updated_at: this.ctx.clock.now().toISOString() });
      await restore(trx, this.ctx.clock, 'employee_contracts', tenant, id, CONTRACT_NOT_FOUND);
    });
    return this.get(tenant, id);
  }

  private async write(tenant: Tenant, employeeId: string, work: (trx: Transaction<DB>) => Promise<void>): Promise<void> {
    await guardUnique(ONE_MAIN, () =>
      this.ctx.db.transaction().execute(async (trx) => {
        await lockEmployee(trx, this.ctx.dialect, tenant, employeeId);
        await work(trx);
      }),
    );
  }

  /** The stored fields of a create or PATCH, checked against the PBX's companies and departments. */
  private async validate(tenant: Tenant, current: ContractTableRow | null, body: ContractInput): Promise<Partial<ContractTableRow>> {
    const errors: FieldErrors = {};
    const fail = (field: string, message: string) => (errors[field] ??= []).push(message);
    const companyId = body.company_id === undefined ? (current?.company_id ?? null) : body.company_id;
    const departmentId = body.department_id === undefined ? (current?.department_id ?? null) : body.department_id;
    if (body.company_id && !(await findCompany(this.ctx.db, tenant, body.company_id))) fail('company_id', 'The selected company id is invalid.');
    if (departmentId && (body.department_id !== undefined || body.company_id !== undefined)) {
      const department = await findDepartment(this.ctx.db, tenant, departmentId);
      if (!department) fail('department_id', 'The selected department id is invalid.');
      else if (department.company_id !== null && department.company_id !== companyId)
        fail('department_id', 'The department belongs to another company than the contract.');
    }
    const start = body.contract_start ?? current?.contract_start;
    const end = body.contract_end === undefined ? (current?.contract_end ?? null) : body.contract_end;
    if (start && end !== null && end < start) fail('contract_end', 'The contract end must be a date after or equal to contract start.');
    if (Object.keys(errors).length) throw new ValidationFailed(errors);

    const fields: Partial<ContractTableRow> = {};
    if (body.company_id !== undefined) fields.company_id = body.company_id;
    if (body.department_id !== undefined) fields.department_id = body.department_id;
    if (body.participation !== undefined) fields.participation = body.participation;
    if (body.contract_start !== undefined) fields.contract_start = body.contract_start;
    if (body.contract_end !== undefined) fields.contract_end = body.contract_end;
    if (body.ho_balance !== undefined) fields.ho_balance = body.ho_balance;
    if (body.leave_balance !== undefined) fields.leave_balance = body.leave_balance;
    if (body.title !== undefined) fields.title = body.title;
    return fields;
  }
}
