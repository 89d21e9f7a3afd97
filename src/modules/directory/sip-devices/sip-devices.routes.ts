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
    description:
      'Administrators of the PBX and its PBX key. ' +
      '`search` matches name, username and MAC address; `filter[user_id]`, `filter[model]` and `filter[trashed]` narrow the page; sorted by name unless `sort` says otherwise. ' +
      'The SIP secret is never listed.',
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
    description:
      'A user reads only a device assigned to it (403 otherwise); administrators and the PBX key read every device of the PBX. ' +
      'A deleted device, or another PBX’s, is 404. The SIP secret is never shown here.',
    params: SipDeviceParams,
    load: ({ tenant, principal, params }) => service.getFor(tenant, principal, params.sipDevice),
  });
  devices.update('/sip-devices/:sipDevice', {
    auth: MANAGE,
    operationId: 'updateSipDevice',
    summary: 'Change a SIP device (only supplied fields)',
    description:
      'Administrators of the PBX and its PBX key. The fields of the creation, all optional; a new `secret` replaces the stored one but is not echoed. ' +
      'A username or MAC address taken on the platform is 422, as are a `user_id` or `extension_id` that is not live in the PBX. A deleted device is 404.',
    params: SipDeviceParams,
    body: UpdateSipDeviceBody,
    run: ({ tenant, params, body }) => service.update(tenant, params.sipDevice, body),
  });
  devices.delete('/sip-devices/:sipDevice', {
    auth: MANAGE,
    operationId: 'deleteSipDevice',
    summary: 'Delete a SIP device (soft; restorable)',
    description:
      'Administrators of the PBX and its PBX key. ' +
      'Soft delete: the device leaves lists and reads (404) and comes back with POST /sip-devices/{sipDevice}/restore; its username and MAC address stay reserved meanwhile.',
    params: SipDeviceParams,
    run: ({ tenant, params }) => service.delete(tenant, params.sipDevice),
  });
  devices.all('/users/:user/sip-devices', {
    auth: OWNER,
    operationId: 'listUserSipDevices',
    summary: 'SIP devices of one user',
    description:
      'Any user for itself; another user of the PBX only for an administrator or the PBX key (403). ' +
      'Answers `{data: [...]}` (not paginated) with the user’s live devices. A deleted user, or another PBX’s, is 404.',
    params: UserParams,
    fetch: async ({ tenant, principal, params }) => sipDevicesOfUsers(ctx.db, tenant, [(await targetUser(ctx.db, tenant, principal, params.user)).id]),
  });
  devices.restore('/sip-devices/:sipDevice/restore', {
    auth: MANAGE,
    operationId: 'restoreSipDevice',
    summary: 'Restore a deleted SIP device',
    description: 'Administrators of the PBX and its PBX key. Clears deleted_at and answers the device; one that is not deleted, or another PBX’s, is 404.',
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
      description:
        'Administrators of the PBX and its PBX key. ' +
        'Only `name` is required: username and secret are generated when omitted, transport defaults to udp, codecs to opus, g722, pcma, enabled to true. ' +
        'Username and MAC address (stored as `80:5E:C0:12:34:56` in any accepted spelling) must be unused on the platform (422); `user_id` and `extension_id` must be live in the PBX (422). ' +
        'Answers 201 `{data}` with the `secret`, shown this once.',
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
