import type { AppContext } from '../src/platform/context.js';
import type { SoundFileType } from '../src/modules/routing/routing.tables.js';
import { insertSoundFile } from '../src/modules/routing/sound-files/sound-files.service.js';
import { toneWav } from '../src/modules/routing/sound-files/wav.js';
import { IvrsService } from '../src/modules/routing/ivrs/ivrs.service.js';
import type { TestTenant } from './factories.js';

/** A real (generated) sound file of the tenant. */
export async function createSoundFile(ctx: AppContext, tenant: TestTenant, type: SoundFileType, name = `${type} tone`): Promise<string> {
  const row = await insertSoundFile(ctx.db, tenant, { name, type, language: 'en', content: toneWav({ seconds: 1, frequencyHz: 440 }) }, ctx.clock.now());
  return row.id;
}

/** An IVR with a fresh announcement, through the service. */
export async function createIvr(
  ctx: AppContext,
  tenant: TestTenant,
  fields: { name?: string; default_action?: 'hangup' | 'repeat' | 'default_step' } = {},
): Promise<string> {
  const announcement = await createSoundFile(ctx, tenant, 'announcement');
  const ivr = await new IvrsService(ctx).create(tenant, {
    pbx_id: tenant.pbxId,
    name: fields.name ?? 'Test menu',
    announcement,
    default_action: fields.default_action ?? 'hangup',
  });
  return ivr.id;
}
