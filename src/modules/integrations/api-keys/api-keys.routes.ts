import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { AppContext } from '../../../platform/context.js';
import { tenantOfRequest, userPrincipalOf } from '../../../platform/auth/auth-plugin.js';
import { pageRequest, parseSort } from '../../../http/list-query.js';
import { Paginated, paginate } from '../../../http/pagination.js';
import { DataEnvelope } from '../../../http/schema.js';
import { ApiKeysService, presentApiKey } from './api-keys.service.js';
import { ApiKey, ApiKeyListQuery, ApiKeyParams, CreateApiKeyBody, CreatedApiKey, RevealedApiKey } from './api-keys.schemas.js';

const tags = ['Integration API keys'];
const ADMIN = { auth: { user: 'admin' } } as const;

export async function apiKeyRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }): Promise<void> {
  const service = new ApiKeysService(ctx);
  app.addSchema(ApiKey);
  const r = app.withTypeProvider<TypeBoxTypeProvider>();

  r.get('/integrations/api-keys', {
    config: ADMIN,
    schema: { tags, operationId: 'listIntegrationApiKeys', summary: 'List the PBX integration API keys', querystring: ApiKeyListQuery, response: { 200: Paginated(Type.Ref(ApiKey)) } },
    handler: async (request) => {
      const query = request.query as { search?: string; sort?: string; page?: number; perPage?: number; 'filter[revoked]'?: boolean };
      const page = pageRequest(query);
      const { rows, total } = await service.list(tenantOfRequest(request), { search: query.search, revoked: query['filter[revoked]'] }, parseSort(query.sort, [{ field: 'created_at', direction: 'desc' }]), page);
      return paginate(rows.map(presentApiKey), total, page, `${ctx.config.baseUrl}/integrations/api-keys`, query);
    },
  });

  r.post('/integrations/api-keys', {
    config: ADMIN,
    schema: { tags, operationId: 'createIntegrationApiKey', summary: 'Create an integration API key (the token is in this answer)', body: CreateApiKeyBody, response: { 201: CreatedApiKey } },
    handler: async (request, reply) => {
      const { row, token } = await service.create(tenantOfRequest(request), userPrincipalOf(request).userId, request.body);
      reply.code(201).header('cache-control', 'no-store');
      return { data: { ...presentApiKey(row), token } };
    },
  });

  r.get('/integrations/api-keys/:apiKey', {
    config: ADMIN,
    schema: { tags, operationId: 'getIntegrationApiKey', summary: 'One integration API key', params: ApiKeyParams, response: { 200: DataEnvelope(Type.Ref(ApiKey)) } },
    handler: async (request) => ({ data: presentApiKey(await service.get(tenantOfRequest(request), request.params.apiKey)) }),
  });

  r.post('/integrations/api-keys/:apiKey/reveal', {
    config: ADMIN,
    schema: { tags, operationId: 'revealIntegrationApiKey', summary: 'Show the token of an active integration API key again', params: ApiKeyParams, response: { 200: RevealedApiKey } },
    handler: async (request, reply) => {
      const token = await service.reveal(tenantOfRequest(request), request.params.apiKey);
      reply.header('cache-control', 'no-store');
      return { data: { id: request.params.apiKey, token } };
    },
  });

  r.delete('/integrations/api-keys/:apiKey', {
    config: ADMIN,
    schema: { tags, operationId: 'revokeIntegrationApiKey', summary: 'Revoke an integration API key', params: ApiKeyParams, response: { 204: Type.Null() } },
    handler: async (request, reply) => {
      await service.revoke(tenantOfRequest(request), request.params.apiKey);
      return reply.code(204).send(null);
    },
  });
}
