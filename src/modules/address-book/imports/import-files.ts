/**
 * Where an import's file is read from: the database (`contact_import_files`), so any instance can
 * process an import whatever instance received it; imports made before that keep a path on the
 * uploading instance's disk. The readers (csv-parse streaming, the spreadsheet library) take a
 * path, so a stored file is written to a private temporary file for the duration of one use.
 */
import { randomUUID } from 'node:crypto';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ImportRow } from './contact-imports.presenter.js';
import type { Executor } from '../../../db/database.js';

/** Keeps the uploaded file (already on disk, size-checked) with its import; pass the import's transaction. */
export async function storeImportFile(db: Executor, importId: string, path: string): Promise<void> {
  await db
    .insertInto('contact_import_files')
    .values({ import_id: importId, content: await readFile(path) })
    .execute();
}

/** Runs `use` with a path to the import's file; null when the import has no file any more. */
export async function withImportFile<T>(db: Executor, row: ImportRow, use: (path: string) => Promise<T>): Promise<T | null> {
  const stored = await db.selectFrom('contact_import_files').select('content').where('import_id', '=', row.id).executeTakeFirst();
  if (!stored) return row.stored_path ? use(row.stored_path) : null;
  const path = join(tmpdir(), `pbx-import-${row.id}-${randomUUID()}`);
  await writeFile(path, stored.content, { mode: 0o600 });
  try {
    return await use(path);
  } finally {
    await rm(path, { force: true });
  }
}
