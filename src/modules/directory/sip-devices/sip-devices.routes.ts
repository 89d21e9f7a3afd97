import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../../platform/context.js';
import { resourceRoutes } from '../../../http/resource-routes.js';
import { UserParams } from '../users/users.schemas.js';
import { SIP_DEVICES_DOCS } from './sip-devices.docs.js';
import { presentSipDevice } from './sip-devices.presenter.js';
import { SipDevicesService, type SipDeviceRow } from './sip-devices.service.js';
import { CreatedSipDevice, CreateSipDeviceBody, SipDevice, SipDeviceListQuery, SipDeviceParams, UpdateSipDeviceBody } from './sip-devices.schemas.js';

const MANAGE = { user: 'admin', pbx: true } as const;
const OWNER = { user: true, pbx: true } as const;

export async function sipDeviceRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }): Promise<void> {
  const service = new SipDevicesService(ctx);
  const devices = resourceRoutes(app, ctx.config.baseUrl, {
    tags: ['SIP devices'],
    docs: SIP_DEVICES_DOCS,
    schema: SipDevice,
    present: (rows: SipDeviceRow[]) => rows.map(presentSipDevice),
  });

  devices.list('/sip-devices', {
    auth: MANAGE,
    operationId: 'listSipDevices',
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
    params: SipDeviceParams,
    load: ({ tenant, principal, params }) => service.getFor(tenant, principal, params.sipDevice),
  });
  devices.update('/sip-devices/:sipDevice', {
    auth: MANAGE,
    operationId: 'updateSipDevice',
    params: SipDeviceParams,
    body: UpdateSipDeviceBody,
    run: ({ tenant, params, body }) => service.update(tenant, params.sipDevice, body),
  });
  devices.delete('/sip-devices/:sipDevice', {
    auth: MANAGE,
    operationId: 'deleteSipDevice',
    params: SipDeviceParams,
    run: ({ tenant, params }) => service.delete(tenant, params.sipDevice),
  });
  devices.all('/users/:user/sip-devices', {
    auth: OWNER,
    operationId: 'listUserSipDevices',
    params: UserParams,
    fetch: ({ tenant, principal, params }) => service.ofUser(tenant, principal, params.user),
  });
  devices.restore('/sip-devices/:sipDevice/restore', {
    auth: MANAGE,
    operationId: 'restoreSipDevice',
    params: SipDeviceParams,
    run: ({ tenant, params }) => service.restore(tenant, params.sipDevice),
  });

  devices.route('/sip-devices', {
    method: 'POST',
    auth: MANAGE,
    // The answer carries the SIP secret, shown this once.
    config: { carriesSecret: true },
    operationId: 'createSipDevice',
    body: CreateSipDeviceBody,
    response: { 201: CreatedSipDevice },
    handle: async ({ tenant, body, reply }) => {
      const { row, secret } = await service.create(tenant, body);
      reply.code(201);
      return { data: { ...presentSipDevice(row), secret } };
    },
  });
}
