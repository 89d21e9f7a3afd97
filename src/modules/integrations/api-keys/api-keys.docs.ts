import type { OperationDocs } from '../../../http/resource-routes.js';

/** The OpenAPI text of api-keys.routes.ts, by operation id. */
export const API_KEYS_DOCS = {
  listIntegrationApiKeys: {
    summary: 'List the PBX integration API keys',
    description:
      'Administrators of the PBX only. The PBX’s integration keys, revoked ones included unless `filter[revoked]=false`; `search` matches the name; newest first unless `sort` says otherwise. ' +
      'Tokens are never listed: `token_hint` shows their prefix and last characters.',
  },
  getIntegrationApiKey: {
    summary: 'One integration API key',
    description:
      'Administrators of the PBX only. The key without its token (see POST /integrations/api-keys/{apiKey}/reveal); another PBX’s key, or a key of another kind, is 404.',
  },
  revokeIntegrationApiKey: {
    summary: 'Revoke an integration API key',
    description:
      'Administrators of the PBX only. The key stops authenticating at once (401) and cannot be revealed again; it stays listed with `revoked_at`. Revoking an already revoked key answers 204 again; another PBX’s key is 404.',
  },
  createIntegrationApiKey: {
    summary: 'Create an integration API key (the token is in this answer)',
    description:
      'Administrators of the PBX only; the key belongs to the PBX, with the creating administrator in `created_by_user_id`. It is limited to the `scopes` given (phone-numbers, push-configuration, call-history, contacts, call-routing). ' +
      'Answers 201 `{data}` with the key and its `token`, sent with `Cache-Control: no-store`. `expires_at`, when given, must lie in the future (else 422); without it the key never expires.',
  },
  revealIntegrationApiKey: {
    summary: 'Show the token of an active integration API key again',
    description:
      'Administrators of the PBX only. Answers `{data: {id, token}}`, sent with `Cache-Control: no-store`. A revoked key, another PBX’s key or an unknown one is 404.',
  },
} satisfies OperationDocs;
