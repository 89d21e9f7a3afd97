import { mkdir, realpath, rename, rm, stat } from 'node:fs/promises';
import { extname, join, resolve, sep } from 'node:path';
import type { Readable } from 'node:stream';
import { randomBytes } from 'node:crypto';
import { ClientError, ValidationFailed } from '../../../platform/errors.js';
import { saveUpload } from '../../../http/uploads.js';
import type { RecordingKind } from '../calls.tables.js';

/** Audio formats a recording may be uploaded in, by extension. */
export const RECORDING_TYPES: Record<string, string> = { '.wav': 'audio/wav', '.mp3': 'audio/mpeg', '.ogg': 'audio/ogg', '.opus': 'audio/ogg' };
export const RECORDING_MAX_BYTES = 200 * 1024 * 1024;

/** `<dataDir>/recordings/<pbx_id>`: every recording of a tenant lives below it, nothing else does. */
export function recordingsRoot(dataDir: string, pbxId: string): string {
  return resolve(dataDir, 'recordings', pbxId);
}

/** Where a recording of a call is kept, relative to the tenant's root: `YYYY/MM/<cdr_id>-<kind>.<ext>`. */
export function recordingRelativePath(startTime: string, cdrId: string | number, kind: RecordingKind, extension: string): string {
  return `${startTime.slice(0, 4)}/${startTime.slice(5, 7)}/${cdrId}-${kind}${extension}`;
}

/**
 * The absolute file of a relative recording path, or null when the path would leave the tenant's
 * root: `..` segments, absolute paths, backslashes and NUL are refused before touching the disk,
 * and the resolved real path (symbolic links followed) must still lie inside the root.
 */
export async function resolveRecordingFile(root: string, relative: string): Promise<string | null> {
  if (!relative || relative.includes('\0') || relative.includes('\\') || relative.startsWith('/')) return null;
  if (relative.split('/').some((segment) => segment === '..' || segment === '.' || segment === '')) return null;
  const candidate = resolve(root, relative);
  if (!candidate.startsWith(root + sep)) return null;
  try {
    const [realRoot, realFile] = await Promise.all([realpath(root), realpath(candidate)]);
    return realFile.startsWith(realRoot + sep) ? realFile : null;
  } catch {
    return null;
  }
}

export function assertSafeRelativePath(relative: string): void {
  if (relative.split('/').some((segment) => segment === '..' || segment === '.' || segment === '')) {
    throw ValidationFailed.field('path', 'The path is not a recording path.');
  }
}

/** An upload written to a temporary file next to its final place, not yet visible. */
export interface StagedRecording {
  relative: string;
  temporary: string;
  size: number;
}

/**
 * Streams an upload (the multipart `field`) to a temporary file beside its place; a failed, broken
 * off (422) or too large (413) upload leaves nothing behind.
 */
export async function stageRecording(root: string, relative: string, source: Readable, field: string): Promise<StagedRecording> {
  const target = join(root, relative);
  await mkdir(join(target, '..'), { recursive: true });
  const temporary = `${target}.${randomBytes(6).toString('hex')}.part`;
  try {
    await saveUpload(source, temporary, field);
    // The multipart reader stops a file at its size limit and marks it truncated.
    if ((source as Readable & { truncated?: boolean }).truncated) throw new ClientError(413, `The ${field} file is larger than ${RECORDING_MAX_BYTES} bytes.`);
    return { relative, temporary, size: (await stat(temporary)).size };
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}

/** Moves a staged upload to its place (replacing an earlier upload of the same recording). */
export async function commitRecording(root: string, staged: StagedRecording): Promise<void> {
  await rename(staged.temporary, join(root, staged.relative));
}

export async function discardRecording(staged: StagedRecording): Promise<void> {
  await rm(staged.temporary, { force: true });
}

export function contentTypeOf(fileName: string): string | null {
  return RECORDING_TYPES[extname(fileName).toLowerCase()] ?? null;
}
