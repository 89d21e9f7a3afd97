import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../../platform/context.js';
import { resourceRoutes } from '../../../http/resource-routes.js';
import { PhoneNumbersService, presentPhoneNumber, type PhoneNumberRow } from './phone-numbers.service.js';
import { CreatePhoneNumberBody, PhoneNumber, PhoneNumberListQuery, PhoneNumberParams, UpdatePhoneNumberBody } from './phone-numbers.schemas.js';

const READ = { user: true, pbx: true, integration: ['phone-numbers'] } as const;
const MANAGE = { user: 'admin', pbx: true, integration: ['phone-numbers'] } as const;

export async function phoneNumberRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }): Promise<void> {
  const service = new PhoneNumbersService(ctx);
  const numbers = resourceRoutes(app, ctx.config.baseUrl, {
    tags: ['Phone numbers'],
    schema: PhoneNumber,
    present: (rows: PhoneNumberRow[]) => rows.map(presentPhoneNumber),
  });

  numbers.list('/phone-numbers', {
    auth: READ,
    operationId: 'listPhoneNumbers',
    summary: 'Phone numbers of the PBX',
    description:
      'Any user of the PBX, its PBX key, or an integration key with the phone-numbers scope. ' +
      '`search` matches number and label; `filter[destination_type]` and `filter[trashed]` narrow the page; sorted by number unless `sort` says otherwise.',
    querystring: PhoneNumberListQuery,
    defaultSort: [{ field: 'number', direction: 'asc' }],
    fetch: ({ tenant, query }, { sort, page }) =>
      service.list(tenant, { search: query.search, destinationType: query['filter[destination_type]'], trashed: query['filter[trashed]'] }, sort, page),
  });
  numbers.create('/phone-numbers', {
    auth: MANAGE,
    operationId: 'createPhoneNumber',
    summary: 'Add a phone number (normalised to E.164)',
    description:
      'Administrators of the PBX, its PBX key, or an integration key with the phone-numbers scope. ' +
      '`number` is read with the PBX country as default region and stored in E.164; a number that cannot be read, or is already taken on the platform (deleted numbers included), is 422. ' +
      '`destination_type` defaults to none; otherwise `destination_id` is required and must be a live user, extension, call flow, IVR or queue of the PBX (422).',
    body: CreatePhoneNumberBody,
    run: ({ tenant, body }) => service.create(tenant, body),
  });
  numbers.read('/phone-numbers/:phoneNumber', {
    auth: READ,
    operationId: 'getPhoneNumber',
    summary: 'One phone number',
    description: 'Any user of the PBX, its PBX key, or an integration key with the phone-numbers scope. A deleted number, or another PBX’s, is 404.',
    params: PhoneNumberParams,
    load: ({ tenant, params }) => service.get(tenant, params.phoneNumber),
  });
  numbers.update('/phone-numbers/:phoneNumber', {
    auth: MANAGE,
    operationId: 'updatePhoneNumber',
    summary: 'Change a phone number or where it routes',
    description:
      'Administrators of the PBX, its PBX key, or an integration key with the phone-numbers scope. ' +
      'Only the fields sent change, with the rules of the creation; changing `destination_type` alone keeps the current `destination_id` (dropped when the type becomes none), which must then fit the new type (422). ' +
      'A deleted number is 404.',
    params: PhoneNumberParams,
    body: UpdatePhoneNumberBody,
    run: ({ tenant, params, body }) => service.update(tenant, params.phoneNumber, body),
  });
  numbers.delete('/phone-numbers/:phoneNumber', {
    auth: MANAGE,
    operationId: 'deletePhoneNumber',
    summary: 'Delete a phone number (soft; restorable)',
    description:
      'Administrators of the PBX, its PBX key, or an integration key with the phone-numbers scope. ' +
      'Soft delete: the number leaves lists and reads (404); it stays reserved on the platform and comes back with POST /phone-numbers/{phoneNumber}/restore.',
    params: PhoneNumberParams,
    run: ({ tenant, params }) => service.delete(tenant, params.phoneNumber),
  });
  numbers.restore('/phone-numbers/:phoneNumber/restore', {
    auth: MANAGE,
    operationId: 'restorePhoneNumber',
    summary: 'Restore a deleted phone number',
    description:
      'Administrators of the PBX, its PBX key, or an integration key with the phone-numbers scope. ' +
      'Clears deleted_at and answers the number with its former destination (not checked again); one that is not deleted, or another PBX’s, is 404.',
    params: PhoneNumberParams,
    run: ({ tenant, params }) => service.restore(tenant, params.phoneNumber),
  });
}
