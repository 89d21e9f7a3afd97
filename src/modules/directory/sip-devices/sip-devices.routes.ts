import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { AppContext } from '../../../platform/context.js';
import { principalOf, tenantOfRequest } from '../../../platform/auth/auth-plugin.js';
import { pageRequest, parseSort } from '../../../http/list-query.js';
import { Paginated, paginate } from '../../../http/pagination.js';
import { DataEnvelope } from '../../../http/schema.js';
import type { TrashedFilter } from '../../../http/soft-delete.js';
import { targetUser } from '../shared/access.js';
import { UserParams } from '../users/users.schemas.js';
import { sipDevicesOfUsers } from './sip-devices.queries.js';
import { presentSipDevice, SipDevicesService } from './sip-devices.service.js';
import { CreatedSipDevice, CreateSipDeviceBody, SipDevice, SipDeviceListQuery, SipDeviceParams, UpdateSipDeviceBody } from './sip-devices.schemas.js';

const tags = ['SIP devices'];
const MANAGE = { auth: { user: 'admin', pbx: true } } as const;

export async function sipDeviceRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }): Promise<void> {
  const service = new SipDevicesService(ctx);
  app.addSchema(SipDevice);
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const one = DataEnvelope(Type.Ref(SipDevice));

  r.get('/sip-devices', {
    config: MANAGE,
    schema: { tags, operationId: 'listSipDevices', summary: 'SIP devices of the PBX', querystring: SipDeviceListQuery, response: { 200: Paginated(Type.Ref(SipDevice)) } },
    handler: async (request) => {
      const query = request.query as { search?: string; sort?: string; page?: number; perPage?: number; 'filter[user_id]'?: string; 'filter[model]'?: string; 'filter[trashed]'?: TrashedFilter };
      const page = pageRequest(query);
      const filters = { search: query.search, userId: query['filter[user_id]'], model: query['filter[model]'], trashed: query['filter[trashed]'] };
      const { rows, total } = await service.list(tenantOfRequest(request), filters, parseSort(query.sort, [{ field: 'name', direction: 'asc' }]), page);
      return paginate(rows.map(presentSipDevice), total, page, `${ctx.config.baseUrl}/sip-devices`, query);
    },
  });

  r.post('/sip-devices', {
    config: MANAGE,
    schema: { tags, operationId: 'createSipDevice', summary: 'Create a SIP device (its secret is in this answer only)', body: CreateSipDeviceBody, response: { 201: CreatedSipDevice } },
    handler: async (request, reply) => {
      const { row, secret } = await service.create(tenantOfRequest(request), request.body);
      reply.code(201).header('cache-control', 'no-store');
      return { data: { ...presentSipDevice(row), secret } };
    },
  });

  r.get('/sip-devices/:sipDevice', {
    config: { auth: { user: true, pbx: true } },
    schema: { tags, operationId: 'getSipDevice', summary: 'One SIP device (its owner, an administrator or the PBX)', params: SipDeviceParams, response: { 200: one } },
    handler: async (request) => ({ data: presentSipDevice(await service.getFor(tenantOfRequest(request), principalOf(request), request.params.sipDevice)) }),
  });

  r.patch('/sip-devices/:sipDevice', {
    config: MANAGE,
    schema: { tags, operationId: 'updateSipDevice', summary: 'Change a SIP device (only supplied fields)', params: SipDeviceParams, body: UpdateSipDeviceBody, response: { 200: one } },
    handler: async (request) => ({ data: presentSipDevice(await service.update(tenantOfRequest(request), request.params.sipDevice, request.body)) }),
  });

  r.delete('/sip-devices/:sipDevice', {
    config: MANAGE,
    schema: { tags, operationId: 'deleteSipDevice', summary: 'Delete a SIP device (soft; restorable)', params: SipDeviceParams, response: { 204: Type.Null() } },
    handler: async (request, reply) => {
      await service.delete(tenantOfRequest(request), request.params.sipDevice);
      return reply.code(204).send(null);
    },
  });

  r.post('/sip-devices/:sipDevice/restore', {
    config: MANAGE,
    schema: { tags, operationId: 'restoreSipDevice', summary: 'Restore a deleted SIP device', params: SipDeviceParams, response: { 200: one } },
    handler: async (request) => ({ data: presentSipDevice(await service.restore(tenantOfRequest(request), request.params.sipDevice)) }),
  });

  r.get('/users/:user/sip-devices', {
    config: { auth: { user: true, pbx: true } },
    schema: { tags, operationId: 'listUserSipDevices', summary: 'SIP devices of one user', params: UserParams, response: { 200: DataEnvelope(Type.Array(Type.Ref(SipDevice))) } },
    handler: async (request) => {
      const tenant = tenantOfRequest(request);
      const user = await targetUser(ctx.db, tenant, principalOf(request), request.params.user);
      return { data: (await sipDevicesOfUsers(ctx.db, tenant, [user.id])).map(presentSipDevice) };
    },
  });
}
