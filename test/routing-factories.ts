import { randomUUID } from 'node:crypto';
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

/**
 * A sound file row written straight into its table, as an upload would leave it (no audio behind it):
 * 1.5 s, 1000 bytes, language none unless given.
 */
export async function insertSoundFileRow(
  ctx: AppContext,
  tenant: TestTenant,
  type: SoundFileType,
  fields: { deleted?: boolean; name?: string; language?: string | null } = {},
): Promise<string> {
  const id = randomUUID();
  const now = ctx.clock.now().toISOString();
  await ctx.db
    .insertInto('sound_files')
    .values({
      id,
      pbx_id: tenant.pbxId,
      name: fields.name ?? `${type} ${id.slice(0, 6)}`,
      type,
      language: fields.language ?? null,
      format: 'wav',
      mime_type: 'audio/wav',
      size_bytes: 1000,
      duration_ms: 1500,
      sample_rate: 8000,
      channels: 1,
      checksum_sha256: '0'.repeat(64),
      original_filename: null,
      created_at: now,
      updated_at: now,
      deleted_at: fields.deleted ? now : null,
    })
    .execute();
  return id;
}

/** An IVR row written straight into its table (with a fresh announcement row unless one is given), no steps. */
export async function insertIvrRow(ctx: AppContext, tenant: TestTenant, fields: { announcementId?: string; name?: string } = {}): Promise<string> {
  const id = randomUUID();
  const announcementId = fields.announcementId ?? (await insertSoundFileRow(ctx, tenant, 'announcement'));
  const now = ctx.clock.now().toISOString();
  await ctx.db
    .insertInto('ivrs')
    .values({
      id,
      pbx_id: tenant.pbxId,
      name: fields.name ?? 'Main menu',
      comment: null,
      announcement_id: announcementId,
      music_on_hold_id: null,
      announcement_language: null,
      default_action: 'hangup',
      timeout_seconds: 5,
      max_repeats: 2,
      created_at: now,
      updated_at: now,
    })
    .execute();
  return id;
}

/** A call flow row written straight into its table: entry `start`, a single hangup node, no references. */
export async function insertCallFlowRow(ctx: AppContext, tenant: TestTenant, name = 'Office hours'): Promise<string> {
  const id = randomUUID();
  const now = ctx.clock.now().toISOString();
  await ctx.db
    .insertInto('call_flows')
    .values({
      id,
      pbx_id: tenant.pbxId,
      name,
      description: null,
      entry: 'start',
      nodes: '[{"key":"start","type":"hangup"}]',
      created_at: now,
      updated_at: now,
    })
    .execute();
  return id;
}
