import type { AppContext } from '../src/platform/context.js';
import { markDeleted } from '../src/db/soft-delete.js';
import type { SoundFileType } from '../src/modules/routing/routing.tables.js';
import { insertSoundFile } from '../src/modules/routing/sound-files/sound-files.service.js';
import { toneWav } from '../src/modules/routing/sound-files/wav.js';
import { IvrsService } from '../src/modules/routing/ivrs/ivrs.service.js';
import { CallFlowsService } from '../src/modules/routing/call-flows/call-flows.service.js';
import type { TestTenant } from './factories.js';

/**
 * One factory per routing noun, each through the code an upload or an administrator's create runs
 * (the checks, the conversion, the routing graph), so a fixture is a row the API could have made.
 */

/** A sound file of the tenant: a real 1.5 s, 8 kHz tone (duration_ms 1500), language none unless given; trashed when `deleted`. */
export async function createSoundFile(
  ctx: AppContext,
  tenant: TestTenant,
  type: SoundFileType,
  fields: { name?: string; language?: string | null; deleted?: boolean } = {},
): Promise<string> {
  const content = toneWav({ seconds: 1.5, frequencyHz: 440 });
  const row = await insertSoundFile(ctx.db, tenant, { name: fields.name ?? `${type} tone`, type, language: fields.language ?? null, content }, ctx.clock.now());
  if (fields.deleted) await markDeleted(ctx.db, 'sound_files', { pbxId: tenant.pbxId, id: row.id, now: ctx.clock.now() });
  return row.id;
}

/** An IVR (hang up on timeout, no steps) announcing `announcementId`, or a fresh announcement. */
export async function createIvr(
  ctx: AppContext,
  tenant: TestTenant,
  fields: { name?: string; announcementId?: string; default_action?: 'hangup' | 'repeat' | 'default_step' } = {},
): Promise<string> {
  const announcement = fields.announcementId ?? (await createSoundFile(ctx, tenant, 'announcement'));
  const ivr = await new IvrsService(ctx).create(tenant, {
    pbx_id: tenant.pbxId,
    name: fields.name ?? 'Main menu',
    announcement,
    default_action: fields.default_action ?? 'hangup',
  });
  return ivr.id;
}

/** A call flow that hangs up (entry `start`), referring to nothing. */
export async function createCallFlow(ctx: AppContext, tenant: TestTenant, name = 'Office hours'): Promise<string> {
  const flow = await new CallFlowsService(ctx).create(tenant, { name, entry: 'start', nodes: [{ key: 'start', type: 'hangup' }] });
  return flow.id;
}
