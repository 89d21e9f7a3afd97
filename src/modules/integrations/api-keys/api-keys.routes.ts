import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../../platform/context.js';
import { resourceRoutes } from '../../../http/resource-routes.js';
import { API_KEYS_DOCS } from './api-keys.docs.js';
import { presentApiKey } from './api-keys.presenter.js';
import { ApiKeysService, type ApiKeyRow } from './api-keys.service.js';
import { ApiKey, ApiKeyListQuery, ApiKeyParams, CreateApiKeyBody, CreatedApiKey, RevealedApiKey } from './api-keys.schemas.js';

const ADMIN = { user: 'admin' } as const;
/** The two answers that carry the token itself: never cached. */
const CARRIES_TOKEN = { carriesSecret: true } as const;

export async function apiKeyRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }): Promise<void> {
  const service = new ApiKeysService(ctx);
  const keys = resourceRoutes(app, ctx.config.baseUrl, {
    tags: ['Integration API keys'],
    docs: API_KEYS_DOCS,
    schema: ApiKey,
    present: (rows: ApiKeyRow[]) => rows.map(presentApiKey),
  });

  keys.list('/integrations/api-keys', {
    auth: ADMIN,
    operationId: 'listIntegrationApiKeys',
    querystring: ApiKeyListQuery,
    defaultSort: [{ field: 'created_at', direction: 'desc' }],
    fetch: ({ tenant, query }, { sort, page }) => service.list(tenant, { search: query.search, revoked: query['filter[revoked]'] }, sort, page),
  });
  keys.read('/integrations/api-keys/:apiKey', {
    auth: ADMIN,
    operationId: 'getIntegrationApiKey',
    params: ApiKeyParams,
    load: ({ tenant, params }) => service.get(tenant, params.apiKey),
  });
  keys.delete('/integrations/api-keys/:apiKey', {
    auth: ADMIN,
    operationId: 'revokeIntegrationApiKey',
    params: ApiKeyParams,
    run: ({ tenant, params }) => service.revoke(tenant, params.apiKey),
  });

  keys.route('/integrations/api-keys', {
    method: 'POST',
    auth: ADMIN,
    config: CARRIES_TOKEN,
    operationId: 'createIntegrationApiKey',
    body: CreateApiKeyBody,
    response: { 201: CreatedApiKey },
    handle: async ({ tenant, user, body, reply }) => {
      const { row, token } = await service.create(tenant, user.userId, body);
      reply.code(201);
      return { data: { ...presentApiKey(row), token } };
    },
  });
  keys.route('/integrations/api-keys/:apiKey/reveal', {
    method: 'POST',
    auth: ADMIN,
    config: CARRIES_TOKEN,
    operationId: 'revealIntegrationApiKey',
    params: ApiKeyParams,
    response: { 200: RevealedApiKey },
    handle: async ({ tenant, params }) => ({ data: { id: params.apiKey, token: await service.reveal(tenant, params.apiKey) } }),
  });
}
