import { Type } from '@sinclair/typebox';
import { DataEnvelope, DateTime, Nullable, StringEnum, Uuid } from '../../../http/schema.js';
import { ListQuery } from '../../../http/list-query.js';
import { INTEGRATION_SCOPES } from '../../../platform/auth/principal.js';

export const ApiKey = Type.Object(
  {
    id: Uuid(),
    name: Type.String(),
    scopes: Type.Array(StringEnum(INTEGRATION_SCOPES)),
    token_hint: Type.String({ description: 'Prefix and last characters of the token, to recognise it.', examples: ['pbxi_4Jd1…x9Qa'] }),
    created_by_user_id: Nullable(Uuid()),
    created_at: DateTime(),
    expires_at: Nullable(DateTime()),
    revoked_at: Nullable(DateTime()),
  },
  {
    $id: 'IntegrationApiKey',
    examples: [
      {
        id: '57e44c98-e402-4e17-b145-78782b44f238',
        name: 'Number inventory sync',
        scopes: ['phone-numbers'],
        token_hint: 'pbxi_1K7i…IexY',
        created_by_user_id: 'e84e9823-c8fa-4b5e-982c-30baaf0f0efc',
        created_at: '2026-11-02T08:30:00.000Z',
        expires_at: null,
        revoked_at: null,
      },
    ],
  },
);

export const CreateApiKeyBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 255, examples: ['CRM call history sync'] }),
    scopes: Type.Array(StringEnum(INTEGRATION_SCOPES), { minItems: 1, uniqueItems: true, examples: [['call-history']] }),
    expires_at: Type.Optional(Nullable(DateTime({ description: 'Optional expiry; never expires when omitted.' }))),
  },
  {
    additionalProperties: false,
    examples: [{ name: 'CRM call history sync', scopes: ['call-history', 'contacts'], expires_at: '2027-12-31T23:00:00.000Z' }],
  },
);

export const ApiKeyParams = Type.Object({ apiKey: Uuid() });
export const ApiKeyListQuery = ListQuery({
  sort: ['name', 'created_at'],
  filters: { revoked: Type.Boolean({ description: 'true: only revoked keys; false: only active ones.' }) },
});
export const CreatedApiKey = DataEnvelope(
  Type.Composite([Type.Omit(ApiKey, []), Type.Object({ token: Type.String({ description: 'Shown once here; reveal it again later.' }) })], {
    examples: [
      {
        id: '0b6f3d2a-7c41-4e8b-9a5d-2f1e6c8b4a90',
        name: 'CRM call history sync',
        scopes: ['call-history', 'contacts'],
        token_hint: 'pbxi_3Qm8…Zr7T',
        created_by_user_id: 'e84e9823-c8fa-4b5e-982c-30baaf0f0efc',
        created_at: '2026-11-27T09:05:12.000Z',
        expires_at: '2027-12-31T23:00:00.000Z',
        revoked_at: null,
        token: 'pbxi_3Qm8Hk2vXc9LwP4dNt6YbR1sJf5GuA0eZr7T',
      },
    ],
  }),
);
export const RevealedApiKey = DataEnvelope(
  Type.Object(
    { id: Uuid(), token: Type.String() },
    { examples: [{ id: '57e44c98-e402-4e17-b145-78782b44f238', token: 'pbxi_1K7ix3M17oFjsMc7ggujmMLBOU8Ukq3cIexY' }] },
  ),
);
