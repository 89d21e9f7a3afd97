import type { FastifyInstance } from 'fastify';
import { Type } from '@sinclair/typebox';
import { Gauge } from 'prom-client';
import type { AppContext } from '../../../platform/context.js';
import { operationRoutes } from '../../../http/resource-routes.js';
import { DataEnvelope } from '../../../http/schema.js';
import { AmiEventHub } from './ami/event-hub.js';
import { PBX_ENGINE_DOCS } from './pbx-engine.docs.js';
import { PbxEngineService } from './pbx-engine.service.js';
import { AmiSettings, ConnectionTestResponse, EngineErrorBody, SaveAmiSettingsBody, TraceQuery } from './pbx-engine.schemas.js';

const ADMIN = { user: 'admin' } as const;

/** The PBX's AMI settings (one per PBX, no list): read, save, forget, test; the event listener's hub and its failing-settings gauge. */
export async function pbxEngineRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }): Promise<void> {
  const hub = ctx.config.amiEventsEnabled ? new AmiEventHub(ctx, { leaseSeconds: ctx.config.amiEventsLeaseSeconds, log: app.log }) : null;
  if (hub) {
    app.addHook('onReady', async () => hub.start());
    app.addHook('onClose', async () => hub.stop());
  }
  const service = new PbxEngineService(ctx, hub);
  new Gauge({
    name: 'pbx_ami_settings_failing',
    help: 'Enabled AMI settings marked failing: the PBX refused the event listener AMI_LOGIN_FAILURE_LIMIT logins in a row',
    registers: [app.metricsRegistry],
    async collect() {
      this.set(await service.failingSettings());
    },
  });
  app.addSchema(AmiSettings);
  const { route } = operationRoutes(app, { tags: ['PBX engine'], docs: PBX_ENGINE_DOCS });

  route('/pbx-engine/settings', {
    method: 'GET',
    auth: ADMIN,
    operationId: 'getAmiSettings',
    response: { 200: DataEnvelope(Type.Ref(AmiSettings)), 404: { $ref: 'NotFoundError#' } },
    handle: async ({ tenant }) => ({ data: await service.read(tenant) }),
  });
  route('/pbx-engine/settings', {
    method: 'PUT',
    auth: ADMIN,
    operationId: 'saveAmiSettings',
    body: SaveAmiSettingsBody,
    response: { 200: DataEnvelope(Type.Ref(AmiSettings)) },
    handle: async ({ tenant, body }) => ({ data: await service.save(tenant, body) }),
  });
  route('/pbx-engine/settings', {
    method: 'DELETE',
    auth: ADMIN,
    operationId: 'deleteAmiSettings',
    response: { 204: Type.Null(), 404: { $ref: 'NotFoundError#' } },
    handle: async ({ tenant, reply }) => {
      await service.remove(tenant);
      return reply.code(204).send(null);
    },
  });
  route('/pbx-engine/settings/test', {
    method: 'POST',
    auth: ADMIN,
    operationId: 'testAmiConnection',
    querystring: TraceQuery,
    response: { 200: ConnectionTestResponse, 404: { $ref: 'NotFoundError#' }, 502: EngineErrorBody, 503: EngineErrorBody, 504: EngineErrorBody },
    handle: async ({ tenant, query }) => service.test(tenant, query.debugAmiTrace === true),
  });
}
