import type { FastifyInstance } from 'fastify';
import { resourceRoutes } from '../../../../http/resource-routes.js';
import type { AppContext } from '../../../../platform/context.js';
import { PbxParams } from '../../shared/index.js';
import { AbsenceTypesService, presentAbsenceType, type AbsenceTypeRow } from './absence-types.service.js';
import { AbsenceType, AbsenceTypeListQuery, AbsenceTypeParams, CreateAbsenceTypeBody, UpdateAbsenceTypeBody } from './absence-types.schemas.js';

const READERS = { user: true, pbx: true } as const;
const MANAGERS = { user: 'admin', pbx: true } as const;

/** The tenant's catalogue of absence types ("Annual leave" as legal), which recurring transactions name. */
export async function absenceTypeRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }): Promise<void> {
  const service = new AbsenceTypesService(ctx);
  const types = resourceRoutes(app, ctx.config.baseUrl, {
    tags: ['Workforce: absences'],
    schema: AbsenceType,
    present: (rows: AbsenceTypeRow[]) => rows.map(presentAbsenceType),
  });

  types.list('/:pbx_id/absence-types', {
    auth: READERS,
    operationId: 'listAbsenceTypes',
    summary: 'Absence types of the PBX (any user of the PBX may read them)',
    description:
      'Named kinds of absence, each booked as a ledger type (legal, home_office, illness, special, overtime_balance). ' +
      'search matches the name; filter[type] narrows to one ledger type; sort by name (default) or created_at. ' +
      'filter[trashed]=with|only shows deleted ones to administrators and the PBX key (403 for others).',
    params: PbxParams,
    querystring: AbsenceTypeListQuery,
    defaultSort: [{ field: 'name', direction: 'asc' }],
    fetch: ({ tenant, principal, query }, { sort, page }) =>
      service.list(tenant, principal, { search: query.search, type: query['filter[type]'], trashed: query['filter[trashed]'] }, sort, page),
  });
  types.read('/:pbx_id/absence-types/:absence_type', {
    auth: READERS,
    operationId: 'getAbsenceType',
    summary: 'One absence type',
    description:
      'Any user of the PBX and its PBX key (the path’s pbx_id must be the caller’s PBX, else 403). Another tenant’s or a deleted absence type is 404.',
    params: AbsenceTypeParams,
    load: ({ tenant, params }) => service.get(tenant, params.absence_type),
  });
  types.create('/:pbx_id/absence-types', {
    auth: MANAGERS,
    operationId: 'createAbsenceType',
    summary: 'Create an absence type (administrators, PBX API key)',
    description: 'name: 1-64 characters, unique among the live absence types of the PBX (else 422); type: the ledger type it books as.',
    params: PbxParams,
    body: CreateAbsenceTypeBody,
    run: ({ tenant, body }) => service.create(tenant, body),
  });
  types.update('/:pbx_id/absence-types/:absence_type', {
    auth: MANAGERS,
    operationId: 'updateAbsenceType',
    summary: 'Change an absence type (administrators, PBX API key)',
    description: 'Changes the fields sent (name unique among live types, else 422). Recurring transactions already made keep the type they were made with.',
    params: AbsenceTypeParams,
    body: UpdateAbsenceTypeBody,
    run: ({ tenant, params, body }) => service.update(tenant, params.absence_type, body),
  });
  types.delete('/:pbx_id/absence-types/:absence_type', {
    auth: MANAGERS,
    operationId: 'deleteAbsenceType',
    summary: 'Soft-delete an absence type (administrators, PBX API key)',
    description: 'A deleted type can no longer be named by a new recurring transaction (422) and frees its name; templates that name it keep it. Restorable.',
    params: AbsenceTypeParams,
    run: ({ tenant, params }) => service.remove(tenant, params.absence_type),
  });
  types.restore('/:pbx_id/absence-types/:absence_type/restore', {
    auth: MANAGERS,
    operationId: 'restoreAbsenceType',
    summary: 'Restore a soft-deleted absence type (administrators, PBX API key)',
    description: '422 when a live absence type has taken its name meanwhile; 404 when it is not deleted.',
    params: AbsenceTypeParams,
    run: ({ tenant, params }) => service.restore(tenant, params.absence_type),
  });
}
