import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../../../platform/context.js';
import { resourceRoutes } from '../../../../http/resource-routes.js';
import type { EmployeeRow } from './employees.queries.js';
import { CreateEmployeeBody, Employee, EmployeeListQuery, EmployeeParams, EmployeesParams, UpdateEmployeeBody } from './employees.schemas.js';
import { EmployeesService, presentEmployee } from './employees.service.js';

const tags = ['Workforce: companies, departments, employees'];
/** Employees (and who is linked to whom) are the administrators' and the PBX API key's to see and manage. */
const ADMIN = { user: 'admin', pbx: true } as const;

export async function employeeRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }): Promise<void> {
  const service = new EmployeesService(ctx);
  const employees = resourceRoutes(app, ctx.config.baseUrl, {
    tags,
    schema: Employee,
    // The tenant's name order, read once per request: fullName and the default sort follow it.
    scope: ({ tenant }) => service.nameOrder(tenant),
    present: (rows: EmployeeRow[], { call }) => rows.map((row) => presentEmployee(row, call.scope)),
  });

  employees.list('/:pbx_id/employees', {
    auth: ADMIN,
    operationId: 'listEmployees',
    summary: 'Employees of the PBX',
    description:
      'Administrators and the PBX API key. Sorted by name in the PBX\u2019s name order (`sort=name`) unless `sort` says otherwise. `search`: every word must match the first name, the last name or the ext_id. `filter[user_id]`: the employee linked to that user; `filter[has_user]`; `filter[trashed]` (without, with, only).',
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
    summary: 'Create an employee, optionally linked to a user',
    description:
      'Administrators and the PBX API key. `ext_id` is unique within the PBX, soft-deleted employees included (422). `user_id` links a user: an active or disabled user of the PBX not linked to another employee (422 naming that employee otherwise); the user\u2019s `employee_id` and `/me` show the link.',
    params: EmployeesParams,
    body: CreateEmployeeBody,
    run: ({ tenant, scope, body }) => service.create(tenant, scope, body),
  });
  employees.read('/:pbx_id/employees/:employee', {
    auth: ADMIN,
    operationId: 'getEmployee',
    summary: 'One employee',
    description: "Administrators and the PBX API key. A soft-deleted employee, or another tenant's, is 404.",
    params: EmployeeParams,
    load: ({ tenant, params }) => service.get(tenant, params.employee),
  });
  employees.update('/:pbx_id/employees/:employee', {
    auth: ADMIN,
    operationId: 'updateEmployee',
    summary: 'Change an employee or its user link (only the fields sent)',
    description:
      'Administrators and the PBX API key. This is the one way to set a user\u2019s `employee_id`: `user_id` links a user (same rules as on create; the previously linked user is unlinked), null unlinks.',
    params: EmployeeParams,
    body: UpdateEmployeeBody,
    run: ({ tenant, scope, params, body }) => service.update(tenant, scope, params.employee, body),
  });
  employees.delete('/:pbx_id/employees/:employee', {
    auth: ADMIN,
    operationId: 'deleteEmployee',
    summary: 'Soft-delete an employee (restorable); unlinks its user',
    description:
      'Administrators and the PBX API key. The linked user is unlinked in the same transaction, so its `employee_id` and `/me` show null and it may be linked to another employee. The ext_id stays taken until the employee is restored.',
    params: EmployeeParams,
    run: ({ tenant, params }) => service.remove(tenant, params.employee),
  });
  employees.restore('/:pbx_id/employees/:employee/restore', {
    auth: ADMIN,
    operationId: 'restoreEmployee',
    summary: 'Restore a soft-deleted employee (without a user)',
    description: 'Administrators and the PBX API key; 404 unless the employee is soft-deleted. It comes back unlinked: link a user again with PATCH `user_id`.',
    params: EmployeeParams,
    run: ({ tenant, params }) => service.restore(tenant, params.employee),
  });
}
