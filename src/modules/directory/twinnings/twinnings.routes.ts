import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { AppContext } from '../../../platform/context.js';
import { principalOf, tenantOfRequest } from '../../../platform/auth/auth-plugin.js';
import { pageRequest, parseSort } from '../../../http/list-query.js';
import { Paginated, paginate } from '../../../http/pagination.js';
import { DataEnvelope } from '../../../http/schema.js';
import { UserParams } from '../users/users.schemas.js';
import { presentTwinning, TwinningsService } from './twinnings.service.js';
import { CreateTwinningBody, Twinning, TwinningListQuery, TwinningParams, UpdateTwinningBody } from './twinnings.schemas.js';

const tags = ['Twinnings'];
const AUTH = { auth: { user: true, pbx: true } } as const;

export async function twinningRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }): Promise<void> {
  const service = new TwinningsService(ctx);
  app.addSchema(Twinning);
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const one = DataEnvelope(Type.Ref(Twinning));

  r.get('/users/:user/twinnings', {
    config: AUTH,
    schema: { tags, operationId: 'listTwinnings', summary: 'Twinnings of a user', params: UserParams, querystring: TwinningListQuery, response: { 200: Paginated(Type.Ref(Twinning)) } },
    handler: async (request) => {
      const query = request.query as { search?: string; sort?: string; page?: number; perPage?: number; 'filter[status]'?: string; 'filter[type]'?: string; 'filter[sync_source]'?: string };
      const page = pageRequest(query);
      const filters = { search: query.search, status: query['filter[status]'], type: query['filter[type]'], syncSource: query['filter[sync_source]'] };
      const { rows, total } = await service.list(tenantOfRequest(request), principalOf(request), request.params.user, filters, parseSort(query.sort, [{ field: 'created_at', direction: 'asc' }]), page);
      return paginate(rows.map(presentTwinning), total, page, `${ctx.config.baseUrl}/users/${request.params.user}/twinnings`, query);
    },
  });

  r.post('/users/:user/twinnings', {
    config: AUTH,
    schema: {
      tags,
      operationId: 'createTwinning',
      summary: 'Add a twinning (with the PBX API key it is a provisioned twinning)',
      params: UserParams,
      body: CreateTwinningBody,
      response: { 201: one },
    },
    handler: async (request, reply) => {
      const row = await service.create(tenantOfRequest(request), principalOf(request), request.params.user, request.body);
      reply.code(201);
      return { data: presentTwinning(row) };
    },
  });

  r.get('/users/:user/twinnings/:twinning', {
    config: AUTH,
    schema: { tags, operationId: 'getTwinning', summary: 'One twinning', params: TwinningParams, response: { 200: one } },
    handler: async (request) => ({ data: presentTwinning(await service.get(tenantOfRequest(request), principalOf(request), request.params.user, request.params.twinning)) }),
  });

  for (const method of ['PUT', 'PATCH'] as const) {
    r.route({
      method,
      url: '/users/:user/twinnings/:twinning',
      config: AUTH,
      schema: {
        tags,
        operationId: method === 'PUT' ? 'replaceTwinning' : 'updateTwinning',
        summary: 'Change a twinning (PUT and PATCH are identical: only supplied fields change)',
        params: TwinningParams,
        body: UpdateTwinningBody,
        response: { 200: one },
      },
      handler: async (request) => {
        return { data: presentTwinning(await service.update(tenantOfRequest(request), principalOf(request), request.params.user, request.params.twinning, request.body)) };
      },
    });
  }

  r.delete('/users/:user/twinnings/:twinning', {
    config: AUTH,
    schema: { tags, operationId: 'deleteTwinning', summary: 'Remove a twinning', params: TwinningParams, response: { 204: Type.Null() } },
    handler: async (request, reply) => {
      await service.delete(tenantOfRequest(request), principalOf(request), request.params.user, request.params.twinning);
      return reply.code(204).send(null);
    },
  });
}
