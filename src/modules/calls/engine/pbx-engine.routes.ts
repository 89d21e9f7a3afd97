import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { AppContext } from '../../../platform/context.js';
import { tenantOfRequest } from '../../../platform/auth/auth-plugin.js';
import { DataEnvelope } from '../../../http/schema.js';
import { AmiEventHub } from './ami/event-hub.js';
import { PbxEngineService, presentAmiSettings } from './pbx-engine.service.js';
import { AmiSettings, ConnectionTestResponse, EngineErrorBody, SaveAmiSettingsBody, TraceQuery } from './pbx-engine.schemas.js';

const tags = ['PBX engine'];
const ADMIN = { auth: { user: 'admin' } } as const;

export async function pbxEngineRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }): Promise<void> {
  const hub = ctx.config.amiEventsEnabled ? new AmiEventHub(ctx, { leaseSeconds: ctx.config.amiEventsLeaseSeconds, log: app.log }) : null;
  if (hub) {
    app.addHook('onReady', async () => hub.start());
    app.addHook('onClose', async () => hub.stop());
  }
  const service = new PbxEngineService(ctx, hub);
  app.addSchema(AmiSettings);
  const r = app.withTypeProvider<TypeBoxTypeProvider>();

  r.get('/pbx-engine/settings', {
    config: ADMIN,
    schema: {
      tags,
      operationId: 'getAmiSettings',
      summary: "The PBX's Asterisk (AMI) connection settings",
      response: { 200: DataEnvelope(Type.Ref(AmiSettings)), 404: { $ref: 'NotFoundError#' } },
    },
    handler: async (request) => ({ data: presentAmiSettings(await service.get(tenantOfRequest(request))) }),
  });

  r.put('/pbx-engine/settings', {
    config: ADMIN,
    schema: {
      tags,
      operationId: 'saveAmiSettings',
      summary: 'Store the AMI connection settings (host, port 5038 by default, username, secret, enabled)',
      description: 'The secret is stored encrypted and never returned. While enabled, the PBX places calls over AMI instead of the simulated engine.',
      body: SaveAmiSettingsBody,
      response: { 200: DataEnvelope(Type.Ref(AmiSettings)) },
    },
    handler: async (request) => ({ data: presentAmiSettings(await service.save(tenantOfRequest(request), request.body)) }),
  });

  r.delete('/pbx-engine/settings', {
    config: ADMIN,
    schema: {
      tags,
      operationId: 'deleteAmiSettings',
      summary: 'Forget the AMI settings (calls go back to the default engine)',
      response: { 204: Type.Null(), 404: { $ref: 'NotFoundError#' } },
    },
    handler: async (request, reply) => {
      await service.remove(tenantOfRequest(request));
      return reply.code(204).send(null);
    },
  });

  r.post('/pbx-engine/settings/test', {
    config: ADMIN,
    schema: {
      tags,
      operationId: 'testAmiConnection',
      summary: 'Connect, log in and read the Asterisk version with the stored settings',
      querystring: TraceQuery,
      response: { 200: ConnectionTestResponse, 404: { $ref: 'NotFoundError#' }, 502: EngineErrorBody, 503: EngineErrorBody, 504: EngineErrorBody },
    },
    handler: async (request) => {
      const result = await service.test(tenantOfRequest(request), request.query.debugAmiTrace === true);
      return {
        status: 'success',
        message: 'Connected and logged in to the PBX.',
        data: {
          ami_version: result.ami_version,
          asterisk_version: result.asterisk_version,
          latency_ms: result.latency_ms,
          ...(result.trace ? { ami_trace: result.trace } : {}),
        },
      };
    },
  });
}
