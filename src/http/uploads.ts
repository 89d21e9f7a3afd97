import { createWriteStream } from 'node:fs';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { ValidationFailed } from '../platform/errors.js';
import { hasPbxControl } from './schema.js';
import { pbxTextMessage, validationMessage } from './validation-messages.js';

/** The request body ended inside a file part (no closing boundary): the file is incomplete. */
function brokenOff(field: string): ValidationFailed {
  return ValidationFailed.field(field, 'The upload ended before it was complete (its closing boundary is missing): send it again.');
}

/** A multipart field's text or a file name, refused like JSON text (422 on the field) when it holds U+0000. */
export function textWithoutNul(text: string, field: string): string {
  if (text.includes('\u0000')) throw ValidationFailed.field(field, validationMessage({ keyword: 'nul', instancePath: '', params: {} }, field));
  return text;
}

/**
 * A multipart field that reaches the PBX (a sound file's name), checked as a `PbxText` JSON field
 * is: the message for its 422 when it holds a control character (a line break), else null.
 */
export function pbxTextProblem(text: string | undefined, field: string): string | null {
  return text !== undefined && hasPbxControl(text) ? pbxTextMessage(field) : null;
}

/** How the multipart reader (busboy, as @fastify/multipart itself tells) reports a part cut short. */
const CUT_SHORT = 'terminated early';

/**
 * Writes an uploaded file part (@fastify/multipart) to `path`. A body that ends before the upload
 * does (no closing boundary) is the client's broken upload, answered 422 on the file's field, and
 * the multipart reader shows it in three ways, none of which may become a 500 or a request that
 * never ends: the file stream fails while it is read ("terminated early"); it was destroyed before
 * this point (the whole body was read first); or it is destroyed before its end was read (the body
 * ended in a later part), when a pipe would count it finished and wait for the file forever.
 */
export async function saveUpload(file: Readable, path: string, field: string): Promise<void> {
  if (file.destroyed && !file.readableEnded) throw brokenOff(field);
  const target = createWriteStream(path);
  const closedEarly = new Promise<never>((_, reject) => file.once('close', () => !file.readableEnded && reject(brokenOff(field))));
  try {
    await Promise.race([pipeline(file, target), closedEarly]);
  } catch (error) {
    target.destroy();
    const { code, message } = error as NodeJS.ErrnoException;
    if (!file.readableEnded && (code === 'ERR_STREAM_PREMATURE_CLOSE' || message?.includes(CUT_SHORT))) throw brokenOff(field);
    throw error;
  }
}
