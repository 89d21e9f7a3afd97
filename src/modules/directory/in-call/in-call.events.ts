import { Embedded } from '../../../http/schema.js';
import { defineEventKind } from '../../../platform/events/index.js';
import { USER_STATE_KIND } from '../shared/user-state.js';
import { InCallState } from './in-call.schemas.js';

/**
 * The in-call flag is what the user's client reports (`POST /in-call`); each report replaces the
 * last and restarts its window, so each is an event. A report that runs out reads as not in a
 * call without any write, so it has no event: `expires_at` says when.
 */
export const inCallChanged = defineEventKind({
  ...USER_STATE_KIND,
  kind: 'user.in_call_changed',
  description:
    'A user’s client reported whether the user is on a call (`POST /in-call`): the flag as it now reads, trusted until `expires_at` (then false, without another event).',
  data: {
    ...Embedded(InCallState),
    examples: [
      {
        user_id: 'e84e9823-c8fa-4b5e-982c-30baaf0f0efc',
        in_call: true,
        in_call_updated_at: '2026-11-26T09:55:31.000Z',
        expires_at: '2026-11-26T10:55:31.000Z',
        ttl_seconds: 3600,
      },
    ],
  },
});
