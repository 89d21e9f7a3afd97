import { randomUUID } from 'node:crypto';
import type { PageRequest, SortTerm } from '../../../../db/paging.js';
import { type TrashedFilter } from '../../../../db/soft-delete.js';
import { restore, softDelete } from '../../../../platform/soft-delete.js';
import type { Principal } from '../../../../platform/auth/principal.js';
import type { AppContext } from '../../../../platform/context.js';
import { Forbidden, NotFound } from '../../../../platform/errors.js';
import type { Tenant } from '../../../../platform/tenancy.js';
import { guardUnique } from '../../../../platform/unique.js';
import type { LedgerTypeName } from '../absences.tables.js';
import { managesEmployees } from '../../organisation/index.js';
import {
  findAbsenceType,
  insertAbsenceType,
  listAbsenceTypes,
  updateAbsenceType,
  type AbsenceTypeFilters,
  type AbsenceTypeRow,
} from './absence-types.queries.js';
import type { AbsenceTypeInput } from './absence-types.schemas.js';

export type { AbsenceTypeRow };

export const ABSENCE_TYPE_NOT_FOUND = 'Absence type not found.';
const NAME_TAKEN = [{ match: 'absence_types', field: 'name', message: 'The name has already been taken.' }];

/** The tenant's catalogue of absence types: read by every user of the PBX, kept by administrators and the PBX key. */
export class AbsenceTypesService {
  constructor(private readonly ctx: AppContext) {}

  list(tenant: Tenant, principal: Principal, filters: AbsenceTypeFilters, sort: SortTerm[], page: PageRequest) {
    if (filters.trashed && filters.trashed !== 'without' && !managesEmployees(principal))
      throw new Forbidden('Only an administrator of this PBX may list deleted absence types.');
    return listAbsenceTypes(this.ctx.db, tenant, filters, sort, page);
  }

  async get(tenant: Tenant, id: string, trashed: TrashedFilter = 'without'): Promise<AbsenceTypeRow> {
    const row = await findAbsenceType(this.ctx.db, tenant, id, trashed);
    if (!row) throw new NotFound(ABSENCE_TYPE_NOT_FOUND);
    return row;
  }

  async create(tenant: Tenant, body: { name: string; type: LedgerTypeName }): Promise<AbsenceTypeRow> {
    const id = randomUUID();
    const now = this.ctx.clock.now().toISOString();
    await guardUnique(NAME_TAKEN, () =>
      insertAbsenceType(this.ctx.db, { id, pbx_id: tenant.pbxId, name: body.name, type: body.type, created_at: now, updated_at: now }),
    );
    return this.get(tenant, id);
  }

  /** A changed type counts from now on: templates already made with it keep the type they were made with. */
  async update(tenant: Tenant, id: string, body: AbsenceTypeInput): Promise<AbsenceTypeRow> {
    await this.get(tenant, id);
    const changes = { ...(body.name === undefined ? {} : { name: body.name }), ...(body.type === undefined ? {} : { type: body.type }) };
    await guardUnique(NAME_TAKEN, () => updateAbsenceType(this.ctx.db, tenant, id, { ...changes, updated_at: this.ctx.clock.now().toISOString() }));
    return this.get(tenant, id);
  }

  async remove(tenant: Tenant, id: string): Promise<void> {
    await softDelete(this.ctx.db, this.ctx.clock, 'absence_types', tenant, id, ABSENCE_TYPE_NOT_FOUND);
  }

  /** 422 when a live absence type took the name meanwhile. */
  async restore(tenant: Tenant, id: string): Promise<AbsenceTypeRow> {
    await guardUnique(NAME_TAKEN, () => restore(this.ctx.db, this.ctx.clock, 'absence_types', tenant, id, ABSENCE_TYPE_NOT_FOUND));
    return this.get(tenant, id);
  }
}
