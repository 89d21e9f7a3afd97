import type { FastifyInstance } from 'fastify';
import { resourceRoutes } from '../../../../http/resource-routes.js';
import type { AppContext } from '../../../../platform/context.js';
import { PbxParams } from '../../shared/index.js';
import { ABSENCE_TYPES_DOCS } from './absence-types.docs.js';
import { presentAbsenceType } from './absence-types.presenter.js';
import { AbsenceTypesService, type AbsenceTypeRow } from './absence-types.service.js';
import { AbsenceType, AbsenceTypeListQuery, AbsenceTypeParams, CreateAbsenceTypeBody, UpdateAbsenceTypeBody } from './absence-types.schemas.js';

const READERS = { user: true, pbx: true } as const;
const MANAGERS = { user: 'admin', pbx: true } as const;

/** The tenant's catalogue of absence types ("Annual leave" as legal), which recurring transactions name. */
export async function absenceTypeRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }): Promise<void> {
  const service = new AbsenceTypesService(ctx);
  const types = resourceRoutes(app, ctx.config.baseUrl, {
    tags: ['Workforce: absences'],
    docs: ABSENCE_TYPES_DOCS,
    schema: AbsenceType,
    present: (rows: AbsenceTypeRow[]) => rows.map(presentAbsenceType),
  });

  types.list('/:pbx_id/absence-types', {
    auth: READERS,
    operationId: 'listAbsenceTypes',
    params: PbxParams,
    querystring: AbsenceTypeListQuery,
    defaultSort: [{ field: 'name', direction: 'asc' }],
    fetch: ({ tenant, principal, query }, { sort, page }) =>
      service.list(tenant, principal, { search: query.search, type: query['filter[type]'], trashed: query['filter[trashed]'] }, sort, page),
  });
  types.read('/:pbx_id/absence-types/:absence_type', {
    auth: READERS,
    operationId: 'getAbsenceType',
    params: AbsenceTypeParams,
    load: ({ tenant, params }) => service.get(tenant, params.absence_type),
  });
  types.create('/:pbx_id/absence-types', {
    auth: MANAGERS,
    operationId: 'createAbsenceType',
    params: PbxParams,
    body: CreateAbsenceTypeBody,
    run: ({ tenant, body }) => service.create(tenant, body),
  });
  types.update('/:pbx_id/absence-types/:absence_type', {
    auth: MANAGERS,
    operationId: 'updateAbsenceType',
    params: AbsenceTypeParams,
    body: UpdateAbsenceTypeBody,
    run: ({ tenant, params, body }) => service.update(tenant, params.absence_type, body),
  });
  types.delete('/:pbx_id/absence-types/:absence_type', {
    auth: MANAGERS,
    operationId: 'deleteAbsenceType',
    params: AbsenceTypeParams,
    run: ({ tenant, params }) => service.remove(tenant, params.absence_type),
  });
  types.restore('/:pbx_id/absence-types/:absence_type/restore', {
    auth: MANAGERS,
    operationId: 'restoreAbsenceType',
    params: AbsenceTypeParams,
    run: ({ tenant, params }) => service.restore(tenant, params.absence_type),
  });
}
