import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { AppContext } from '../../../platform/context.js';
import { tenantOfRequest } from '../../../platform/auth/auth-plugin.js';
import { DataEnvelope, Uuid } from '../../../http/schema.js';
import { presentSipDevice } from '../sip-devices/sip-devices.service.js';
import { SipDevice } from '../sip-devices/sip-devices.schemas.js';
import { RoamingService } from './roaming.service.js';

const tags = ['Roaming'];
const PBX = { auth: { pbx: true } } as const;

export const RoamingLoginBody = Type.Object(
  {
    sip_device_id: Uuid({ description: 'The desk phone the user sits at.' }),
    extension: Type.String({ pattern: '^[0-9]{2,16}$', description: 'Number of the extension to log in; its user must have extension_roaming.' }),
  },
  { additionalProperties: false },
);
export const RoamingLogoutBody = Type.Object({ sip_device_id: Uuid() }, { additionalProperties: false });

export async function roamingRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }): Promise<void> {
  const service = new RoamingService(ctx);
  app.addSchema(SipDevice);
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const answer = DataEnvelope(Type.Ref(SipDevice));

  r.post('/roaming/login', {
    config: PBX,
    schema: { tags, operationId: 'roamingLogin', summary: 'Log an extension in on a SIP device (hot-desking; PBX API key)', body: RoamingLoginBody, response: { 200: answer } },
    handler: async (request) => ({ data: presentSipDevice(await service.login(tenantOfRequest(request), request.body.sip_device_id, request.body.extension)) }),
  });

  r.post('/roaming/logout', {
    config: PBX,
    schema: { tags, operationId: 'roamingLogout', summary: 'Log the roaming extension out of a SIP device (PBX API key)', body: RoamingLogoutBody, response: { 200: answer } },
    handler: async (request) => ({ data: presentSipDevice(await service.logout(tenantOfRequest(request), request.body.sip_device_id)) }),
  });
}
