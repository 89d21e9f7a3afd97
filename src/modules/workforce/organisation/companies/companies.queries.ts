import type { Insertable, Selectable, Updateable } from 'kysely';
import { pagedQuery, type PageRequest, type SortTerm } from '../../../../db/paging.js';
import { matchesPattern, searchPattern } from '../../../../db/search.js';
import { trashedScope, type TrashedFilter } from '../../../../db/soft-delete.js';
import type { Tenant } from '../../../../platform/tenancy.js';
import type { CompanyTable } from '../organisation.tables.js';
import type { Executor } from '../../../../db/database.js';
import { shapedQuery } from '../../../../db/reusable-query.js';

export type CompanyRow = Selectable<CompanyTable>;

export interface CompanyFilters {
  search?: string;
  countryCc?: string;
  trashed?: TrashedFilter;
}

/** What selects companies: the tenant, and each filter that is set (`search` as a pattern, `countryCc` in upper case). */
interface CompanyScope {
  pbxId: string;
  search?: string;
  countryCc?: string;
  trashed?: TrashedFilter;
}

function companiesOf(db: Executor, scope: CompanyScope) {
  let query = trashedScope(db.selectFrom('companies').where('pbx_id', '=', scope.pbxId), scope.trashed);
  if (scope.search) query = query.where(matchesPattern(['name', 'city'], scope.search));
  if (scope.countryCc) query = query.where('country_cc', '=', scope.countryCc);
  return query;
}

const companyPage = pagedQuery({ scoped: companiesOf, columns: (query) => query.selectAll(), choices: ['trashed'] });

export function listCompanies(db: Executor, tenant: Tenant, filters: CompanyFilters, sort: SortTerm[], page: PageRequest) {
  const scope = { pbxId: tenant.pbxId, ...filters, search: searchPattern(filters.search), countryCc: filters.countryCc?.toUpperCase() };
  return companyPage(db, scope, sort, page);
}

/** A company of the tenant: live ones by default, `only` for a trashed one, `with` for either. */
export function findCompany(db: Executor, tenant: Tenant, id: string, trashed: TrashedFilter = 'without'): Promise<CompanyRow | undefined> {
  return companiesOf(db, { pbxId: tenant.pbxId, trashed }).selectAll().where('id', '=', id).executeTakeFirst();
}

/** Companies of the tenant by id, trashed ones included (a department or contract may still name one); nulls are skipped. */
/**
 * Where the tenant's companies are (deleted ones included, as `companiesByIds` finds them), as a
 * query another workforce sub-domain joins (aliased) in its own statement: the work calendar reads
 * each contract's company beside it.
 */
export function companyLocations(db: Executor, tenant: Tenant) {
  return db.selectFrom('companies').select(['companies.id', 'companies.country_cc', 'companies.region']).where('companies.pbx_id', '=', tenant.pbxId);
}

/** `companiesByIds`'s statement by its number of ids, compiled once per database (every list of contracts presents their companies). */
const companiesIn = shapedQuery<CompanyRow>();

export async function companiesByIds(db: Executor, tenant: Tenant, ids: Iterable<string | null>): Promise<Map<string, CompanyRow>> {
  const wanted = [...new Set(ids)].filter((id): id is string => id !== null);
  if (wanted.length === 0) return new Map();
  const values: Record<string, unknown> = { pbxId: tenant.pbxId };
  wanted.forEach((id, i) => (values[`id${i}`] = id));
  const rows = await companiesIn(db, wanted.length.toString(), values, (p) =>
    db
      .selectFrom('companies')
      .selectAll()
      .where('pbx_id', '=', p<string>('pbxId'))
      .where(
        'id',
        'in',
        wanted.map((_, i) => p<string>(`id${i}`)),
      ),
  );
  return new Map(rows.map((row) => [row.id, row]));
}

export async function insertCompany(db: Executor, row: Insertable<CompanyTable>): Promise<void> {
  await db.insertInto('companies').values(row).execute();
}

export async function updateCompany(db: Executor, tenant: Tenant, id: string, changes: Updateable<CompanyTable>): Promise<void> {
  await db.updateTable('companies').set(changes).where('id', '=', id).where('pbx_id', '=', tenant.pbxId).execute();
}
