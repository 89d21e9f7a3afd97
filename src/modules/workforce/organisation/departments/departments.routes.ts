import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../../../platform/context.js';
import { resourceRoutes } from '../../../../http/resource-routes.js';
import { DEPARTMENTS_DOCS } from './departments.docs.js';
import {
  CreateDepartmentBody,
  Department,
  DepartmentInclude,
  DepartmentListQuery,
  DepartmentParams,
  DepartmentsParams,
  UpdateDepartmentBody,
} from './departments.schemas.js';
import { DepartmentsService, type DepartmentRow } from './departments.service.js';

const tags = ['Workforce: companies, departments, employees'];
/** Every user of the PBX picks departments in the apps; administrators and the PBX API key manage them. */
const READ = { user: true, pbx: true } as const;
const MANAGE = { user: 'admin', pbx: true } as const;

export async function departmentRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }): Promise<void> {
  const service = new DepartmentsService(ctx);
  const departments = resourceRoutes(app, ctx.config.baseUrl, {
    tags,
    docs: DEPARTMENTS_DOCS,
    schema: Department,
    present: (rows: DepartmentRow[], { call, include }) => service.present(call.tenant, rows, include.has('company')),
  });

  departments.list('/:pbx_id/departments', {
    auth: READ,
    operationId: 'listDepartments',
    params: DepartmentsParams,
    querystring: DepartmentListQuery,
    defaultSort: [{ field: 'name', direction: 'asc' }],
    fetch: ({ tenant, query }, { sort, page }) =>
      service.list(tenant, { search: query.search, companyId: query['filter[company_id]'], trashed: query['filter[trashed]'] }, sort, page),
  });
  departments.create('/:pbx_id/departments', {
    auth: MANAGE,
    operationId: 'createDepartment',
    params: DepartmentsParams,
    body: CreateDepartmentBody,
    include: ['company'],
    run: ({ tenant, body }) => service.create(tenant, body),
  });
  departments.read('/:pbx_id/departments/:department', {
    auth: READ,
    operationId: 'getDepartment',
    params: DepartmentParams,
    querystring: DepartmentInclude,
    load: ({ tenant, params }) => service.get(tenant, params.department),
  });
  departments.update('/:pbx_id/departments/:department', {
    auth: MANAGE,
    operationId: 'updateDepartment',
    params: DepartmentParams,
    body: UpdateDepartmentBody,
    include: ['company'],
    run: ({ tenant, params, body }) => service.update(tenant, params.department, body),
  });
  departments.delete('/:pbx_id/departments/:department', {
    auth: MANAGE,
    operationId: 'deleteDepartment',
    params: DepartmentParams,
    run: ({ tenant, params }) => service.remove(tenant, params.department),
  });
  departments.restore('/:pbx_id/departments/:department/restore', {
    auth: MANAGE,
    operationId: 'restoreDepartment',
    params: DepartmentParams,
    include: ['company'],
    run: ({ tenant, params }) => service.restore(tenant, params.department),
  });
}
