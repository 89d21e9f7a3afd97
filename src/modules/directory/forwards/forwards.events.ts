import { Type } from '@sinclair/typebox';
import { Embedded, Uuid } from '../../../http/schema.js';
import type { Executor } from '../../../db/database.js';
import type { AppContext } from '../../../platform/context.js';
import { defineEventKind } from '../../../platform/events/index.js';
import type { Tenant } from '../../../platform/tenancy.js';
import { USER_STATE_KIND, userStateAudience } from '../shared/user-state.js';
import { presentForward } from './forwards.presenter.js';
import { listForwards } from './forwards.queries.js';
import { Forward } from './forwards.schemas.js';

export const forwardChanged = defineEventKind({
  ...USER_STATE_KIND,
  kind: 'user.forward_changed',
  description: 'A user’s call forwards changed (one created, changed, switched on or off, deleted): all its forwards as they are now.',
  data: Type.Object(
    {
      user_id: Uuid(),
      forwards: Type.Array(Embedded(Forward), { description: 'Every forward of the user, as `GET /users/{user}/forwards` lists them.' }),
    },
    {
      examples: [
        {
          user_id: 'cc54d4ae-8057-438f-8cd8-f22406bd64cd',
          forwards: [
            {
              id: '4e53fb36-c371-480b-9172-b1e6cde5f727',
              user_id: 'cc54d4ae-8057-438f-8cd8-f22406bd64cd',
              type: 'no_answer',
              destination_type: 'voicemail',
              destination: null,
              delay: 25,
              enabled: true,
              created_at: '2026-11-02T08:30:00.000Z',
              updated_at: '2026-11-02T08:30:00.000Z',
            },
          ],
        },
      ],
    },
  ),
});

/** `user.forward_changed` with the user's forwards as the change left them, in its transaction (late: after the write). */
export async function publishForwardChanged(ctx: AppContext, trx: Executor, tenant: Tenant, userId: string): Promise<void> {
  const forwards = (await listForwards(trx, tenant, userId, {})).map(presentForward);
  await ctx.events.publish(trx, {
    pbxId: tenant.pbxId,
    kind: forwardChanged,
    subject: { type: 'user', id: userId },
    audience: userStateAudience(userId),
    data: { user_id: userId, forwards },
  });
}
