import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../../../platform/context.js';
import { resourceRoutes } from '../../../../http/resource-routes.js';
import { COMPANIES_DOCS } from './companies.docs.js';
import { presentCompany } from './companies.presenter.js';
import { CompaniesParams, Company, CompanyListQuery, CompanyParams, CreateCompanyBody, UpdateCompanyBody } from './companies.schemas.js';
import { CompaniesService, type CompanyRow } from './companies.service.js';

const tags = ['Workforce: companies, departments, employees'];
/** Every user of the PBX picks companies in the apps; administrators and the PBX API key manage them. */
const READ = { user: true, pbx: true } as const;
const MANAGE = { user: 'admin', pbx: true } as const;

export async function companyRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }): Promise<void> {
  const service = new CompaniesService(ctx);
  const companies = resourceRoutes(app, ctx.config.baseUrl, {
    tags,
    docs: COMPANIES_DOCS,
    schema: Company,
    present: (rows: CompanyRow[]) => rows.map(presentCompany),
  });

  companies.list('/:pbx_id/companies', {
    auth: READ,
    operationId: 'listCompanies',
    params: CompaniesParams,
    querystring: CompanyListQuery,
    defaultSort: [{ field: 'company', direction: 'asc' }],
    fetch: ({ tenant, query }, { sort, page }) =>
      service.list(tenant, { search: query.search, countryCc: query['filter[country_cc]'], trashed: query['filter[trashed]'] }, sort, page),
  });
  companies.create('/:pbx_id/companies', {
    auth: MANAGE,
    operationId: 'createCompany',
    params: CompaniesParams,
    body: CreateCompanyBody,
    run: ({ tenant, body }) => service.create(tenant, body),
  });
  companies.read('/:pbx_id/companies/:company', {
    auth: READ,
    operationId: 'getCompany',
    params: CompanyParams,
    load: ({ tenant, params }) => service.get(tenant, params.company),
  });
  companies.update('/:pbx_id/companies/:company', {
    auth: MANAGE,
    operationId: 'updateCompany',
    params: CompanyParams,
    body: UpdateCompanyBody,
    run: ({ tenant, params, body }) => service.update(tenant, params.company, body),
  });
  companies.delete('/:pbx_id/companies/:company', {
    auth: MANAGE,
    operationId: 'deleteCompany',
    params: CompanyParams,
    run: ({ tenant, params }) => service.remove(tenant, params.company),
  });
  companies.restore('/:pbx_id/companies/:company/restore', {
    auth: MANAGE,
    operationId: 'restoreCompany',
    params: CompanyParams,
    run: ({ tenant, params }) => service.restore(tenant, params.company),
  });
}
