import type { Executor } from '../../../db/database.js';
import { Embedded } from '../../../http/schema.js';
import type { AppContext } from '../../../platform/context.js';
import { defineEventKind, type Audience } from '../../../platform/events/index.js';
import type { Tenant } from '../../../platform/tenancy.js';
import { presentPush, type PushRow } from '../config-push.presenter.js';
import { ConfigurationPush } from '../config-push.schemas.js';

/**
 * A push's progress, each change of its status: `queued` (accepted, or waiting for another attempt
 * after the PBX could not be reached: `reason` says why), `delivering`, `reloading`, then `done` or
 * `failed` (with `reason`). For those who read it (`GET /pbx/configuration/pushes/{push}`): the
 * administrators and `push-configuration` keys.
 */
export const pushProgress = defineEventKind({
  kind: 'configuration.push_progress',
  subject: 'configuration_push',
  description:
    'A configuration push moved on: queued (accepted, or queued again after the PBX could not be reached, with the `reason`), delivering, reloading, done or failed (with the `reason`). The push as `GET /pbx/configuration/pushes/{push}` shows it.',
  data: Embedded(ConfigurationPush),
  pbxKey: false,
  integrationScope: 'push-configuration',
});

const pushAudience: Audience = { scope: 'admins' };

/** The push's progress event, in the transaction that changed its status (late: after the change). */
export async function publishPushProgress(ctx: AppContext, trx: Executor, tenant: Tenant, push: PushRow): Promise<void> {
  await ctx.events.publish(trx, {
    pbxId: tenant.pbxId,
    kind: pushProgress,
    subject: { type: 'configuration_push', id: push.id },
    audience: pushAudience,
    data: presentPush(push),
  });
}
