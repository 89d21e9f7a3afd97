import type { FastifyInstance } from 'fastify';
import { Type } from '@sinclair/typebox';
import type { AppContext } from '../../../platform/context.js';
import { pageRequest, parseSort } from '../../../http/list-query.js';
import { operationRoutes } from '../../../http/resource-routes.js';
import { PUSH_DEVICES_DOCS } from './push-devices.docs.js';
import { presentPushDevice } from './push-devices.presenter.js';
import { PushDevicesService } from './push-devices.service.js';
import {
  DeviceListQuery,
  DeviceListResponse,
  DeviceParams,
  DeviceReadResponse,
  DeviceResponse,
  PushDevice,
  RegisterDeviceBody,
} from './push-devices.schemas.js';

/** A user's own app installations: user tokens only. */
const AUTH = { user: true } as const;

/** The contract answers these with `{message, device(s)}`, not the usual `{data}` envelope. */
export async function pushDeviceRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }): Promise<void> {
  const service = new PushDevicesService(ctx);
  app.addSchema(PushDevice);
  const { route } = operationRoutes(app, { tags: ['Push devices'], docs: PUSH_DEVICES_DOCS });

  route('/user/devices', {
    method: 'GET',
    auth: AUTH,
    operationId: 'listDevices',
    querystring: DeviceListQuery,
    response: { 200: DeviceListResponse },
    handle: async ({ tenant, user, query }) => {
      const page = pageRequest(DeviceListQuery, query);
      const { rows, total } = await service.list(
        tenant,
        user.userId,
        { type: query.type, active: query.active, search: query.search },
        parseSort(query.sort, [{ field: 'created_at', direction: 'desc' }]),
        page,
      );
      return { message: 'Devices retrieved successfully.', devices: rows.map(presentPushDevice), total };
    },
  });

  route('/user/devices', {
    method: 'POST',
    auth: AUTH,
    operationId: 'registerDevice',
    body: RegisterDeviceBody,
    response: { 201: DeviceResponse },
    handle: async ({ tenant, user, body, reply }) => {
      const row = await service.register(tenant, user.userId, body);
      reply.code(201);
      return { message: 'Device registered successfully.', device: presentPushDevice(row) };
    },
  });

  route('/user/devices/:device', {
    method: 'GET',
    auth: AUTH,
    operationId: 'getDevice',
    params: DeviceParams,
    response: { 200: DeviceReadResponse },
    handle: async ({ tenant, user, params }) => ({
      message: 'Device retrieved successfully.',
      device: presentPushDevice(await service.get(tenant, user.userId, params.device)),
    }),
  });

  route('/user/devices/:device/deactivate', {
    method: 'POST',
    auth: AUTH,
    operationId: 'deactivateDevice',
    params: DeviceParams,
    response: { 200: DeviceResponse },
    handle: async ({ tenant, user, params }) => ({
      message: 'Device deactivated successfully.',
      device: presentPushDevice(await service.deactivate(tenant, user.userId, params.device)),
    }),
  });

  route('/user/devices/:device', {
    method: 'DELETE',
    auth: AUTH,
    operationId: 'deleteDevice',
    params: DeviceParams,
    response: { 204: Type.Null() },
    handle: async ({ tenant, user, params, reply }) => {
      await service.delete(tenant, user.userId, params.device);
      return reply.code(204).send(null);
    },
  });
}
