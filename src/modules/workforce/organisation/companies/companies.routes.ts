import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../../../platform/context.js';
import { resourceRoutes } from '../../../../http/resource-routes.js';
import { Company, presentCompany, type CompanyRow } from './company-view.js';
import { CompaniesParams, CompanyListQuery, CompanyParams, CreateCompanyBody, UpdateCompanyBody } from './companies.schemas.js';
import { CompaniesService } from './companies.service.js';

const tags = ['Workforce: companies, departments, employees'];
/** Every user of the PBX picks companies in the apps; administrators and the PBX API key manage them. */
const READ = { user: true, pbx: true } as const;
const MANAGE = { user: 'admin', pbx: true } as const;

export async function companyRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }): Promise<void> {
  const service = new CompaniesService(ctx);
  const companies = resourceRoutes(app, ctx.config.baseUrl, {
    tags,
    schema: Company,
    present: (rows: CompanyRow[]) => rows.map(presentCompany),
  });

  companies.list('/:pbx_id/companies', {
    auth: READ,
    operationId: 'listCompanies',
    summary: 'Companies of the PBX (legal employers)',
    description:
      'Any user of the PBX and its PBX API key. `search` matches the name or the city; `filter[country_cc]`; `filter[trashed]` (without, with, only) shows soft-deleted ones with their `delete_date`. Sorted by name unless `sort` says otherwise.',
    params: CompaniesParams,
    querystring: CompanyListQuery,
    defaultSort: [{ field: 'company', direction: 'asc' }],
    fetch: ({ tenant, query }, { sort, page }) =>
      service.list(tenant, { search: query.search, countryCc: query['filter[country_cc]'], trashed: query['filter[trashed]'] }, sort, page),
  });
  companies.create('/:pbx_id/companies', {
    auth: MANAGE,
    operationId: 'createCompany',
    summary: 'Create a company',
    description:
      'Administrators and the PBX API key. `country_cc` (and `region`, when given) must be a country (region) whose public holidays are known, or 422. `full_time` is the seconds of a full-time week (default 144000 = 40 h); `legalHolidays` the paid-leave days per year (default 26). Names need not be unique.',
    params: CompaniesParams,
    body: CreateCompanyBody,
    run: ({ tenant, body }) => service.create(tenant, body),
  });
  companies.read('/:pbx_id/companies/:company', {
    auth: READ,
    operationId: 'getCompany',
    summary: 'One company',
    description: "Any user of the PBX and its PBX API key. A soft-deleted company, or another tenant's, is 404 (list it with filter[trashed]).",
    params: CompanyParams,
    load: ({ tenant, params }) => service.get(tenant, params.company),
  });
  companies.update('/:pbx_id/companies/:company', {
    auth: MANAGE,
    operationId: 'updateCompany',
    summary: 'Change a company (only the fields sent)',
    description:
      'Administrators and the PBX API key. A new `country_cc` without `region` re-checks the kept region against the new country (422 on `region` when it is not one of its regions).',
    params: CompanyParams,
    body: UpdateCompanyBody,
    run: ({ tenant, params, body }) => service.update(tenant, params.company, body),
  });
  companies.delete('/:pbx_id/companies/:company', {
    auth: MANAGE,
    operationId: 'deleteCompany',
    summary: 'Soft-delete a company (restorable)',
    description:
      'Administrators and the PBX API key. Departments and contracts naming it keep it; its `delete_date` shows there. No new department may name it until it is restored.',
    params: CompanyParams,
    run: ({ tenant, params }) => service.remove(tenant, params.company),
  });
  companies.restore('/:pbx_id/companies/:company/restore', {
    auth: MANAGE,
    operationId: 'restoreCompany',
    summary: 'Restore a soft-deleted company',
    description: 'Administrators and the PBX API key; 404 unless the company is soft-deleted.',
    params: CompanyParams,
    run: ({ tenant, params }) => service.restore(tenant, params.company),
  });
}
