import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Selectable } from 'kysely';
import type { ApiKeyTable } from '../../../db/schema.js';
import type { AppContext } from '../../../platform/context.js';
import { tenantOfRequest, userPrincipalOf } from '../../../platform/auth/auth-plugin.js';
import { resourceRoutes } from '../../../http/resource-routes.js';
import { ApiKeysService, presentApiKey } from './api-keys.service.js';
import { ApiKey, ApiKeyListQuery, ApiKeyParams, CreateApiKeyBody, CreatedApiKey, RevealedApiKey } from './api-keys.schemas.js';

const tags = ['Integration API keys'];
const ADMIN = { user: 'admin' } as const;

export async function apiKeyRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }): Promise<void> {
  const service = new ApiKeysService(ctx);
  const keys = resourceRoutes(app, ctx.config.baseUrl, { tags, schema: ApiKey, present: (rows: Array<Selectable<ApiKeyTable>>) => rows.map(presentApiKey) });

  keys.list('/integrations/api-keys', {
    auth: ADMIN,
    operationId: 'listIntegrationApiKeys',
    summary: 'List the PBX integration API keys',
    querystring: ApiKeyListQuery,
    defaultSort: [{ field: 'created_at', direction: 'desc' }],
    fetch: ({ tenant, query }, { sort, page }) => service.list(tenant, { search: query.search, revoked: query['filter[revoked]'] }, sort, page),
  });
  keys.read('/integrations/api-keys/:apiKey', {
    auth: ADMIN,
    operationId: 'getIntegrationApiKey',
    summary: 'One integration API key',
    params: ApiKeyParams,
    load: ({ tenant, params }) => service.get(tenant, params.apiKey),
  });
  keys.delete('/integrations/api-keys/:apiKey', {
    auth: ADMIN,
    operationId: 'revokeIntegrationApiKey',
    summary: 'Revoke an integration API key',
    params: ApiKeyParams,
    run: ({ tenant, params }) => service.revoke(tenant, params.apiKey),
  });

  // The two answers that carry the token itself: never cached.
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  r.post('/integrations/api-keys', {
    config: { auth: ADMIN, carriesSecret: true },
    schema: {
      tags,
      operationId: 'createIntegrationApiKey',
      summary: 'Create an integration API key (the token is in this answer)',
      body: CreateApiKeyBody,
      response: { 201: CreatedApiKey },
    },
    handler: async (request, reply) => {
      const { row, token } = await service.create(tenantOfRequest(request), userPrincipalOf(request).userId, request.body);
      reply.code(201);
      return { data: { ...presentApiKey(row), token } };
    },
  });
  r.post('/integrations/api-keys/:apiKey/reveal', {
    config: { auth: ADMIN, carriesSecret: true },
    schema: {
      tags,
      operationId: 'revealIntegrationApiKey',
      summary: 'Show the token of an active integration API key again',
      params: ApiKeyParams,
      response: { 200: RevealedApiKey },
    },
    handler: async (request) => {
      const token = await service.reveal(tenantOfRequest(request), request.params.apiKey);
      return { data: { id: request.params.apiKey, token } };
    },
  });
}
