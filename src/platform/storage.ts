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
  const marker = await readFile(join(dir, STORAGE_MARKER), 'utf8').then(
    (text) => text.trim(),
    () => null,
  );
  let recorded = (await db.selectFrom('settings').select('value').where('key', '=', SETTING).executeTakeFirst())?.value;
  if (!recorded) {
    if (marker) return 'not shared'; // a directory marked for another database
    await db
      .insertInto('settings')
      .values({ key: SETTING, value: randomUUID(), updated_at: now() })
      .onConflict((oc) => oc.column('key').doNothing())
      .execute();
    recorded = (await db.selectFrom('settings').select('value').where('key', '=', SETTING).executeTakeFirstOrThrow()).value;
    await writeFile(join(dir, STORAGE_MARKER), `${recorded}\n`, { flag: 'wx' }).catch(() => undefined);
    return (await readFile(join(dir, STORAGE_MARKER), 'utf8')).trim() === recorded ? 'ok' : 'not shared';
  }
  return marker === recorded ? 'ok' : 'not shared';
}
