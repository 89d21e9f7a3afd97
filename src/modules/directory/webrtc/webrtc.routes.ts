import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { AppContext } from '../../../platform/context.js';
import { principalOf, tenantOfRequest } from '../../../platform/auth/auth-plugin.js';
import { DataEnvelope } from '../../../http/schema.js';
import { targetUser } from '../shared/access.js';
import { WebrtcService } from './webrtc.service.js';
import { EmailParams, SaveWebrtcBody, WebrtcConfiguration, WebrtcSummary } from './webrtc.schemas.js';
import { UserParams } from '../users/users.schemas.js';

const tags = ['WebRTC'];
const MANAGE = { auth: { user: 'admin', pbx: true } } as const;

export async function webrtcRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }): Promise<void> {
  const service = new WebrtcService(ctx);
  app.addSchema(WebrtcConfiguration);
  app.addSchema(WebrtcSummary);
  const r = app.withTypeProvider<TypeBoxTypeProvider>();

  r.get('/users/:email/webrtc', {
    config: { auth: { internal: true } },
    schema: { tags, operationId: 'getWebrtcByEmail', summary: 'WebRTC configuration by e-mail (internal API key only)', params: EmailParams, response: { 200: Type.Ref(WebrtcConfiguration) } },
    handler: async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return service.byEmail(request.params.email);
    },
  });

  r.put('/users/:user/webrtc', {
    config: MANAGE,
    schema: {
      tags,
      operationId: 'saveWebrtc',
      summary: 'Create or replace the WebRTC account of a user; secrets are stored encrypted and not echoed',
      params: UserParams,
      body: SaveWebrtcBody,
      response: { 200: DataEnvelope(Type.Ref(WebrtcSummary)) },
    },
    handler: async (request) => {
      const tenant = tenantOfRequest(request);
      const user = await targetUser(ctx.db, tenant, principalOf(request), request.params.user);
      return { data: await service.save(tenant, user, request.body) };
    },
  });

  r.delete('/users/:user/webrtc', {
    config: MANAGE,
    schema: { tags, operationId: 'deleteWebrtc', summary: 'Remove the WebRTC account of a user', params: UserParams, response: { 204: Type.Null() } },
    handler: async (request, reply) => {
      const tenant = tenantOfRequest(request);
      const user = await targetUser(ctx.db, tenant, principalOf(request), request.params.user);
      await service.delete(tenant, user);
      return reply.code(204).send(null);
    },
  });
}
