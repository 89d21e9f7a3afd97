import { Type, type Static } from '@sinclair/typebox';
import type { Kysely } from 'kysely';
import type { DB } from '../../../db/schema.js';
import { StringEnum, Nullable, Uuid } from '../../../http/schema.js';
import { ValidationFailed } from '../../../platform/errors.js';
import type { Tenant } from '../../../platform/tenancy.js';
import type { SoundFileType } from '../routing.tables.js';

export const SOUND_FILE_TYPES = ['announcement', 'music'] as const;

/** A sound file as other routing resources embed it (`include=announcement`). */
export const SoundFileSummary = Type.Object({
  id: Uuid(),
  name: Type.String(),
  type: StringEnum(SOUND_FILE_TYPES),
  language: Nullable(Type.String()),
  duration_ms: Type.Integer(),
});
export type SoundFileSummaryView = Static<typeof SoundFileSummary>;

/** 422 on `field` unless `id` is a live sound file of the PBX of the given type. */
export async function assertSoundFile(db: Kysely<DB>, tenant: Tenant, id: string, type: SoundFileType, field: string): Promise<void> {
  const row = await db
    .selectFrom('sound_files')
    .select(['type'])
    .where('id', '=', id)
    .where('pbx_id', '=', tenant.pbxId)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  if (!row) throw ValidationFailed.field(field, `The selected ${field.replace(/_/g, ' ')} is invalid.`);
  if (row.type !== type) throw ValidationFailed.field(field, `The ${field.replace(/_/g, ' ')} must be a sound file of type ${type}.`);
}

/** Summaries of the tenant's sound files by id (deleted ones included: a reference may outlive them). */
export async function soundFileSummaries(db: Kysely<DB>, tenant: Tenant, ids: Array<string | null>): Promise<Map<string, SoundFileSummaryView>> {
  const wanted = [...new Set(ids.filter((id): id is string => !!id))];
  if (wanted.length === 0) return new Map();
  const rows = await db
    .selectFrom('sound_files')
    .select(['id', 'name', 'type', 'language', 'duration_ms'])
    .where('pbx_id', '=', tenant.pbxId)
    .where('id', 'in', wanted)
    .execute();
  return new Map(rows.map((row) => [row.id, row]));
}

/**
 * For `include=announcement` and/or `include=musicOnHold`: the summaries of the rows' sound files, read
 * in one query, as a lookup by id (null for no id or an unknown one). Reads nothing when neither is asked.
 */
export async function includedSounds(
  db: Kysely<DB>,
  tenant: Tenant,
  rows: ReadonlyArray<{ announcement_id: string | null; music_on_hold_id: string | null }>,
  include: ReadonlySet<string>,
): Promise<(id: string | null) => SoundFileSummaryView | null> {
  const sounds =
    include.has('announcement') || include.has('musicOnHold')
      ? await soundFileSummaries(
          db,
          tenant,
          rows.flatMap((row) => [row.announcement_id, row.music_on_hold_id]),
        )
      : new Map<string, SoundFileSummaryView>();
  return (id) => (id ? (sounds.get(id) ?? null) : null);
}
