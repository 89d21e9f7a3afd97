import { Type, type Static } from '@sinclair/typebox';
import { ListQuery } from '../../../http/list-query.js';
import { DateTime, Nullable, Uuid } from '../../../http/schema.js';

export const AuditEvent = Type.Object(
  {
    id: Uuid(),
    action: Type.String({ description: 'What was done: `<subject>.<verb>`.', examples: ['webhook_signing_secret.rotated'] }),
    subject_type: Type.String({ examples: ['webhook_signing_secret'] }),
    subject_id: Nullable(Type.String({ description: 'The record acted on, when it has an id.' })),
    principal_kind: Type.String({ description: 'Who acted: `user`, `pbx`, `integration`, `pbx_server` or `internal`.', examples: ['user'] }),
    principal_id: Type.String({ description: 'The id of the token or API key that acted (never the token itself).' }),
    user_id: Nullable(Uuid({ description: 'The user behind a user token; null for API keys.' })),
    request_id: Nullable(Type.String({ description: 'The `x-request-id` of the request, to find it in the logs.' })),
    details: Type.Record(Type.String(), Type.Union([Type.String(), Type.Number(), Type.Boolean(), Type.Null()]), {
      description: 'Facts about the action (never a secret), e.g. the overlap window of a rotation.',
    }),
    created_at: DateTime(),
  },
  {
    $id: 'AuditEvent',
    examples: [
      {
        id: 'ebc2aecd-913c-4f28-8e1a-3ab51667d52d',
        action: 'absence_request.approved',
        subject_type: 'absence_request',
        subject_id: '6abe1238-653c-4ea0-b25b-e8c386343f3a',
        principal_kind: 'user',
        principal_id: 'demo-seed',
        user_id: '2d7d40fc-5d58-4887-9624-db2cc510214d',
        request_id: null,
        details: { type: 'legal', working_days: 0.5, balance_debited: 0.5 },
        created_at: '2026-11-02T08:30:00.000Z',
      },
    ],
  },
);
export type AuditEventView = Static<typeof AuditEvent>;

const DATE_OR_TIME = '^\\d{4}-\\d{2}-\\d{2}(T\\d{2}:\\d{2}:\\d{2}(\\.\\d{1,6})?(Z|[+-]\\d{2}:\\d{2}))?$';
const DateOrTime = (description: string) => Type.String({ pattern: DATE_OR_TIME, description, examples: ['2026-01-01', '2026-01-01T09:30:00Z'] });

export const AuditEventListQuery = ListQuery({
  search: false,
  sort: ['created_at', 'action'],
  filters: {
    action: Type.String({ pattern: '^[a-z0-9_.]{1,64}$', description: 'One action, e.g. `webhook_signing_secret.rotated`.' }),
    user_id: Uuid({ description: 'What this user did.' }),
    from: DateOrTime('Events at or after this UTC date (`YYYY-MM-DD`, from its start) or ISO 8601 time.'),
    to: DateOrTime('Events at or before this UTC date (the whole day) or ISO 8601 time; not before `filter[from]`.'),
  },
});
