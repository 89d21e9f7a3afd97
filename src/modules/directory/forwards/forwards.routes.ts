import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { AppContext } from '../../../platform/context.js';
import { principalOf, tenantOfRequest } from '../../../platform/auth/auth-plugin.js';
import { DataEnvelope } from '../../../http/schema.js';
import { UserParams } from '../users/users.schemas.js';
import { ForwardsService, presentForward } from './forwards.service.js';
import { CreateForwardBody, Forward, ForwardListQuery, ForwardParams, UpdateForwardBody } from './forwards.schemas.js';

const tags = ['Users: settings, DND, groups, buttons, forwards'];
const AUTH = { auth: { user: true, pbx: true } } as const;

export async function forwardRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }): Promise<void> {
  const service = new ForwardsService(ctx);
  app.addSchema(Forward);
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const one = DataEnvelope(Type.Ref(Forward));

  r.get('/users/:user/forwards', {
    config: AUTH,
    schema: { tags, operationId: 'listForwards', summary: 'Call forwards of a user', params: UserParams, querystring: ForwardListQuery, response: { 200: DataEnvelope(Type.Array(Type.Ref(Forward))) } },
    handler: async (request) => {
      const filters = { type: request.query['filter[type]'], enabled: request.query['filter[enabled]'] };
      return { data: (await service.list(tenantOfRequest(request), principalOf(request), request.params.user, filters)).map(presentForward) };
    },
  });

  r.post('/users/:user/forwards', {
    config: AUTH,
    schema: { tags, operationId: 'createForward', summary: 'Create a call forward (needs allow_call_forwarding)', params: UserParams, body: CreateForwardBody, response: { 201: one } },
    handler: async (request, reply) => {
      const row = await service.create(tenantOfRequest(request), principalOf(request), request.params.user, request.body);
      reply.code(201);
      return { data: presentForward(row) };
    },
  });

  r.patch('/users/:user/forwards/:forward', {
    config: AUTH,
    schema: { tags, operationId: 'updateForward', summary: 'Change a call forward (only supplied fields)', params: ForwardParams, body: UpdateForwardBody, response: { 200: one } },
    handler: async (request) => ({ data: presentForward(await service.update(tenantOfRequest(request), principalOf(request), request.params.user, request.params.forward, request.body)) }),
  });

  r.delete('/users/:user/forwards/:forward', {
    config: AUTH,
    schema: { tags, operationId: 'deleteForward', summary: 'Delete a call forward', params: ForwardParams, response: { 204: Type.Null() } },
    handler: async (request, reply) => {
      await service.delete(tenantOfRequest(request), principalOf(request), request.params.user, request.params.forward);
      return reply.code(204).send(null);
    },
  });
}
