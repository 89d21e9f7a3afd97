import { Type } from '@sinclair/typebox';
import type { Executor } from '../../db/database.js';
import { Nullable, StringEnum, Uuid } from '../../http/schema.js';
import type { AppContext } from '../../platform/context.js';
import { defineEventKind, type Audience } from '../../platform/events/index.js';
import type { Tenant } from '../../platform/tenancy.js';
import { IVR_OPTIONS } from './ivrs/ivr-steps.schemas.js';

/**
 * Live events of routing changes: one kind per routed resource (an event's subject has one type),
 * all named `routing.*`. Routing is the tenant's: every user, the PBX key, `call-routing` keys and
 * the PBX server read it (`shared/access.ts`), so they all receive its changes; a client reloads
 * what changed over REST (a deleted one is gone there, hence its name here).
 */
const ACTIONS = ['created', 'updated', 'deleted', 'restored'] as const;
export type RoutingAction = (typeof ACTIONS)[number];

const ROUTING = { pbxKey: true, integrationScope: 'call-routing', pbxServer: true } as const;
const audience: Audience = { scope: 'tenant' };

const action = StringEnum(ACTIONS, { description: 'What happened to it (`deleted`: moved to the trash, `restored`: back from it).' });
const name = Type.String({ description: 'Its name, as it is after the change.' });

export const callFlowChanged = defineEventKind({
  ...ROUTING,
  kind: 'routing.call_flow_changed',
  subject: 'call_flow',
  description: 'A call flow was created, changed, deleted or restored (`GET /call-flows/{callFlow}`).',
  data: Type.Object({ action, name }, { examples: [{ action: 'updated', name: 'Opening hours' }] }),
});

export const queueChanged = defineEventKind({
  ...ROUTING,
  kind: 'routing.queue_changed',
  subject: 'queue',
  description: 'A queue was created, changed (its members included), deleted or restored (`GET /queues/{queue}`).',
  data: Type.Object({ action, name }, { examples: [{ action: 'created', name: 'Support' }] }),
});

const Step = Type.Object(
  { id: Uuid(), option: StringEnum(IVR_OPTIONS), action },
  {
    description:
      'The menu changed through one of its steps (`GET /ivrs/{ivr}/steps/{step}`): which, and what happened to it; null for a change of the menu itself.',
  },
);

export const ivrChanged = defineEventKind({
  ...ROUTING,
  kind: 'routing.ivr_changed',
  subject: 'ivr',
  description: 'An IVR menu, or one of its steps, was created, changed, deleted or restored (`GET /ivrs/{ivr}`, whose answer lists its steps).',
  data: Type.Object(
    { action, name, step: Nullable(Step) },
    {
      examples: [
        { action: 'updated', name: 'Main menu', step: { id: '9b1c4c1e-33b5-4c1f-a1f0-7f7a1d2f4e11', option: '1', action: 'created' } },
        { action: 'deleted', name: 'Holiday menu', step: null },
      ],
    },
  ),
});

export type RoutingChange =
  | { type: 'call_flow' | 'queue'; id: string; action: RoutingAction; name: string }
  | { type: 'ivr'; id: string; action: RoutingAction; name: string; step?: { id: string; option: string; action: RoutingAction } };

const KINDS = { call_flow: callFlowChanged, queue: queueChanged, ivr: ivrChanged };

/** The change's event, in the routing write's transaction once its checks passed (guardedRoutingWrite). */
export async function publishRoutingChange(ctx: AppContext, trx: Executor, tenant: Tenant, change: RoutingChange): Promise<void> {
  const data = { action: change.action, name: change.name, ...(change.type === 'ivr' ? { step: change.step ?? null } : {}) };
  await ctx.events.publish(trx, { pbxId: tenant.pbxId, kind: KINDS[change.type].kind, subject: { type: change.type, id: change.id }, audience, data });
}
