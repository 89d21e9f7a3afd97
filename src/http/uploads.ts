import { createWriteStream } from 'node:fs';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { FastifyInstance, FastifyRequest, FastifySchemaCompiler } from 'fastify';
import type {} from '@fastify/multipart';
import { Type, type TObject } from '@sinclair/typebox';
import { ClientError, ValidationFailed } from '../platform/errors.js';
import { uploadDigestOf } from './idempotency.js';
import { hasPbxControl } from './schema.js';
import { pbxTextMessage, validationMessage } from './validation-messages.js';
import { buildValidator } from './validator.js';

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

/** One part of a multipart upload as a route hands it to its service: a text field, or a file's stream. */
export type UploadPart = { type: 'field'; fieldname: string; value: string } | { type: 'file'; fieldname: string; filename: string; file: Readable };

/** How many parts of each kind an upload route takes. */
export interface UploadLimits {
  /** Text fields: one more is refused with 422 on it. */
  fields: number;
  /** File parts: the reader lets one more through, for the route to refuse in its own words. */
  files: number;
}

const NO_BOUNDARY =
  'The multipart/form-data content type names no boundary: send Content-Type: multipart/form-data; boundary=<the delimiter that separates the parts>.';

/** The `boundary` parameter of a Content-Type, or null when it has none or an empty one. */
export function multipartBoundary(contentType: string | undefined): string | null {
  const match = /;\s*boundary\s*=\s*(?:"([^"]*)"|([^;]*))/i.exec(contentType ?? '');
  const boundary = (match?.[1] ?? match?.[2] ?? '').trim();
  return boundary === '' ? null : boundary;
}

/** A form field's text: @fastify/multipart gives strings, and a part sent as application/json already parsed. */
function fieldText(value: unknown): string {
  if (value === undefined || value === null) return '';
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/**
 * The parts of a multipart/form-data request, as they arrive (@fastify/multipart registered on the
 * route's plugin). Every upload route reads its parts here, so they refuse alike: not multipart, or
 * multipart without a boundary (which the reader cannot split), is 415; a field or file name
 * holding U+0000 is 422 on it; a field past `limits.fields` is 422 on it. The reader's own limits
 * are set one part higher than the route's: at its limit it stops the body and breaks off the file
 * being read, which would read as an upload cut short (422 "closing boundary is missing").
 */
export async function* uploadParts(request: FastifyRequest, limits: UploadLimits, notMultipart: string): AsyncGenerator<UploadPart> {
  if (!request.isMultipart()) throw new ClientError(415, notMultipart);
  if (!multipartBoundary(request.headers['content-type'])) throw new ClientError(415, NO_BOUNDARY);
  let fields = 0;
  // Sent with an Idempotency-Key: the parts are hashed as they are read, and the key claimed after the last.
  const digest = uploadDigestOf(request);
  const parts = request.parts({ limits: { fields: limits.fields + 1, files: limits.files + 1 } });
  for await (const part of parts) {
    if (part.type === 'file') {
      if (part.filename.includes('\u0000')) part.file.resume();
      const filename = textWithoutNul(part.filename, part.fieldname);
      digest?.file(part.fieldname, filename, part.file);
      yield { type: 'file', fieldname: part.fieldname, filename, file: part.file };
      continue;
    }
    if (++fields > limits.fields) {
      const most = `${limits.fields} form field${limits.fields === 1 ? '' : 's'}`;
      throw ValidationFailed.field(part.fieldname, `The upload has more than ${most}: send at most ${most} beside the file parts.`);
    }
    const value = textWithoutNul(fieldText(part.value), part.fieldname);
    digest?.field(part.fieldname, value);
    yield { type: 'field', fieldname: part.fieldname, value };
  }
  await digest?.finish();
}

/**
 * A file part of an upload form, described for the OpenAPI document: binary content
 * (`contentMediaType`, as OpenAPI 3.1 and 3.2 describe it; `format: binary` for older generators).
 */
export function UploadFile(description: string) {
  return Type.String({ format: 'binary', contentMediaType: 'application/octet-stream', description });
}

/**
 * An upload route's `schema.body`: the form's parts as the operation's `multipart/form-data`
 * request body in the OpenAPI document, so generated clients can call it. Only a description: the
 * route reads the parts as they arrive (`uploadParts`) and Fastify has no parsed body to check, so
 * the route declares `validatorCompiler: uploadValidatorCompiler(app)` as well.
 */
export function multipartForm(form: TObject) {
  return { content: { 'multipart/form-data': { schema: form } } };
}

/**
 * The validator compiler of an upload route: its params, query and headers checked as on every
 * route (the app's compiler with the plugin's shared schemas); its body, which `multipartForm`
 * only describes, never checked.
 */
export function uploadValidatorCompiler(app: FastifyInstance): FastifySchemaCompiler<unknown> {
  return (route) => (route.httpPart === 'body' ? () => true : buildValidator(app.getSchemas())(route));
}
