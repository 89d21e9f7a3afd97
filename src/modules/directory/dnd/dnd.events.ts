import { Type } from '@sinclair/typebox';
import { Embedded, Uuid } from '../../../http/schema.js';
import type { Executor } from '../../../db/database.js';
import type { AppContext } from '../../../platform/context.js';
import { defineEventKind } from '../../../platform/events/index.js';
import type { Tenant } from '../../../platform/tenancy.js';
import { USER_STATE_KIND, userStateAudience } from '../shared/user-state.js';
import { presentDnd } from './dnd.presenter.js';
import { listDnds } from './dnd.queries.js';
import { DndRule } from './dnd.schemas.js';

export const dndChanged = defineEventKind({
  ...USER_STATE_KIND,
  kind: 'user.dnd_changed',
  description: 'A user’s do-not-disturb rules changed (created, switched on or off, replaced, deleted): all its rules as they are now.',
  data: Type.Object(
    {
      user_id: Uuid(),
      dnd: Type.Boolean({ description: 'Whether any of the user’s rules is on.' }),
      rules: Type.Array(Embedded(DndRule), { description: 'Every rule of the user, as `GET /users/{user}/dnds` lists them.' }),
    },
    {
      examples: [
        {
          user_id: 'cc54d4ae-8057-438f-8cd8-f22406bd64cd',
          dnd: true,
          rules: [
            {
              id: '222e09c2-15b7-4ca8-a739-f331e7d1f288',
              user_id: 'cc54d4ae-8057-438f-8cd8-f22406bd64cd',
              type: 'internal',
              caller_identity_id: null,
              extension_id: null,
              status: true,
            },
          ],
        },
      ],
    },
  ),
});

/** `user.dnd_changed` with the user's rules as the change left them, in its transaction (late: after the write). */
export async function publishDndChanged(ctx: AppContext, trx: Executor, tenant: Tenant, userId: string): Promise<void> {
  const rules = (await listDnds(trx, tenant, userId)).map(presentDnd);
  await ctx.events.publish(trx, {
    pbxId: tenant.pbxId,
    kind: dndChanged,
    subject: { type: 'user', id: userId },
    audience: userStateAudience(userId),
    data: { user_id: userId, dnd: rules.some((rule) => rule.status), rules },
  });
}
