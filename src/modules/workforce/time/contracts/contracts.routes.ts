import type { FastifyInstance } from 'fastify';
import { resourceRoutes } from '../../../../http/resource-routes.js';
import type { AppContext } from '../../../../platform/context.js';
import { EmployeeParams } from '../../shared/index.js';
import { CONTRACTS_DOCS } from './contracts.docs.js';
import { ContractsService, type ContractRow } from './contracts.service.js';
import { ContractParams, CreateContractBody, UpdateContractBody, UserCompany, UserCompanyListQuery } from './contracts.schemas.js';

const READERS = { user: true, pbx: true } as const;
const MANAGERS = { user: 'admin', pbx: true } as const;

/** Employee-company contracts: the contract's user companies, and their administration. */
export async function contractRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }): Promise<void> {
  const service = new ContractsService(ctx);
  const contracts = resourceRoutes(app, ctx.config.baseUrl, {
    tags: ['Workforce: contracts'],
    docs: CONTRACTS_DOCS,
    schema: UserCompany,
    present: (rows: ContractRow[], { call }) => service.present(call.tenant, rows),
  });

  contracts.list('/:pbx_id/user/:employee_id/user-companies', {
    auth: READERS,
    operationId: 'listUserCompanies',
    params: EmployeeParams,
    querystring: UserCompanyListQuery,
    defaultSort: [{ field: 'from', direction: 'desc' }],
    fetch: ({ tenant, principal, params, query }, { sort, page }) =>
      service.listForEmployee(
        tenant,
        principal,
        params.employee_id,
        { from: query['filter[from]'], to: query['filter[to]'], active: query['filter[active]'], trashed: query['filter[trashed]'] },
        sort,
        page,
      ),
  });
  contracts.create('/:pbx_id/user/:employee_id/user-companies', {
    auth: MANAGERS,
    operationId: 'createUserCompany',
    params: EmployeeParams,
    body: CreateContractBody,
    run: ({ tenant, params, body }) => service.create(tenant, params.employee_id, body),
  });
  contracts.read('/:pbx_id/user-companies/:contract', {
    auth: MANAGERS,
    operationId: 'getUserCompany',
    params: ContractParams,
    load: ({ tenant, params }) => service.get(tenant, params.contract),
  });
  contracts.update('/:pbx_id/user-companies/:contract', {
    auth: MANAGERS,
    operationId: 'updateUserCompany',
    params: ContractParams,
    body: UpdateContractBody,
    run: ({ tenant, params, body }) => service.update(tenant, params.contract, body),
  });
  contracts.delete('/:pbx_id/user-companies/:contract', {
    auth: MANAGERS,
    operationId: 'deleteUserCompany',
    params: ContractParams,
    run: ({ tenant, params }) => service.remove(tenant, params.contract),
  });
  contracts.restore('/:pbx_id/user-companies/:contract/restore', {
    auth: MANAGERS,
    operationId: 'restoreUserCompany',
    params: ContractParams,
    run: ({ tenant, params }) => service.restore(tenant, params.contract),
  });
}
