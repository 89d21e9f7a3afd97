import { randomUUID } from 'node:crypto';
import type { Transaction } from 'kysely';
import type { DB } from '../../../../db/schema.js';
import type { PageRequest, SortTerm } from '../../../../db/paging.js';
import { restore, softDelete } from '../../../../platform/soft-delete.js';
import type { AppContext } from '../../../../platform/context.js';
import { NotFound, ValidationFailed } from '../../../../platform/errors.js';
import type { Tenant } from '../../../../platform/tenancy.js';
import { guardUnique } from '../../../../platform/unique.js';
import { fullName, nameSortColumns, type NameOrder } from '../full-name.js';
import { nameOrderOf } from '../settings/settings.queries.js';
import {
  findEmployee,
  findEmployeeByExtId,
  findLinkableUser,
  insertEmployee,
  linkUser,
  listEmployees,
  unlinkEmployee,
  updateEmployee,
  type EmployeeFilters,
  type EmployeeRow,
} from './employees.queries.js';
import type { CreateEmployeeInput, UpdateEmployeeInput } from './employees.schemas.js';

export type { EmployeeRow };

const NOT_FOUND = 'Employee not found.';
/** The unique indexes an employee write can break, should a concurrent request win the race past the checks. */
const TAKEN = [
  { match: 'ext_id', field: 'ext_id', message: 'The ext id has already been taken.' },
  { match: 'users', field: 'user_id', message: 'The user is already linked to another employee.' },
];

/**
 * The tenant's employees and their link to a user (`users.employee_id`): one user per employee
 * and one employee per user, set only here. A soft-deleted employee is unlinked, so neither the
 * user nor its `/me` points at it; restoring it does not link it again.
 */
export class EmployeesService {
  constructor(private readonly ctx: AppContext) {}

  /** How the tenant writes names: every answer's fullName and the default sort follow it. */
  nameOrder(tenant: Tenant): Promise<NameOrder> {
    return nameOrderOf(this.ctx.db, tenant);
  }

  /** `sort=name` is the tenant's name order (first then last name, or the reverse). */
  list(tenant: Tenant, order: NameOrder, filters: EmployeeFilters, sort: SortTerm[], page: PageRequest) {
    const columns = sort.flatMap((term) => (term.field === 'name' ? nameSortColumns(order).map((field) => ({ field, direction: term.direction })) : [term]));
    return listEmployees(this.ctx.db, tenant, filters, columns, page);
  }

  async get(tenant: Tenant, id: string): Promise<EmployeeRow> {
    const row = await findEmployee(this.ctx.db, tenant, id);
    if (!row) throw new NotFound(NOT_FOUND);
    return row;
  }

  /** An ext_id is the person's id in the HR system: unique in the PBX, trashed employees included. */
  private async checkExtId(tenant: Tenant, extId: string | null | undefined, self: string | null): Promise<void> {
    if (!extId) return;
    const holder = await findEmployeeByExtId(this.ctx.db, tenant, extId);
    if (!holder || holder.id === self) return;
    throw ValidationFailed.field(
      'ext_id',
      holder.deleted_at
        ? `The ext id has already been taken by a deleted employee (${holder.id}); restore it or choose another ext id.`
        : 'The ext id has already been taken.',
    );
  }

  /**
   * A user may be linked when it is an active or disabled (not deleted) user of the PBX and no
   * other live employee has it; the 422 names the employee that does.
   */
  private async checkUser(tenant: Tenant, order: NameOrder, userId: string | null | undefined, self: string | null): Promise<void> {
    if (!userId) return;
    const user = await findLinkableUser(this.ctx.db, tenant, userId);
    if (!user || (user.status !== 'active' && user.status !== 'disabled')) throw ValidationFailed.field('user_id', 'The selected user is invalid.');
    if (!user.employee_id || user.employee_id === self) return;
    const holder = await findEmployee(this.ctx.db, tenant, user.employee_id);
    if (holder) throw this.alreadyLinked(holder, order);
  }

