import { sql, type Insertable, type Selectable, type Updateable } from 'kysely';
import { pagedQuery, type PageRequest, type SortTerm } from '../../../db/paging.js';
import { matchesPattern, searchPattern } from '../../../db/search.js';
import { trashedScope, type TrashedFilter } from '../../../db/soft-delete.js';
import type { Tenant } from '../../../platform/tenancy.js';
import type { SoundFileTable, SoundFileType } from '../routing.tables.js';
import type { Executor } from '../../../db/database.js';

export type SoundFileRow = Selectable<SoundFileTable>;

export interface SoundFileFilters {
  search?: string;
  type?: SoundFileType;
  language?: string;
  trashed?: TrashedFilter;
}

/** What selects sound files: the tenant, and each filter that is set (`search` as a pattern). */
interface SoundFileScope {
  pbxId: string;
  search?: string;
  type?: SoundFileType;
  language?: string;
  trashed?: TrashedFilter;
}

function soundFilesOf(db: Executor, scope: SoundFileScope) {
  let query = trashedScope(db.selectFrom('sound_files').where('pbx_id', '=', scope.pbxId), scope.trashed);
  if (scope.search) query = query.where(matchesPattern(['name'], scope.search));
  if (scope.type) query = query.where('type', '=', scope.type);
  if (scope.language) query = query.where('language', '=', scope.language);
  return query;
}

const soundFilePage = pagedQuery({ scoped: soundFilesOf, columns: (query) => query.selectAll(), choices: ['trashed'] });

export function listSoundFiles(db: Executor, tenant: Tenant, filters: SoundFileFilters, sort: SortTerm[], page: PageRequest) {
  return soundFilePage(db, { pbxId: tenant.pbxId, ...filters, search: searchPattern(filters.search) }, sort, page);
}

export function findSoundFile(db: Executor, tenant: Tenant, id: string, options: { withTrashed?: boolean } = {}): Promise<SoundFileRow | undefined> {
  return soundFilesOf(db, { pbxId: tenant.pbxId, trashed: options.withTrashed ? 'with' : 'without' })
    .selectAll()
    .where('id', '=', id)
    .executeTakeFirst();
}

/** The audio of a live sound file of the tenant, with what its download answers name. */
export function findSoundFileContent(db: Executor, tenant: Tenant, id: string) {
  return db
    .selectFrom('sound_files')
    .innerJoin('sound_file_contents', 'sound_file_contents.sound_file_id', 'sound_files.id')
    .select([
      'sound_files.name',
      'sound_files.format',
      'sound_files.mime_type',
      'sound_files.checksum_sha256',
      'sound_files.original_filename',
      'sound_file_contents.content',
    ])
    .where('sound_files.pbx_id', '=', tenant.pbxId)
    .where('sound_files.id', '=', id)
    .where('sound_files.deleted_at', 'is', null)
    .executeTakeFirst();
}

/** The playable audio of a live sound file of the tenant (null: not converted yet), with its checksum and name. */
export function findSoundFilePlayable(db: Executor, tenant: Tenant, id: string) {
  return db
    .selectFrom('sound_files')
    .innerJoin('sound_file_contents', 'sound_file_contents.sound_file_id', 'sound_files.id')
    .select(['sound_files.id', 'sound_files.playable_checksum_sha256', 'sound_file_contents.playable'])
    .where('sound_files.pbx_id', '=', tenant.pbxId)
    .where('sound_files.id', '=', id)
    .where('sound_files.deleted_at', 'is', null)
    .executeTakeFirst();
}

/** The audio as uploaded (`content`) or as the PBX plays it (`playable`). */
export type SoundFileAudio = 'content' | 'playable';

/**
 * What a range read needs before it reads any audio: the names and checksums its answer carries,
 * and the size in bytes of the original and of the playable version (null: not converted yet).
 * `length()` of a blob (SQLite) or bytea (PostgreSQL) is read from the value's header: the audio
 * itself is not loaded.
 */
