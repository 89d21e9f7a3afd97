import { randomUUID } from 'node:crypto';
import { readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import type { Updateable } from 'kysely';
import type { Executor } from '../../../db/database.js';
import type { PageRequest, SortTerm } from '../../../db/paging.js';
import { parseByteRange, type ByteRange } from '../../../http/byte-range.js';
import { restore, softDelete } from '../../../platform/soft-delete.js';
import { pbxTextProblem, saveUpload, type UploadPart } from '../../../http/uploads.js';
import type { AppContext } from '../../../platform/context.js';
import { ClientError, NotFound, ValidationFailed, type FieldErrors } from '../../../platform/errors.js';
import { refuseWhileUsed } from '../../../platform/references.js';
import { compactId } from '../../../platform/pbx-names.js';
import type { Tenant } from '../../../platform/tenancy.js';
import type { SoundFileTable, SoundFileType } from '../routing.tables.js';
import { ANNOUNCEMENT_LANGUAGES } from '../shared/languages.js';
import { SOUND_FILE_TYPES } from '../shared/sound-refs.js';
import { routingUsages } from '../usages.js';
import { assertDurationFits, inspectAudio, type AudioFacts } from './audio.js';
import { PLAYABLE_MIME_TYPE, toPlayableWav, type PlayableAudio } from './playable.js';
import {
  findSoundFile,
  findSoundFileAudioFacts,
  findSoundFileContent,
  findSoundFilePlayable,
  insertSoundFileRows,
  listSoundFiles,
  purgeSoundFile,
  readSoundFileBytes,
  replaceSoundFileContent,
  savePlayable,
  updateSoundFile,
  type SoundFileAudio,
  type SoundFileFilters,
  type SoundFileRow,
} from './sound-files.queries.js';
import type { UpdateSoundFileInput } from './sound-files.schemas.js';

export type { SoundFileRow };
const NOT_FOUND = 'Sound file not found.';

export interface NewSoundFile {
  name: string;
  type: SoundFileType;
  language: string | null;
  content: Buffer;
  originalFilename?: string | null;
}

/**
 * What an upload's audio is, read and checked (415/422 for what is not a WAV (PCM) or MP3, 422 when
 * too long for the type or when it cannot be converted), and its version the PBX plays.
 */
async function readUpload(content: Buffer, type: SoundFileType): Promise<{ facts: AudioFacts; playable: PlayableAudio }> {
  const facts = await inspectAudio(content, 'file');
  assertDurationFits(facts.duration_ms, type, 'file');
  return { facts, playable: await toPlayableWav(content, facts.format, 'file') };
}

/**
 * Reads the audio as an upload is read, converts it to what the PBX plays, and stores the metadata,
 * the original and the playable version together. Used by the upload and by the demo seed; inside
 * a transaction when given one.
 */
export async function insertSoundFile(db: Executor, tenant: Tenant, file: NewSoundFile, now: Date | string): Promise<SoundFileRow> {
  const { facts, playable } = await readUpload(file.content, file.type);
  const at = typeof now === 'string' ? now : now.toISOString();
  const row = {
    id: randomUUID(),
    pbx_id: tenant.pbxId,
    name: file.name,
    type: file.type,
    language: file.language,
    ...facts,
    playable_checksum_sha256: playable.checksum_sha256,
    original_filename: file.originalFilename ?? null,
    created_at: at,
    updated_at: at,
  };
  if (db.isTransaction) await insertSoundFileRows(db, row, file.content, playable.content);
  else await db.transaction().execute((trx) => insertSoundFileRows(trx, row, file.content, playable.content));
  return { ...row, deleted_at: null };
}

/** A file name as sent by a browser (some send a whole path), kept to what the column holds. */
function baseName(filename: string): string | null {
  const name = filename.split(/[\\/]/).pop()?.trim() ?? '';
  return name ? name.slice(0, 255) : null;
}

/** The playable audio's file name: the name it has on the PBX. */
function playableName(id: string): string {
  return `${compactId(id) ?? id}.wav`;
}

/** The download's `Content-Disposition`: an ASCII name for every client, the exact one in `filename*`. */
export function attachmentDisposition(filename: string): string {
  const ascii = filename.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(filename)}`;
}

export interface RangeHeaders {
  range?: string;
  ifRange?: string;
}

/**
 * The one byte range asked of `size` bytes whose ETag is `etag`: null to send everything (no Range,
 * or an `If-Range` that does not name the current content), 416 when it lies outside the file.
 */
function rangeOf(headers: RangeHeaders, etag: string, size: number): ByteRange | null {
  const rangeHeader = headers.ifRange === undefined || headers.ifRange.trim() === etag ? headers.range : undefined;
  const range = parseByteRange(rangeHeader, size);
  if (range === 'unsatisfiable') {
    const error = new ClientError(416, 'The requested range is not satisfiable.');
    error.headers['content-range'] = `bytes */${size}`;
    throw error;
  }
  return range;
}

/** Audio held in memory, to send whole or the one byte range asked (416 outside it). */
function answer(content: Buffer, checksum: string, mimeType: string, filename: string, headers: RangeHeaders): SoundFileDownload {
  const etag = `"${checksum}"`;
  const range = rangeOf(headers, etag, content.length);
  return { body: range ? content.subarray(range.start, range.end + 1) : content, mimeType, size: content.length, etag, filename, range };
}

/** Stored audio as a range read knows it before reading any of it. */
interface StoredAudio {
  checksum: string;
  size: number;
  mimeType: string;
  filename: string;
}

export interface SoundFileDownload {
  /** What is sent: the whole audio, or the bytes of `range`. */
  body: Buffer;
  mimeType: string;
  /** The size of the whole audio. */
  size: number;
  etag: string;
  filename: string;
  range: ByteRange | null;
}

/** Announcements and music on hold of the PBX: metadata read from the audio, the bytes stored beside it. */
export class SoundFilesService {
  constructor(private readonly ctx: AppContext) {}

  list(tenant: Tenant, filters: SoundFileFilters, sort: SortTerm[], page: PageRequest) {
    return listSoundFiles(this.ctx.db, tenant, filters, sort, page);
  }

  async get(tenant: Tenant, id: string, options: { withTrashed?: boolean } = {}): Promise<SoundFileRow> {
    const row = await findSoundFile(this.ctx.db, tenant, id, options);
    if (!row) throw new NotFound(NOT_FOUND);
    return row;
  }

  /** `POST /sound-files`: the `file` part with `name`, `type` and optional `language` fields. */
  async upload(tenant: Tenant, parts: AsyncIterable<UploadPart>): Promise<SoundFileRow> {
    const { fields, file } = await this.readParts(parts, ['name', 'type', 'language']);
    const errors: FieldErrors = {};
    const fail = (field: string, message: string) => (errors[field] ??= []).push(message);
    const name = fields.name?.trim() ?? '';
    const nameProblem = pbxTextProblem(fields.name, 'name');
    if (name === '') fail('name', 'The name field is required.');
    else if (nameProblem) fail('name', nameProblem);
    else if (name.length > 128) fail('name', 'The name field must not be greater than 128 characters.');
    const type = fields.type?.trim() ?? '';
    if (type === '') fail('type', 'The type field is required.');
    else if (!isSoundFileType(type)) fail('type', `The selected type is invalid (${SOUND_FILE_TYPES.join(', ')}).`);
    const language = this.languageOf(fields.language, fail);
    if (!file) fail('file', 'The file field is required.');
    if (Object.keys(errors).length > 0 || !file || !isSoundFileType(type)) throw new ValidationFailed(errors);
    return insertSoundFile(this.ctx.db, tenant, { name, type, language, content: file.content, originalFilename: file.filename }, this.ctx.clock.now());
  }

  /** `PUT /sound-files/{id}/content`: new audio for the same sound file, checked and converted as an upload is. */
  async replaceContent(tenant: Tenant, id: string, parts: AsyncIterable<UploadPart>): Promise<SoundFileRow> {
    const { file } = await this.readParts(parts, []);
    const row = await this.get(tenant, id);
    if (!file) throw ValidationFailed.field('file', 'The file field is required.');
    const { facts, playable } = await readUpload(file.content, row.type);
    await this.ctx.db.transaction().execute(async (trx) => {
      await updateSoundFile(trx, tenant, id, {
        ...facts,
        playable_checksum_sha256: playable.checksum_sha256,
        original_filename: file.filename,
        updated_at: this.ctx.clock.now().toISOString(),
      });
      await replaceSoundFileContent(trx, id, file.content, playable.content);
    });
    return this.get(tenant, id);
  }

  async update(tenant: Tenant, id: string, body: UpdateSoundFileInput): Promise<SoundFileRow> {
    const row = await this.get(tenant, id);
    const changes: Updateable<SoundFileTable> = { updated_at: this.ctx.clock.now().toISOString() };
    if (body.name !== undefined) {
      if (body.name.trim() === '') throw ValidationFailed.field('name', 'The name field is required.');
      changes.name = body.name.trim();
    }
    if (body.language !== undefined) changes.language = body.language;
    if (body.type !== undefined && body.type !== row.type) {
      const usages = await routingUsages(this.ctx.db, tenant, 'sound_file', id);
      if (usages.length > 0) {
        const users = usages.map((usage) => `${usage.type.replace(/_/g, ' ')} "${usage.name}"`).join(', ');
        throw ValidationFailed.field('type', `The type cannot change while the sound file is used by ${users}.`, { used_by: usages });
      }
      assertDurationFits(row.duration_ms, body.type, 'type');
      changes.type = body.type;
    }
    await updateSoundFile(this.ctx.db, tenant, id, changes);
    return this.get(tenant, id);
  }

  /** Soft delete, allowed while used (graph validation reports the dangling reference); permanent: refused with 409 while used. */
  async remove(tenant: Tenant, id: string, permanent: boolean): Promise<void> {
    if (!permanent) return softDelete(this.ctx.db, this.ctx.clock, 'sound_files', tenant, id, NOT_FOUND);
    await this.get(tenant, id, { withTrashed: true });
    await refuseWhileUsed(this.ctx.db, tenant, 'sound_file', id, 'sound file');
    await this.ctx.db.transaction().execute((trx) => purgeSoundFile(trx, tenant, id));
  }

  async restore(tenant: Tenant, id: string): Promise<SoundFileRow> {
    await restore(this.ctx.db, this.ctx.clock, 'sound_files', tenant, id, NOT_FOUND);
    return this.get(tenant, id);
  }

  /**
   * The audio of a live sound file as it was uploaded, whole or the one byte range asked (416 with
   * `Content-Range: bytes * /size` when it lies outside). An `If-Range` that does not name the
   * current content gets the whole file. A range is cut by the database: only its bytes are read.
   */
  async download(tenant: Tenant, id: string, headers: RangeHeaders): Promise<SoundFileDownload> {
    if (headers.range !== undefined) {
      const facts = await findSoundFileAudioFacts(this.ctx.db, tenant, id);
      if (!facts) throw new NotFound(NOT_FOUND);
      const filename = facts.original_filename ?? `${facts.name}.${facts.format}`;
      const stored = { checksum: facts.checksum_sha256, size: facts.content_size, mimeType: facts.mime_type, filename };
      const ranged = await this.readRange(tenant, id, 'content', stored, headers);
      if (ranged) return ranged;
    }
    const stored = await findSoundFileContent(this.ctx.db, tenant, id);
    if (!stored) throw new NotFound(NOT_FOUND);
    return answer(
      Buffer.from(stored.content),
      stored.checksum_sha256,
      stored.mime_type,
      stored.original_filename ?? `${stored.name}.${stored.format}`,
      headers,
    );
  }

  /**
   * The audio of a live sound file as the PBX plays it (8 kHz mono 16-bit PCM WAV), named as the
   * PBX stores it, with byte ranges as the download. A file uploaded before the conversion existed
   * is converted now, once.
   */
  async playable(tenant: Tenant, id: string, headers: RangeHeaders): Promise<SoundFileDownload> {
    if (headers.range !== undefined) {
      const facts = await findSoundFileAudioFacts(this.ctx.db, tenant, id);
      if (!facts) throw new NotFound(NOT_FOUND);
      const { playable_checksum_sha256: checksum, playable_size: size } = facts;
      if (checksum && size !== null) {
        const stored = { checksum, size, mimeType: PLAYABLE_MIME_TYPE, filename: playableName(facts.id) };
        const ranged = await this.readRange(tenant, id, 'playable', stored, headers);
        if (ranged) return ranged;
      }
    }
    const stored = await findSoundFilePlayable(this.ctx.db, tenant, id);
    if (!stored) throw new NotFound(NOT_FOUND);
    const filename = playableName(stored.id);
    if (stored.playable && stored.playable_checksum_sha256)
      return answer(Buffer.from(stored.playable), stored.playable_checksum_sha256, PLAYABLE_MIME_TYPE, filename, headers);
    const original = await findSoundFileContent(this.ctx.db, tenant, id);
    if (!original) throw new NotFound(NOT_FOUND);
    const playable = await toPlayableWav(Buffer.from(original.content), original.format === 'mp3' ? 'mp3' : 'wav', 'file');
    await this.ctx.db.transaction().execute((trx) => savePlayable(trx, tenant, id, original.checksum_sha256, playable));
    return answer(playable.content, playable.checksum_sha256, PLAYABLE_MIME_TYPE, filename, headers);
  }

  /**
   * The range asked of the stored audio, read alone from the database; null when the answer is the
   * whole audio (no satisfiable single range, or an `If-Range` for other content), or when the audio
   * changed since its size was read: the caller then reads it whole, in one query, as it is now.
   */
  private async readRange(tenant: Tenant, id: string, audio: SoundFileAudio, stored: StoredAudio, headers: RangeHeaders): Promise<SoundFileDownload | null> {
    const etag = `"${stored.checksum}"`;
    const range = rangeOf(headers, etag, stored.size);
    if (!range) return null;
    const body = await readSoundFileBytes(this.ctx.db, tenant, id, audio, stored.checksum, range);
    return body ? { body, mimeType: stored.mimeType, size: stored.size, etag, filename: stored.filename, range } : null;
  }

  private languageOf(raw: string | undefined, fail: (field: string, message: string) => void): string | null {
    const value = raw?.trim() ?? '';
    if (value === '') return null;
    if (!(ANNOUNCEMENT_LANGUAGES as readonly string[]).includes(value)) {
      fail('language', 'The selected language is invalid.');
      return null;
    }
    return value;
  }

  /**
   * The text fields and the one `file` part of a multipart upload, the file read into memory
   * (through a private temporary file, so a body cut short is 422 and never a hang); 413 past
   * SOUND_FILE_MAX_BYTES.
   */
  private async readParts(parts: AsyncIterable<UploadPart>, allowed: string[]) {
    const fields: Record<string, string> = {};
    const errors: FieldErrors = {};
    let file: { content: Buffer; filename: string | null } | null = null;
    const path = join(tmpdir(), `pbx-sound-${randomUUID()}`);
    try {
      for await (const part of parts) {
        if (part.type === 'field') {
          if (allowed.includes(part.fieldname)) fields[part.fieldname] = part.value;
          else (errors[part.fieldname] ??= []).push(`The ${part.fieldname.replace(/_/g, ' ')} field is not allowed.`);
          continue;
        }
        if (part.fieldname !== 'file' || file !== null) {
          part.file.resume();
          throw ValidationFailed.field('file', 'Send exactly one file, in the part named file.');
        }
        await saveUpload(part.file, path, 'file');
        if ((part.file as Readable & { truncated?: boolean }).truncated) throw this.tooLarge();
        file = { content: await readFile(path), filename: baseName(part.filename) };
      }
    } catch (error) {
      if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw this.tooLarge();
      throw error;
    } finally {
      await rm(path, { force: true });
    }
    if (Object.keys(errors).length > 0) throw new ValidationFailed(errors);
    return { fields, file };
  }

  private tooLarge(): ClientError {
    return new ClientError(413, `The file is larger than ${this.ctx.config.soundFileMaxBytes} bytes (SOUND_FILE_MAX_BYTES).`);
  }
}

function isSoundFileType(value: string): value is SoundFileType {
  return (SOUND_FILE_TYPES as readonly string[]).includes(value);
}
