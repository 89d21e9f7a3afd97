import type { OperationDocs } from '../../../http/resource-routes.js';

const WHO = 'Administrators of the PBX only; another PBX’s subscription is 404.';

const DELIVERY =
  'Each event a subscription receives is POSTed to its `url` as a Standard Webhooks message `{type, timestamp, data}`: `type` is the event’s kind and `data` the event itself ' +
  '(`{id, kind, time, tenant, subject: {type, id}, data}`, as on `GET /events/stream`), signed with the PBX’s secret (`GET /webhooks/signing-secret`), retried with back-off and ' +
  'logged in `GET /webhooks/deliveries`. The kinds and their data are described in the AsyncAPI document (`/asyncapi.json`). ' +
  'A subscription receives only the events its owner (`user_id`, the administrator who created it) may read through the API, nothing while the owner is disabled or deleted, ' +
  'and only events committed after it was created (or resumed); messages are not ordered between them.';

/** The OpenAPI text of webhook-subscriptions.routes.ts, by operation id. */
export const WEBHOOK_SUBSCRIPTIONS_DOCS = {
  listWebhookSubscriptions: {
    summary: 'List the PBX’s webhook subscriptions',
    description: `${WHO} Newest first unless \`sort\` says otherwise (created_at, url); \`filter[active]\` narrows to active or paused ones.`,
  },
  createWebhookSubscription: {
    summary: 'Subscribe a URL to live events, delivered as signed webhooks',
    description:
      `${WHO} \`kinds\` names event kinds or prefixes (\`call.*\`); a kind that matches none is 422 naming it. \`filters\` narrows to one subject type or one subject. ` +
      `The URL must be http(s) and resolve to public addresses (422 otherwise). Answers 201 with the subscription. ${DELIVERY}`,
  },
  getWebhookSubscription: {
    summary: 'One webhook subscription',
    description: WHO,
  },
  updateWebhookSubscription: {
    summary: 'Change a webhook subscription, pause or resume it',
    description:
      `${WHO} Changes the fields given, checked as on creation; \`filters\` replaces both filters. \`active: false\` pauses the deliveries; ` +
      '`active: true` resumes them with the events committed from then on (the pause’s events are not delivered). The owner stays the administrator who created it.',
  },
  deleteWebhookSubscription: {
    summary: 'Delete a webhook subscription',
    description: `${WHO} No event is delivered for it any more; messages already queued are still sent and stay in the delivery log.`,
  },
} satisfies OperationDocs;
