import { randomUUID } from 'node:crypto';
import type { PageRequest, SortTerm } from '../../../../db/paging.js';
import { type TrashedFilter } from '../../../../db/soft-delete.js';
import { restore, softDelete } from '../../../../platform/soft-delete.js';
import type { Principal } from '../../../../platform/auth/principal.js';
import type { AppContext } from '../../../../platform/context.js';
import { Forbidden, NotFound, ValidationFailed } from '../../../../platform/errors.js';
import type { Tenant } from '../../../../platform/tenancy.js';
import { daysInclusive, type CalendarDay } from '../../shared/index.js';
import { managesEmployees, findCompany } from '../../organisation/index.js';
import { companyDaysOff, type DayOff } from './holiday-calendar.js';
import { findHoliday, insertHoliday, listHolidays, updateHoliday, type HolidayFilters, type TenantHolidayRow } from './holidays.queries.js';
import type { HolidayInput } from './holidays.schemas.js';

export type { TenantHolidayRow };

const HOLIDAY_NOT_FOUND = 'Holiday not found.';
/** The longest range the public holiday calendar answers, both ends counted. */
export const MAX_CALENDAR_DAYS = 366;

/** The tenant's own holidays, and the computed calendar of a company's days off. */
export class HolidaysService {
  constructor(private readonly ctx: AppContext) {}

  list(tenant: Tenant, principal: Principal, filters: HolidayFilters, sort: SortTerm[], page: PageRequest) {
    if (filters.trashed && filters.trashed !== 'without' && !managesEmployees(principal))
      throw new Forbidden('Only an administrator of this PBX may list deleted holidays.');
    return listHolidays(this.ctx.db, tenant, filters, sort, page);
  }

  async get(tenant: Tenant, id: string, trashed: TrashedFilter = 'without'): Promise<TenantHolidayRow> {
    const row = await findHoliday(this.ctx.db, tenant, id, trashed);
    if (!row) throw new NotFound(HOLIDAY_NOT_FOUND);
    return row;
  }

  async create(tenant: Tenant, body: HolidayInput & { name: string; date: CalendarDay }): Promise<TenantHolidayRow> {
    await this.checkCompany(tenant, body.company_id);
    const id = randomUUID();
    const now = this.ctx.clock.now().toISOString();
    await insertHoliday(this.ctx.db, {
      id,
      pbx_id: tenant.pbxId,
      company_id: body.company_id ?? null,
      date: body.date,
      name: body.name,
      half_day: body.half_day ? 1 : 0,
      recurring: body.recurring ? 1 : 0,
      created_at: now,
      updated_at: now,
    });
    return this.get(tenant, id);
  }

  async update(tenant: Tenant, id: string, body: HolidayInput): Promise<TenantHolidayRow> {
    await this.get(tenant, id);
    await this.checkCompany(tenant, body.company_id);
    await updateHoliday(this.ctx.db, tenant, id, {
      ...(body.name === undefined ? {} : { name: body.name }),
      ...(body.date === undefined ? {} : { date: body.date }),
      ...(body.half_day === undefined ? {} : { half_day: body.half_day ? 1 : 0 }),
      ...(body.recurring === undefined ? {} : { recurring: body.recurring ? 1 : 0 }),
      ...(body.company_id === undefined ? {} : { company_id: body.company_id }),
      updated_at: this.ctx.clock.now().toISOString(),
    });
    return this.get(tenant, id);
  }

  async remove(tenant: Tenant, id: string): Promise<void> {
    await softDelete(this.ctx.db, this.ctx.clock, 'tenant_holidays', tenant, id, HOLIDAY_NOT_FOUND);
  }

  async restore(tenant: Tenant, id: string): Promise<TenantHolidayRow> {
    await restore(this.ctx.db, this.ctx.clock, 'tenant_holidays', tenant, id, HOLIDAY_NOT_FOUND);
    return this.get(tenant, id);
  }

  /** The days off of one company of the PBX over a range of at most MAX_CALENDAR_DAYS. */
  async calendar(tenant: Tenant, companyId: string, from: CalendarDay, to: CalendarDay): Promise<DayOff[]> {
    if (to < from) throw ValidationFailed.field('filter[to]', 'The filter[to] must be a date after or equal to filter[from].');
    if (daysInclusive(from, to) > MAX_CALENDAR_DAYS)
      throw ValidationFailed.field('filter[to]', `The range may span at most ${MAX_CALENDAR_DAYS} days, both ends counted.`);
    const company = await findCompany(this.ctx.db, tenant, companyId);
    if (!company) throw ValidationFailed.field('filter[company_id]', 'The selected filter[company_id] is invalid.');
    return companyDaysOff(this.ctx.db, tenant, company, from, to);
  }

  private async checkCompany(tenant: Tenant, companyId: string | null | undefined): Promise<void> {
    if (companyId && !(await findCompany(this.ctx.db, tenant, companyId))) throw ValidationFailed.field('company_id', 'The selected company id is invalid.');
  }
}
