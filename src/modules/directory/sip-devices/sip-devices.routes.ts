import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { AppContext } from '../../../platform/context.js';
import { tenantOfRequest } from '../../../platform/auth/auth-plugin.js';
import { resourceRoutes } from '../../../http/resource-routes.js';
import { targetUser } from '../shared/access.js';
import { UserParams } from '../users/users.schemas.js';
import { sipDevicesOfUsers } from './sip-devices.queries.js';
import { presentSipDevice, SipDevicesService, type SipDeviceRow } from './sip-devices.service.js';
import { CreatedSipDevice, CreateSipDeviceBody, SipDevice, SipDeviceListQuery, SipDeviceParams, UpdateSipDeviceBody } from './sip-devices.schemas.js';

const tags = ['SIP devices'];
const MANAGE = { user: 'admin', pbx: true } as const;
const OWNER = { user: true, pbx: true } as const;

export async function sipDeviceRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }): Promise<void> {
  const service = new SipDevicesService(ctx);
  const devices = resourceRoutes(app, ctx.config.baseUrl, { tags, schema: SipDevice, present: (rows: SipDeviceRow[]) => rows.map(presentSipDevice) });

  devices.list('/sip-devices', {
    auth: MANAGE,
    operationId: 'listSipDevices',
    summary: 'SIP devices of the PBX',
    querystring: SipDeviceListQuery,
    defaultSort: [{ field: 'name', direction: 'asc' }],
    fetch: ({ tenant, query }, { sort, page }) =>
      service.list(
        tenant,
        { search: query.search, userId: query['filter[user_id]'], model: query['filter[model]'], trashed: query['filter[trashed]'] },
        sort,
        page,
      ),
  });
  devices.read('/sip-devices/:sipDevice', {
    auth: OWNER,
    operationId: 'getSipDevice',
    summary: 'One SIP device (its owner, an administrator or the PBX)',
    params: SipDeviceParams,
    load: ({ tenant, principal, params }) => service.getFor(tenant, principal, params.sipDevice),
  });
  devices.update('/sip-devices/:sipDevice', {
    auth: MANAGE,
    operationId: 'updateSipDevice',
    summary: 'Change a SIP device (only supplied fields)',
    params: SipDeviceParams,
    body: UpdateSipDeviceBody,
    run: ({ tenant, params, body }) => service.update(tenant, params.sipDevice, body),
  });
  devices.delete('/sip-devices/:sipDevice', {
    auth: MANAGE,
    operationId: 'deleteSipDevice',
    summary: 'Delete a SIP device (soft; restorable)',
    params: SipDeviceParams,
    run: ({ tenant, params }) => service.delete(tenant, params.sipDevice),
  });
  devices.all('/users/:user/sip-devices', {
    auth: OWNER,
    operationId: 'listUserSipDevices',
    summary: 'SIP devices of one user',
    params: UserParams,
    fetch: async ({ tenant, principal, params }) => sipDevicesOfUsers(ctx.db, tenant, [(await targetUser(ctx.db, tenant, principal, params.user)).id]),
  });
  devices.restore('/sip-devices/:sipDevice/restore', {
    auth: MANAGE,
    operationId: 'restoreSipDevice',
    summary: 'Restore a deleted SIP device',
    params: SipDeviceParams,
    run: ({ tenant, params }) => service.restore(tenant, params.sipDevice),
  });

  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  // The create answer carries the SIP secret, shown this once.
  r.post('/sip-devices', {
    config: { auth: MANAGE, carriesSecret: true },
    schema: {
      tags,
      operationId: 'createSipDevice',
      summary: 'Create a SIP device (its secret is in this answer only)',
      body: CreateSipDeviceBody,
      response: { 201: CreatedSipDevice },
    },
    handler: async (request, reply) => {
      const { row, secret } = await service.create(tenantOfRequest(request), request.body);
      reply.code(201);
      return { data: { ...presentSipDevice(row), secret } };
    },
  });
}
