import { randomUUID } from 'node:crypto';
import type { Updateable } from 'kysely';
import type { PageRequest, SortTerm } from '../../../../db/paging.js';
import { restore, softDelete } from '../../../../platform/soft-delete.js';
import type { AppContext } from '../../../../platform/context.js';
import { NotFound, ValidationFailed } from '../../../../platform/errors.js';
import type { Tenant } from '../../../../platform/tenancy.js';
import type { CompanyTable } from '../organisation.tables.js';
import { findCompany, insertCompany, listCompanies, updateCompany, type CompanyFilters, type CompanyRow } from './companies.queries.js';
import type { CreateCompanyInput, UpdateCompanyInput } from './companies.schemas.js';
import { holidayPlace } from './holiday-regions.js';

export type { CompanyRow };

export const COMPANY_NOT_FOUND = 'Company not found.';

/** Sort names of the answer to columns: `company` is the `name` column. */
const SORT_COLUMNS: Record<string, string> = { company: 'name' };

/**
 * The country and region a company will have, checked against the public-holiday data: the
 * country must be known, and a region must be one of that country's (a changed country re-checks
 * the kept region).
 */
async function checkedPlace(country: string, region: string | null): Promise<{ country_cc: string; region: string | null }> {
  const place = await holidayPlace(country, region);
  if (!('unknown' in place)) return place;
  if (place.unknown === 'country') {
    throw ValidationFailed.field('country_cc', `The country ${country} has no known public holidays; use an ISO 3166-1 alpha-2 code such as LU or DE.`);
  }
  const countryCc = country.toUpperCase();
  throw ValidationFailed.field(
    'region',
    place.allowed.length
      ? `The region ${String(region)} is not a region of ${countryCc}. Allowed: ${place.allowed.join(', ')}.`
      : `${countryCc} has no regions with their own public holidays; region must be null.`,
  );
}

/** The stored columns for the fields of a create or update body (country and region apart). */
function columnsOf(body: UpdateCompanyInput): Updateable<CompanyTable> {
  const columns: Updateable<CompanyTable> = {};
  if (body.company !== undefined) columns.name = body.company;
  if (body.street !== undefined) columns.street = body.street;
  if (body.postal_code !== undefined) columns.postal_code = body.postal_code;
  if (body.city !== undefined) columns.city = body.city;
  if (body.legalHolidays !== undefined) columns.legal_holidays = body.legalHolidays;
  if (body.full_time !== undefined) columns.full_time = body.full_time;
  if (body.overtime_calculation_period_enabled !== undefined) columns.overtime_calculation_period_enabled = body.overtime_calculation_period_enabled ? 1 : 0;
  if (body.overtime_decision_enabled !== undefined) columns.overtime_decision_enabled = body.overtime_decision_enabled ? 1 : 0;
  return columns;
}

/** The tenant's companies (legal employers): their address, public-holiday place, leave days and full-time week. */
export class CompaniesService {
  constructor(private readonly ctx: AppContext) {}

  list(tenant: Tenant, filters: CompanyFilters, sort: SortTerm[], page: PageRequest) {
    const columns = sort.map((term) => ({ ...term, field: SORT_COLUMNS[term.field] ?? term.field }));
    return listCompanies(this.ctx.db, tenant, filters, columns, page);
  }

  /** A live company of the tenant; another tenant's (or a trashed one) is 404. */
  async get(tenant: Tenant, id: string): Promise<CompanyRow> {
    const row = await findCompany(this.ctx.db, tenant, id);
    if (!row) throw new NotFound(COMPANY_NOT_FOUND);
    return row;
  }

  async create(tenant: Tenant, body: CreateCompanyInput): Promise<CompanyRow> {
    const place = await checkedPlace(body.country_cc, body.region ?? null);
    const id = randomUUID();
    const now = this.ctx.clock.now().toISOString();
    await insertCompany(this.ctx.db, {
      legal_holidays: 26,
      full_time: 144000,
      overtime_calculation_period_enabled: 0,
      overtime_decision_enabled: 0,
      street: null,
      postal_code: null,
      city: null,
      ...columnsOf(body),
      ...place,
      id,
      pbx_id: tenant.pbxId,
      name: body.company,
      created_at: now,
      updated_at: now,
    });
    return this.get(tenant, id);
  }

  async update(tenant: Tenant, id: string, body: UpdateCompanyInput): Promise<CompanyRow> {
    const current = await this.get(tenant, id);
    const changes = columnsOf(body);
    if (body.country_cc !== undefined || body.region !== undefined) {
      Object.assign(changes, await checkedPlace(body.country_cc ?? current.country_cc, body.region === undefined ? current.region : body.region));
    }
    await updateCompany(this.ctx.db, tenant, id, { ...changes, updated_at: this.ctx.clock.now().toISOString() });
    return this.get(tenant, id);
  }

  /** Soft delete: departments and contracts keep naming it (their company shows its delete_date). */
  remove(tenant: Tenant, id: string): Promise<void> {
    return softDelete(this.ctx.db, this.ctx.clock, 'companies', tenant, id, COMPANY_NOT_FOUND);
  }

  async restore(tenant: Tenant, id: string): Promise<CompanyRow> {
    await restore(this.ctx.db, this.ctx.clock, 'companies', tenant, id, COMPANY_NOT_FOUND);
    return this.get(tenant, id);
  }
}
