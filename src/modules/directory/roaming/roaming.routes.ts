import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../../platform/context.js';
import { resourceRoutes } from '../../../http/resource-routes.js';
import { presentSipDevice } from '../sip-devices/sip-devices.presenter.js';
import type { SipDeviceRow } from '../sip-devices/sip-devices.service.js';
import { SipDevice } from '../sip-devices/sip-devices.schemas.js';
import { ROAMING_DOCS } from './roaming.docs.js';
import { RoamingService } from './roaming.service.js';
import { RoamingLoginBody, RoamingLogoutBody } from './roaming.schemas.js';

const PBX = { pbx: true } as const;

/** Hot-desking: the PBX server puts an extension on a desk phone and takes it off again. */
export async function roamingRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }): Promise<void> {
  const service = new RoamingService(ctx);
  const devices = resourceRoutes(app, ctx.config.baseUrl, {
    tags: ['Roaming'],
    docs: ROAMING_DOCS,
    schema: SipDevice,
    present: (rows: SipDeviceRow[]) => rows.map(presentSipDevice),
  });

  devices.action('/roaming/login', {
    method: 'POST',
    auth: PBX,
    operationId: 'roamingLogin',
    body: RoamingLoginBody,
    run: ({ tenant, body }) => service.login(tenant, body.sip_device_id, body.extension),
  });
  devices.action('/roaming/logout', {
    method: 'POST',
    auth: PBX,
    operationId: 'roamingLogout',
    body: RoamingLogoutBody,
    run: ({ tenant, body }) => service.logout(tenant, body.sip_device_id),
  });
}
