import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../../../platform/context.js';
import { resourceRoutes } from '../../../../http/resource-routes.js';
import { EMPLOYEES_DOCS } from './employees.docs.js';
import { presentEmployee } from './employees.presenter.js';
import { CreateEmployeeBody, Employee, EmployeeListQuery, EmployeeParams, EmployeesParams, UpdateEmployeeBody } from './employees.schemas.js';
import { EmployeesService, type EmployeeRow } from './employees.service.js';

const tags = ['Workforce: companies, departments, employees'];
/** Employees (and who is linked to whom) are the administrators' and the PBX API key's to see and manage. */
const ADMIN = { user: 'admin', pbx: true } as const;

export async function employeeRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }): Promise<void> {
  const service = new EmployeesService(ctx);
  const employees = resourceRoutes(app, ctx.config.baseUrl, {
    tags,
    docs: EMPLOYEES_DOCS,
    schema: Employee,
    // The tenant's name order, read once per request: fullName and the default sort follow it.
    scope: ({ tenant }) => service.nameOrder(tenant),
    present: (rows: EmployeeRow[], { call }) => rows.map((row) => presentEmployee(row, call.scope)),
  });

  employees.list('/:pbx_id/employees', {
    auth: ADMIN,
    operationId: 'listEmployees',
    params: EmployeesParams,
    querystring: EmployeeListQuery,
    defaultSort: [{ field: 'name', direction: 'asc' }],
    fetch: ({ tenant, scope, query }, { sort, page }) =>
      service.list(
        tenant,
        scope,
        { search: query.search, userId: query['filter[user_id]'], hasUser: query['filter[has_user]'], trashed: query['filter[trashed]'] },
        sort,
        page,
      ),
  });
  employees.create('/:pbx_id/employees', {
    auth: ADMIN,
    operationId: 'createEmployee',
    params: EmployeesParams,
    body: CreateEmployeeBody,
    run: ({ tenant, scope, body }) => service.create(tenant, scope, body),
  });
  employees.read('/:pbx_id/employees/:employee', {
    auth: ADMIN,
    operationId: 'getEmployee',
    params: EmployeeParams,
    load: ({ tenant, params }) => service.get(tenant, params.employee),
  });
  employees.update('/:pbx_id/employees/:employee', {
    auth: ADMIN,
    operationId: 'updateEmployee',
    params: EmployeeParams,
    body: UpdateEmployeeBody,
    run: ({ tenant, scope, params, body }) => service.update(tenant, scope, params.employee, body),
  });
  employees.delete('/:pbx_id/employees/:employee', {
    auth: ADMIN,
    operationId: 'deleteEmployee',
    params: EmployeeParams,
    run: ({ tenant, params }) => service.remove(tenant, params.employee),
  });
  employees.restore('/:pbx_id/employees/:employee/restore', {
    auth: ADMIN,
    operationId: 'restoreEmployee',
    params: EmployeeParams,
    run: ({ tenant, params }) => service.restore(tenant, params.employee),
  });
}
