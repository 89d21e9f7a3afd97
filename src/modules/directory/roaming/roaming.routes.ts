import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../../platform/context.js';
import { resourceRoutes } from '../../../http/resource-routes.js';
import { presentSipDevice, type SipDeviceRow } from '../sip-devices/sip-devices.service.js';
import { SipDevice } from '../sip-devices/sip-devices.schemas.js';
import { RoamingService } from './roaming.service.js';
import { RoamingLoginBody, RoamingLogoutBody } from './roaming.schemas.js';

const PBX = { pbx: true } as const;

/** Hot-desking: the PBX server puts an extension on a desk phone and takes it off again. */
export async function roamingRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }): Promise<void> {
  const service = new RoamingService(ctx);
  const devices = resourceRoutes(app, ctx.config.baseUrl, {
    tags: ['Roaming'],
    schema: SipDevice,
    present: (rows: SipDeviceRow[]) => rows.map(presentSipDevice),
  });

  devices.action('/roaming/login', {
    method: 'POST',
    auth: PBX,
    operationId: 'roamingLogin',
    summary: 'Log an extension in on a SIP device (hot-desking; PBX API key)',
    description:
      'The PBX key only (user tokens and integration keys are refused, 403). ' +
      '`sip_device_id` must be a live device of the PBX and `extension` the number of a live extension that belongs to a user (422 otherwise); that user must have extension_roaming and be active (403). ' +
      'The extension leaves any other device it was logged in on, one phone at a time, and replaces whatever was logged in on this one. ' +
      'Answers 200 `{data}` with the device and its roaming fields.',
    body: RoamingLoginBody,
    run: ({ tenant, body }) => service.login(tenant, body.sip_device_id, body.extension),
  });
  devices.action('/roaming/logout', {
    method: 'POST',
    auth: PBX,
    operationId: 'roamingLogout',
    summary: 'Log the roaming extension out of a SIP device (PBX API key)',
    description:
      'The PBX key only (403 for any other caller). ' +
      '`sip_device_id` must be a live device of the PBX with an extension logged in by roaming (422 otherwise); the roaming fields are cleared and the device answered as `{data}`.',
    body: RoamingLogoutBody,
    run: ({ tenant, body }) => service.logout(tenant, body.sip_device_id),
  });
}