  private alreadyLinked(holder: EmployeeRow, order: NameOrder): ValidationFailed {
    const extId = holder.ext_id ? `, ext_id ${holder.ext_id}` : '';
    return ValidationFailed.field(
      'user_id',
      `The user is already linked to employee ${fullName(holder, order)} (${holder.id}${extId}); unlink it there first (user_id null).`,
    );
  }

  /** Moves the employee's link to `userId` (null: to no one), inside the caller's transaction. */
  private async setLink(trx: Transaction<DB>, tenant: Tenant, order: NameOrder, employeeId: string, userId: string | null, now: string): Promise<void> {
    await unlinkEmployee(trx, tenant, employeeId, now);
    if (userId === null || (await linkUser(trx, tenant, userId, employeeId, now))) return;
    // Another request linked the user meanwhile: name the employee it chose.
    const user = await findLinkableUser(trx, tenant, userId);
    const holder = user?.employee_id ? await findEmployee(trx, tenant, user.employee_id) : undefined;
    throw holder ? this.alreadyLinked(holder, order) : ValidationFailed.field('user_id', 'The selected user is invalid.');
  }

  async create(tenant: Tenant, order: NameOrder, body: CreateEmployeeInput): Promise<EmployeeRow> {
    await this.checkExtId(tenant, body.ext_id, null);
    await this.checkUser(tenant, order, body.user_id, null);
    const id = randomUUID();
    const now = this.ctx.clock.now().toISOString();
    await guardUnique(TAKEN, () =>
      this.ctx.db.transaction().execute(async (trx) => {
        await insertEmployee(trx, {
          id,
          pbx_id: tenant.pbxId,
          ext_id: body.ext_id ?? null,
          first_name: body.first_name,
          last_name: body.last_name,
          created_at: now,
          updated_at: now,
        });
        if (body.user_id) await this.setLink(trx, tenant, order, id, body.user_id, now);
      }),
    );
    return this.get(tenant, id);
  }

  /** Only the fields sent change; `user_id` moves the link (null unlinks). */
  async update(tenant: Tenant, order: NameOrder, id: string, body: UpdateEmployeeInput): Promise<EmployeeRow> {
    const current = await this.get(tenant, id);
    if (body.ext_id !== undefined && body.ext_id !== current.ext_id) await this.checkExtId(tenant, body.ext_id, id);
    const relink = body.user_id !== undefined && body.user_id !== current.user_id;
    if (relink) await this.checkUser(tenant, order, body.user_id, id);
    const now = this.ctx.clock.now().toISOString();
    await guardUnique(TAKEN, () =>
      this.ctx.db.transaction().execute(async (trx) => {
        await updateEmployee(trx, tenant, id, {
          ...(body.ext_id !== undefined ? { ext_id: body.ext_id } : {}),
          ...(body.first_name !== undefined ? { first_name: body.first_name } : {}),
          ...(body.last_name !== undefined ? { last_name: body.last_name } : {}),
          updated_at: now,
        });
        if (relink) await this.setLink(trx, tenant, order, id, body.user_id ?? null, now);
      }),
    );
    return this.get(tenant, id);
  }

  /** Soft delete, and the link with it: the user is free again and its /me shows no employee. */
  async remove(tenant: Tenant, id: string): Promise<void> {
    const now = this.ctx.clock.now().toISOString();
    await this.ctx.db.transaction().execute(async (trx) => {
      await softDelete(trx, this.ctx.clock, 'employees', tenant, id, NOT_FOUND);
      await unlinkEmployee(trx, tenant, id, now);
    });
  }

  /** The employee comes back without a user; link one again with PATCH user_id. */
  async restore(tenant: Tenant, id: string): Promise<EmployeeRow> {
    await restore(this.ctx.db, this.ctx.clock, 'employees', tenant, id, NOT_FOUND);
    return this.get(tenant, id);
  }
}
