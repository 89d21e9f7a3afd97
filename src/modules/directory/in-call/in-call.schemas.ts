import { Type } from '@sinclair/typebox';
import { DateTime, Nullable, Uuid } from '../../../http/schema.js';

export const DEFAULT_IN_CALL_TTL = 3600;

export const InCallState = Type.Object(
  {
    user_id: Uuid({ description: 'Always the token\u2019s own user.' }),
    in_call: Type.Boolean(),
    in_call_updated_at: Nullable(DateTime({ description: 'Last report time; null when nothing was reported within the window.' })),
    expires_at: Nullable(DateTime({ description: 'When the value reverts to false; refreshed on each report.' })),
    ttl_seconds: Type.Integer({ description: 'Seconds a reported flag is trusted (3600 by default).' }),
  },
  {
    $id: 'InCallState',
    examples: [{ user_id: 'e84e9823-c8fa-4b5e-982c-30baaf0f0efc', in_call: false, in_call_updated_at: null, expires_at: null, ttl_seconds: 3600 }],
  },
);

export const ReportInCallBody = Type.Object(
  {
    in_call: Type.Boolean(),
    ttl_seconds: Type.Optional(Type.Integer({ minimum: 1, maximum: 86400, default: DEFAULT_IN_CALL_TTL })),
  },
  { additionalProperties: false, examples: [{ in_call: true, ttl_seconds: 1800 }] },
);
