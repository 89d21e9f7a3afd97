import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { AppContext } from '../../../platform/context.js';
import { tenantOfRequest } from '../../../platform/auth/auth-plugin.js';
import { pageRequest, parseSort } from '../../../http/list-query.js';
import { Paginated, paginate } from '../../../http/pagination.js';
import { DataEnvelope } from '../../../http/schema.js';
import type { TrashedFilter } from '../../../http/soft-delete.js';
import { PhoneNumbersService, presentPhoneNumber } from './phone-numbers.service.js';
import { CreatePhoneNumberBody, PhoneNumber, PhoneNumberListQuery, PhoneNumberParams, UpdatePhoneNumberBody } from './phone-numbers.schemas.js';

const tags = ['Phone numbers'];
const READ = { auth: { user: true, pbx: true, integration: ['phone-numbers'] } } as const;
const MANAGE = { auth: { user: 'admin', pbx: true, integration: ['phone-numbers'] } } as const;

export async function phoneNumberRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }): Promise<void> {
  const service = new PhoneNumbersService(ctx);
  app.addSchema(PhoneNumber);
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const one = DataEnvelope(Type.Ref(PhoneNumber));

  r.get('/phone-numbers', {
    config: READ,
    schema: { tags, operationId: 'listPhoneNumbers', summary: 'Phone numbers of the PBX', querystring: PhoneNumberListQuery, response: { 200: Paginated(Type.Ref(PhoneNumber)) } },
    handler: async (request) => {
      const query = request.query as { search?: string; sort?: string; page?: number; perPage?: number; 'filter[destination_type]'?: string; 'filter[trashed]'?: TrashedFilter };
      const page = pageRequest(query);
      const filters = { search: query.search, destinationType: query['filter[destination_type]'], trashed: query['filter[trashed]'] };
      const { rows, total } = await service.list(tenantOfRequest(request), filters, parseSort(query.sort, [{ field: 'number', direction: 'asc' }]), page);
      return paginate(rows.map(presentPhoneNumber), total, page, `${ctx.config.baseUrl}/phone-numbers`, query);
    },
  });

  r.post('/phone-numbers', {
    config: MANAGE,
    schema: { tags, operationId: 'createPhoneNumber', summary: 'Add a phone number (normalised to E.164)', body: CreatePhoneNumberBody, response: { 201: one } },
    handler: async (request, reply) => {
      const row = await service.create(tenantOfRequest(request), request.body);
      reply.code(201);
      return { data: presentPhoneNumber(row) };
    },
  });

  r.get('/phone-numbers/:phoneNumber', {
    config: READ,
    schema: { tags, operationId: 'getPhoneNumber', summary: 'One phone number', params: PhoneNumberParams, response: { 200: one } },
    handler: async (request) => ({ data: presentPhoneNumber(await service.get(tenantOfRequest(request), request.params.phoneNumber)) }),
  });

  r.patch('/phone-numbers/:phoneNumber', {
    config: MANAGE,
    schema: { tags, operationId: 'updatePhoneNumber', summary: 'Change a phone number or where it routes', params: PhoneNumberParams, body: UpdatePhoneNumberBody, response: { 200: one } },
    handler: async (request) => ({ data: presentPhoneNumber(await service.update(tenantOfRequest(request), request.params.phoneNumber, request.body)) }),
  });

  r.delete('/phone-numbers/:phoneNumber', {
    config: MANAGE,
    schema: { tags, operationId: 'deletePhoneNumber', summary: 'Delete a phone number (soft; restorable)', params: PhoneNumberParams, response: { 204: Type.Null() } },
    handler: async (request, reply) => {
      await service.delete(tenantOfRequest(request), request.params.phoneNumber);
      return reply.code(204).send(null);
    },
  });

  r.post('/phone-numbers/:phoneNumber/restore', {
    config: MANAGE,
    schema: { tags, operationId: 'restorePhoneNumber', summary: 'Restore a deleted phone number', params: PhoneNumberParams, response: { 200: one } },
    handler: async (request) => ({ data: presentPhoneNumber(await service.restore(tenantOfRequest(request), request.params.phoneNumber)) }),
  });
}
