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
    description:
      'Administrators of the PBX only. The PBX’s integration keys, revoked ones included unless `filter[revoked]=false`; `search` matches the name; newest first unless `sort` says otherwise. ' +
      'Tokens are never listed: `token_hint` shows their prefix and last characters.',
    querystring: ApiKeyListQuery,
    defaultSort: [{ field: 'created_at', direction: 'desc' }],
    fetch: ({ tenant, query }, { sort, page }) => service.list(tenant, { search: query.search, revoked: query['filter[revoked]'] }, sort, page),
  });
  keys.read('/integrations/api-keys/:apiKey', {
    auth: ADMIN,
    operationId: 'getIntegrationApiKey',
    summary: 'One integration API key',
    description:
      'Administrators of the PBX only. The key without its token (see POST /integrations/api-keys/{apiKey}/reveal); another PBX’s key, or a key of another kind, is 404.',
    params: ApiKeyParams,
    load: ({ tenant, params }) => service.get(tenant, params.apiKey),
  });
  keys.delete('/integrations/api-keys/:apiKey', {
    auth: ADMIN,
    operationId: 'revokeIntegrationApiKey',
    summary: 'Revoke an integration API key',
    description:
      'Administrators of the PBX only. The key stops authenticating at once (401) and cannot be revealed again; it stays listed with `revoked_at`. Revoking an already revoked key answers 204 again; another PBX’s key is 404.',
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
      description:
        'Administrators of the PBX only; the key belongs to the PBX, with the creating administrator in `created_by_user_id`. It is limited to the `scopes` given (phone-numbers, push-configuration, call-history, contacts, call-routing). ' +
        'Answers 201 `{data}` with the key and its `token`, sent with `Cache-Control: no-store`. `expires_at`, when given, must lie in the future (else 422); without it the key never expires.',
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
      description:
        'Administrators of the PBX only. Answers `{data: {id, token}}`, sent with `Cache-Control: no-store`. A revoked key, another PBX’s key or an unknown one is 404.',
      params: ApiKeyParams,
      response: { 200: RevealedApiKey },
    },
    handler: async (request) => {
      const token = await service.reveal(tenantOfRequest(request), request.params.apiKey);
      return { data: { id: request.params.apiKey, token } };
    },
  });
}
