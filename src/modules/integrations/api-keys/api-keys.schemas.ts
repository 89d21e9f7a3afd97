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
  { $id: 'IntegrationApiKey' },
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
  Type.Composite([Type.Omit(ApiKey, []), Type.Object({ token: Type.String({ description: 'Shown once here; reveal it again later.' }) })]),
);
export const RevealedApiKey = DataEnvelope(Type.Object({ id: Uuid(), token: Type.String() }));
