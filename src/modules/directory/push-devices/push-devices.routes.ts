import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { AppContext } from '../../../platform/context.js';
import { userPrincipalOf } from '../../../platform/auth/auth-plugin.js';
import { tenantOf } from '../../../platform/tenancy.js';
import { pageRequest, parseSort } from '../../../http/list-query.js';
import { PushDevicesService, presentPushDevice } from './push-devices.service.js';
import { DeviceListQuery, DeviceListResponse, DeviceParams, DeviceResponse, PushDevice, RegisterDeviceBody } from './push-devices.schemas.js';

const tags = ['Push devices'];
const AUTH = { auth: { user: true } } as const;

export async function pushDeviceRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }): Promise<void> {
  const service = new PushDevicesService(ctx);
  app.addSchema(PushDevice);
  const r = app.withTypeProvider<TypeBoxTypeProvider>();

  r.get('/user/devices', {
    config: AUTH,
    schema: {
      tags,
      operationId: 'listDevices',
      summary: 'The caller\u2019s push devices (filters type, active)',
      description:
        'User tokens only (403 for API keys); only the calling user\u2019s own devices. Answers `{message, devices, total}`, not the usual paginated envelope: `page` and the page size pick the slice, `total` counts all matches. ' +
        '`type` and `active` filter, `search` matches the name; newest first unless `sort` says otherwise (created_at, last_used_at, name).',
      querystring: DeviceListQuery,
      response: { 200: DeviceListResponse },
    },
    handler: async (request) => {
      const principal = userPrincipalOf(request);
      const query = request.query;
      const page = pageRequest(DeviceListQuery, query);
      const { rows, total } = await service.list(
        tenantOf(principal),
        principal.userId,
        { type: query.type, active: query.active, search: query.search },
        parseSort(query.sort, [{ field: 'created_at', direction: 'desc' }]),
        page,
      );
      return { message: 'Devices retrieved successfully.', devices: rows.map(presentPushDevice), total };
    },
  });

  r.post('/user/devices', {
    config: AUTH,
    schema: {
      tags,
      operationId: 'registerDevice',
      summary: 'Register (or refresh) a push device of the caller',
      description:
        'User tokens only. A push token is one device on the platform: registering a token already known updates that device (type, name, twinning), makes it the caller\u2019s and active again, instead of adding one. ' +
        '`twinning_id` must be a twinning of the caller (422). Answers 201 `{message, device}`.',
      body: RegisterDeviceBody,
      response: { 201: DeviceResponse },
    },
    handler: async (request, reply) => {
      const principal = userPrincipalOf(request);
      const row = await service.register(tenantOf(principal), principal.userId, request.body);
      reply.code(201);
      return { message: 'Device registered successfully.', device: presentPushDevice(row) };
    },
  });

  r.post('/user/devices/:device/deactivate', {
    config: AUTH,
    schema: {
      tags,
      operationId: 'deactivateDevice',
      summary: 'Stop pushing to a device',
      description:
        'User tokens only; only the caller\u2019s own devices (another user\u2019s is 404). Sets `is_active` false and answers `{message, device}`; registering the token again activates it.',
      params: DeviceParams,
      response: { 200: DeviceResponse },
    },
    handler: async (request) => {
      const principal = userPrincipalOf(request);
      return {
        message: 'Device deactivated successfully.',
        device: presentPushDevice(await service.deactivate(tenantOf(principal), principal.userId, request.params.device)),
      };
    },
  });

  r.delete('/user/devices/:device', {
    config: AUTH,
    schema: {
      tags,
      operationId: 'deleteDevice',
      summary: 'Remove a push device',
      description: 'User tokens only; only the caller\u2019s own devices (another user\u2019s is 404). The device is removed for good (no restore).',
      params: DeviceParams,
      response: { 204: Type.Null() },
    },
    handler: async (request, reply) => {
      const principal = userPrincipalOf(request);
      await service.delete(tenantOf(principal), principal.userId, request.params.device);
      return reply.code(204).send(null);
    },
  });
}
