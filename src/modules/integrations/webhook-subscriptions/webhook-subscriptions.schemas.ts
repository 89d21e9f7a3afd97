import { Type, type Static } from '@sinclair/typebox';
import { ListQuery } from '../../../http/list-query.js';
import { DateTime, Nullable, Uuid } from '../../../http/schema.js';
import { KIND_PATTERN } from '../../../platform/events/kind-patterns.js';

const EXAMPLE = {
  id: '3f0c2b9e-5a1d-4c7e-9b2f-8d6a4e1c7b30',
  url: 'https://crm.acme.example/hooks/pbx-events',
  kinds: ['call.*', 'device.registered'],
  filters: { subject_type: null, subject_id: null },
  description: 'CRM: calls and phone presence',
  active: true,
  user_id: 'e84e9823-c8fa-4b5e-982c-30baaf0f0efc',
  created_at: '2026-11-27T09:05:12.000Z',
  updated_at: '2026-11-27T09:05:12.000Z',
};

const Url = Type.String({
  format: 'uri',
  maxLength: 2048,
  description: 'Where each event is POSTed: http(s); a URL resolving to a loopback, private or link-local address is refused (unless the server allows them).',
  examples: [EXAMPLE.url],
});

const Kinds = Type.Array(
  Type.String({
    pattern: KIND_PATTERN,
    maxLength: 64,
    description: 'An event kind (`call.answered`), or a prefix and `.*` for every kind under it (`call.*`).',
  }),
  {
    minItems: 1,
    maxItems: 50,
    uniqueItems: true,
    description: 'The event kinds delivered, from the AsyncAPI document (`/asyncapi.json`); one that names no kind is 422.',
    examples: [EXAMPLE.kinds],
  },
);

const Filters = Type.Object(
  {
    subject_type: Type.Optional(Type.String({ maxLength: 64, description: 'Only events about subjects of this type (`call`, `contact_import`).' })),
    subject_id: Type.Optional(Type.String({ minLength: 1, maxLength: 255, description: 'Only events about this subject (its id).' })),
  },
  { additionalProperties: false, description: 'Narrows the events further; each filter left out lets every value through.' },
);

const Description = Type.String({ maxLength: 255, description: 'What the subscription is for (free text).' });

export const WebhookSubscription = Type.Object(
  {
    id: Uuid(),
    url: Type.String({ format: 'uri' }),
    kinds: Type.Array(Type.String()),
    filters: Type.Object({ subject_type: Nullable(Type.String()), subject_id: Nullable(Type.String()) }),
    description: Nullable(Type.String()),
    active: Type.Boolean({ description: 'false: nothing is delivered, and the events committed meanwhile are not delivered later.' }),
    user_id: Uuid({
      description: 'Its owner, the administrator who created it: it receives what this user may read, and nothing while the user is disabled or deleted.',
    }),
    created_at: DateTime(),
    updated_at: DateTime(),
  },
  { $id: 'WebhookSubscription', examples: [EXAMPLE] },
);
export type WebhookSubscriptionView = Static<typeof WebhookSubscription>;

export const CreateWebhookSubscriptionBody = Type.Object(
  {
    url: Url,
    kinds: Kinds,
    filters: Type.Optional(Filters),
    description: Type.Optional(Description),
  },
  {
    additionalProperties: false,
    examples: [{ url: EXAMPLE.url, kinds: EXAMPLE.kinds, description: EXAMPLE.description }],
  },
);
export type CreateWebhookSubscriptionInput = Static<typeof CreateWebhookSubscriptionBody>;

export const UpdateWebhookSubscriptionBody = Type.Object(
  {
    url: Type.Optional(Url),
    kinds: Type.Optional(Kinds),
    filters: Type.Optional(Filters),
    description: Type.Optional(Nullable(Description)),
    active: Type.Optional(
      Type.Boolean({ description: 'false pauses the deliveries; true resumes them with the events committed from then on (none of the pause).' }),
    ),
  },
  { additionalProperties: false, examples: [{ kinds: ['call.*'], active: false }] },
);
export type UpdateWebhookSubscriptionInput = Static<typeof UpdateWebhookSubscriptionBody>;

export const WebhookSubscriptionParams = Type.Object({ subscription: Uuid() });

/** What the list sorts by (`-field` descending). */
export const SUBSCRIPTION_SORTS = ['created_at', 'url'] as const;

export const WebhookSubscriptionListQuery = ListQuery({
  search: false,
  sort: SUBSCRIPTION_SORTS,
  filters: { active: Type.Boolean({ description: 'true: only active subscriptions; false: only paused ones.' }) },
});
