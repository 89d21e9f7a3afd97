import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../../platform/context.js';
import { resourceRoutes } from '../../../http/resource-routes.js';
import { PHONE_NUMBERS_DOCS } from './phone-numbers.docs.js';
import { presentPhoneNumber } from './phone-numbers.presenter.js';
import { PhoneNumbersService, type PhoneNumberRow } from './phone-numbers.service.js';
import { CreatePhoneNumberBody, PhoneNumber, PhoneNumberListQuery, PhoneNumberParams, UpdatePhoneNumberBody } from './phone-numbers.schemas.js';

const READ = { user: true, pbx: true, integration: ['phone-numbers'] } as const;
const MANAGE = { user: 'admin', pbx: true, integration: ['phone-numbers'] } as const;

export async function phoneNumberRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }): Promise<void> {
  const service = new PhoneNumbersService(ctx);
  const numbers = resourceRoutes(app, ctx.config.baseUrl, {
    tags: ['Phone numbers'],
    docs: PHONE_NUMBERS_DOCS,
    schema: PhoneNumber,
    present: (rows: PhoneNumberRow[]) => rows.map(presentPhoneNumber),
  });

  numbers.list('/phone-numbers', {
    auth: READ,
    operationId: 'listPhoneNumbers',
    querystring: PhoneNumberListQuery,
    defaultSort: [{ field: 'number', direction: 'asc' }],
    fetch: ({ tenant, query }, { sort, page }) =>
      service.list(tenant, { search: query.search, destinationType: query['filter[destination_type]'], trashed: query['filter[trashed]'] }, sort, page),
  });
  numbers.create('/phone-numbers', {
    auth: MANAGE,
    operationId: 'createPhoneNumber',
    body: CreatePhoneNumberBody,
    run: ({ tenant, body }) => service.create(tenant, body),
  });
  numbers.read('/phone-numbers/:phoneNumber', {
    auth: READ,
    operationId: 'getPhoneNumber',
    params: PhoneNumberParams,
    load: ({ tenant, params }) => service.get(tenant, params.phoneNumber),
  });
  numbers.update('/phone-numbers/:phoneNumber', {
    auth: MANAGE,
    operationId: 'updatePhoneNumber',
    params: PhoneNumberParams,
    body: UpdatePhoneNumberBody,
    run: ({ tenant, params, body }) => service.update(tenant, params.phoneNumber, body),
  });
  numbers.delete('/phone-numbers/:phoneNumber', {
    auth: MANAGE,
    operationId: 'deletePhoneNumber',
    params: PhoneNumberParams,
    run: ({ tenant, params }) => service.delete(tenant, params.phoneNumber),
  });
  numbers.restore('/phone-numbers/:phoneNumber/restore', {
    auth: MANAGE,
    operationId: 'restorePhoneNumber',
    params: PhoneNumberParams,
    run: ({ tenant, params }) => service.restore(tenant, params.phoneNumber),
  });
}
