import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../../../platform/context.js';
import { resourceRoutes } from '../../../../http/resource-routes.js';
import type { DepartmentRow } from './departments.queries.js';
import {
  CreateDepartmentBody,
  Department,
  DepartmentInclude,
  DepartmentListQuery,
  DepartmentParams,
  DepartmentsParams,
  UpdateDepartmentBody,
} from './departments.schemas.js';
import { DepartmentsService } from './departments.service.js';

const tags = ['Workforce: companies, departments, employees'];
/** Every user of the PBX picks departments in the apps; administrators and the PBX API key manage them. */
const READ = { user: true, pbx: true } as const;
const MANAGE = { user: 'admin', pbx: true } as const;

export async function departmentRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }): Promise<void> {
  const service = new DepartmentsService(ctx);
  const departments = resourceRoutes(app, ctx.config.baseUrl, {
    tags,
    schema: Department,
    present: (rows: DepartmentRow[], { call, include }) => service.present(call.tenant, rows, include.has('company')),
  });

  departments.list('/:pbx_id/departments', {
    auth: READ,
    operationId: 'listDepartments',
    summary: 'Departments of the PBX',
    description:
      'Any user of the PBX and its PBX API key. `search` matches the name; `filter[company_id]`; `filter[trashed]` (without, with, only); `include=company` embeds the company. Each department shows its `validator_ids`. Sorted by name unless `sort` says otherwise.',
    params: DepartmentsParams,
    querystring: DepartmentListQuery,
    defaultSort: [{ field: 'name', direction: 'asc' }],
    fetch: ({ tenant, query }, { sort, page }) =>
      service.list(tenant, { search: query.search, companyId: query['filter[company_id]'], trashed: query['filter[trashed]'] }, sort, page),
  });
  departments.create('/:pbx_id/departments', {
    auth: MANAGE,
    operationId: 'createDepartment',
    summary: 'Create a department',
    description:
      'Administrators and the PBX API key. `company_id` must be a live company of the PBX (or null): anything else, another tenant\u2019s company included, is 422. `validator_ids` (optional, default none): the employees who decide the requests of the department\u2019s employees, in order; each a live employee of the PBX, listed once (422 on `validator_ids.<index>` otherwise), at most 10. The answer embeds the company.',
    params: DepartmentsParams,
    body: CreateDepartmentBody,
    include: ['company'],
    run: ({ tenant, body }) => service.create(tenant, body),
  });
  departments.read('/:pbx_id/departments/:department', {
    auth: READ,
    operationId: 'getDepartment',
    summary: 'One department',
    description: "Any user of the PBX and its PBX API key; `include=company`. A soft-deleted department, or another tenant's, is 404.",
    params: DepartmentParams,
    querystring: DepartmentInclude,
    load: ({ tenant, params }) => service.get(tenant, params.department),
  });
  departments.update('/:pbx_id/departments/:department', {
    auth: MANAGE,
    operationId: 'updateDepartment',
    summary: 'Rename a department, move it to another company or set its validators (only the fields sent)',
    description:
      'Administrators and the PBX API key. A new `company_id` must be a live company of the PBX (422 otherwise); null detaches it. `validator_ids`, when sent, replaces the whole list in the order given ([] clears it); each must be a live employee of the PBX, listed once (422 on `validator_ids.<index>` otherwise). The answer embeds the company.',
    params: DepartmentParams,
    body: UpdateDepartmentBody,
    include: ['company'],
    run: ({ tenant, params, body }) => service.update(tenant, params.department, body),
  });
  departments.delete('/:pbx_id/departments/:department', {
    auth: MANAGE,
    operationId: 'deleteDepartment',
    summary: 'Soft-delete a department (restorable)',
    description: 'Administrators and the PBX API key. Contracts naming it keep their department_id.',
    params: DepartmentParams,
    run: ({ tenant, params }) => service.remove(tenant, params.department),
  });
  departments.restore('/:pbx_id/departments/:department/restore', {
    auth: MANAGE,
    operationId: 'restoreDepartment',
    summary: 'Restore a soft-deleted department',
    description: 'Administrators and the PBX API key; 404 unless the department is soft-deleted.',
    params: DepartmentParams,
    include: ['company'],
    run: ({ tenant, params }) => service.restore(tenant, params.department),
  });
}
