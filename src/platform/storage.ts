import { randomUUID } from 'node:crypto';
import { mkdir, readFile, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.js';

/** The file, in the shared media directory, naming the storage the database belongs with. */
export const STORAGE_MARKER = '.pbx-api-storage';
const SETTING = 'storage_id';

export type StorageState = 'ok' | 'not writable' | 'not shared';

/**
 * Media files (call recordings) live under `DATA_DIR/recordings`, which every instance of one
 * database must share. Checked for readiness: the directory takes a write, and it holds the
 * marker whose id the database records. The first check on a new database writes both; an
 * instance whose directory lacks the marker of its database is not on the shared storage.
 *
 * Several instances' first checks may run at once: the database decides which id wins (one
 * insert), and each candidate's claim file is in the directory before its id can be read from the
 * database and stays until the marker is written, so an instance that reads the winner's id finds
 * the claim or the marker on shared storage, whatever the interleaving, and neither elsewhere.
 */
export async function checkStorage(db: Kysely<DB>, dataDir: string, now: () => string): Promise<StorageState> {
  const dir = join(dataDir, 'recordings');
  try {
    await mkdir(dir, { recursive: true });
    const probe = join(dir, `.probe-${randomUUID()}`);
    await writeFile(probe, '');
    await unlink(probe);
  } catch {
    return 'not writable';
  }
  const recorded = (await recordedStorage(db)) ?? (await claimStorage(db, dir, now));
  if (recorded === null) return 'not shared'; // a directory marked for another database
  return (await holdsMarker(dir, recorded)) ? 'ok' : 'not shared';
}

const recordedStorage = async (db: Kysely<DB>): Promise<string | null> =>
  (await db.selectFrom('settings').select('value').where('key', '=', SETTING).executeTakeFirst())?.value ?? null;

const claimFile = (dir: string, id: string) => join(dir, `${STORAGE_MARKER}-${id}`);

const readMarker = (dir: string): Promise<string | null> =>
  readFile(join(dir, STORAGE_MARKER), 'utf8').then(
    (text) => text.trim() || null,
    () => null,
  );

/** The winner's claim stands for the marker until the marker is written (it is removed only after). */
async function holdsMarker(dir: string, id: string): Promise<boolean> {
  const claimed = await readFile(claimFile(dir, id), 'utf8').then(
    () => true,
    () => false,
  );
  return claimed || (await readMarker(dir)) === id;
}

/**
 * A new database: records an id (this check's, or a concurrent one's that won the insert) and,
 * for the winner, writes the marker. Null when the directory already holds another database's
 * marker (nothing is recorded then, so a corrected DATA_DIR starts afresh).
 */
async function claimStorage(db: Kysely<DB>, dir: string, now: () => string): Promise<string | null> {
  if ((await readMarker(dir)) !== null) return recordedStorage(db); // recorded meanwhile by a concurrent check, or foreign
  const candidate = randomUUID();
  const claim = claimFile(dir, candidate);
  await writeFile(claim, `${candidate}\n`);
  try {
    await db
      .insertInto('settings')
      .values({ key: SETTING, value: candidate, updated_at: now() })
      .onConflict((oc) => oc.column('key').doNothing())
      .execute();
    const recorded = await recordedStorage(db);
    if (recorded === candidate) await writeFile(join(dir, STORAGE_MARKER), `${candidate}\n`, { flag: 'wx' }).catch(() => undefined);
    return recorded;
  } finally {
    await unlink(claim).catch(() => undefined);
  }
}
