import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { AppContext } from '../../../platform/context.js';
import { principalOf, tenantOfRequest } from '../../../platform/auth/auth-plugin.js';
import { DataEnvelope } from '../../../http/schema.js';
import { UserParams } from '../users/users.schemas.js';
import { DndService, presentDnd } from './dnd.service.js';
import { BulkDndBody, BulkDndResponse, CreateDndBody, DndListQuery, DndParams, DndRule, ReplaceDndBody } from './dnd.schemas.js';

const tags = ['Users: settings, DND, groups, buttons, forwards'];
const AUTH = { auth: { user: true, pbx: true } } as const;

export async function dndRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }): Promise<void> {
  const service = new DndService(ctx);
  app.addSchema(DndRule);
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const one = DataEnvelope(Type.Ref(DndRule));

  r.get('/users/:user/dnds', {
    config: AUTH,
    schema: { tags, operationId: 'listDnds', summary: 'DND rules of a user', params: UserParams, querystring: DndListQuery, response: { 200: DataEnvelope(Type.Array(Type.Ref(DndRule))) } },
    handler: async (request) => ({ data: (await service.list(tenantOfRequest(request), principalOf(request), request.params.user, request.query['filter[type]'])).map(presentDnd) }),
  });

  r.post('/users/:user/dnds', {
    config: AUTH,
    schema: { tags, operationId: 'createDnd', summary: 'Create a DND rule (needs allow_dnd)', params: UserParams, body: CreateDndBody, response: { 201: one } },
    handler: async (request, reply) => {
      const row = await service.create(tenantOfRequest(request), principalOf(request), request.params.user, request.body);
      reply.code(201);
      return { data: presentDnd(row) };
    },
  });

  r.post('/users/:user/dnds/bulk', {
    config: AUTH,
    schema: { tags, operationId: 'bulkDnds', summary: 'Set several DND rules at once (created when missing)', params: UserParams, body: BulkDndBody, response: { 200: BulkDndResponse } },
    handler: async (request) => ({ data: await service.bulk(tenantOfRequest(request), principalOf(request), request.params.user, request.body) }),
  });

  r.put('/users/:user/dnds/:userDnd', {
    config: AUTH,
    schema: { tags, operationId: 'replaceDnd', summary: 'Replace a DND rule (omitted fields reset to defaults)', params: DndParams, body: ReplaceDndBody, response: { 200: one } },
    handler: async (request) => ({ data: presentDnd(await service.replace(tenantOfRequest(request), principalOf(request), request.params.user, request.params.userDnd, request.body)) }),
  });

  r.delete('/users/:user/dnds/:userDnd', {
    config: AUTH,
    schema: { tags, operationId: 'deleteDnd', summary: 'Delete a DND rule', params: DndParams, response: { 204: Type.Null() } },
    handler: async (request, reply) => {
      await service.delete(tenantOfRequest(request), principalOf(request), request.params.user, request.params.userDnd);
      return reply.code(204).send(null);
    },
  });
}