export function findSoundFileAudioFacts(db: Executor, tenant: Tenant, id: string) {
  return db
    .selectFrom('sound_files')
    .innerJoin('sound_file_contents', 'sound_file_contents.sound_file_id', 'sound_files.id')
    .select([
      'sound_files.id',
      'sound_files.name',
      'sound_files.format',
      'sound_files.mime_type',
      'sound_files.checksum_sha256',
      'sound_files.original_filename',
      'sound_files.playable_checksum_sha256',
      sql<number>`length(${sql.ref('sound_file_contents.content')})`.as('content_size'),
      sql<number | null>`length(${sql.ref('sound_file_contents.playable')})`.as('playable_size'),
    ])
    .where('sound_files.pbx_id', '=', tenant.pbxId)
    .where('sound_files.id', '=', id)
    .where('sound_files.deleted_at', 'is', null)
    .executeTakeFirst();
}

/**
 * Bytes `start` to `end` (inclusive, 0-based) of a live sound file's audio, cut by the database
 * (`substr` takes blobs on SQLite and bytea on PostgreSQL, 1-based), so only the range leaves it;
 * undefined when the audio is no longer the one whose checksum is `checksum` (replaced or deleted
 * since its size was read).
 */
export async function readSoundFileBytes(
  db: Executor,
  tenant: Tenant,
  id: string,
  audio: SoundFileAudio,
  checksum: string,
  range: { start: number; end: number },
): Promise<Buffer | undefined> {
  const row = await db
    .selectFrom('sound_files')
    .innerJoin('sound_file_contents', 'sound_file_contents.sound_file_id', 'sound_files.id')
    .select(sql<Buffer>`substr(${sql.ref(`sound_file_contents.${audio}`)}, ${range.start + 1}, ${range.end - range.start + 1})`.as('bytes'))
    .where('sound_files.pbx_id', '=', tenant.pbxId)
    .where('sound_files.id', '=', id)
    .where('sound_files.deleted_at', 'is', null)
    .where(audio === 'content' ? 'sound_files.checksum_sha256' : 'sound_files.playable_checksum_sha256', '=', checksum)
    .executeTakeFirst();
  return row && Buffer.from(row.bytes.buffer, row.bytes.byteOffset, row.bytes.byteLength);
}

/** The metadata row and its audio, the original and the playable; pass one transaction so neither exists without the other. */
export async function insertSoundFileRows(db: Executor, row: Insertable<SoundFileTable>, content: Buffer, playable: Buffer): Promise<void> {
  await db.insertInto('sound_files').values(row).execute();
  await db.insertInto('sound_file_contents').values({ sound_file_id: row.id, content, playable }).execute();
}

export async function updateSoundFile(db: Executor, tenant: Tenant, id: string, changes: Updateable<SoundFileTable>): Promise<void> {
  await db.updateTable('sound_files').set(changes).where('pbx_id', '=', tenant.pbxId).where('id', '=', id).execute();
}

export async function replaceSoundFileContent(db: Executor, id: string, content: Buffer, playable: Buffer): Promise<void> {
  await db.updateTable('sound_file_contents').set({ content, playable }).where('sound_file_id', '=', id).execute();
}

/**
 * Stores the playable version converted from the original whose checksum was `fromChecksum`; false
 * (nothing written) when the audio was replaced meanwhile. Pass a transaction.
 */
export async function savePlayable(
  db: Executor,
  tenant: Tenant,
  id: string,
  fromChecksum: string,
  playable: { content: Buffer; checksum_sha256: string },
): Promise<boolean> {
  const updated = await db
    .updateTable('sound_files')
    .set({ playable_checksum_sha256: playable.checksum_sha256 })
    .where('pbx_id', '=', tenant.pbxId)
    .where('id', '=', id)
    .where('checksum_sha256', '=', fromChecksum)
    .executeTakeFirst();
  if (Number(updated.numUpdatedRows) === 0) return false;
  await db.updateTable('sound_file_contents').set({ playable: playable.content }).where('sound_file_id', '=', id).execute();
  return true;
}

/** Deletes the file for good: its audio, then its row. */
export async function purgeSoundFile(db: Executor, tenant: Tenant, id: string): Promise<void> {
  await db
    .deleteFrom('sound_file_contents')
    .where('sound_file_id', 'in', db.selectFrom('sound_files').select('id').where('pbx_id', '=', tenant.pbxId).where('id', '=', id))
    .execute();
  await db.deleteFrom('sound_files').where('pbx_id', '=', tenant.pbxId).where('id', '=', id).execute();
}
