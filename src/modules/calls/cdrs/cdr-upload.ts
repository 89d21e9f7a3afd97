import { buildValidator } from '../../../http/validator.js';
import type { UploadPart } from '../../../http/uploads.js';
import { validationField, validationMessage, type AjvError } from '../../../http/validation-messages.js';
import { ValidationFailed, type FieldErrors } from '../../../platform/errors.js';
import type { RecordingKind } from '../calls.tables.js';
import { IngestCdr, type IngestCdrView } from './cdrs.schemas.js';
import type { RecordingUpload } from './cdrs.service.js';

/** The form's file fields and the recording each holds. */
const FILE_FIELDS: Record<string, RecordingKind> = { recording: 'full', recording_caller: 'caller', recording_callee: 'callee' };
/** The `cdr` field and a file for each of FILE_FIELDS. */
export const CDR_FORM_LIMITS = { fields: 1, files: 3 };
export const CDR_FORM_NOT_MULTIPART = 'Send multipart/form-data: the cdr field, then the recording files.';

/** The same ajv rules as a JSON body. */
const checkIngestCdr = buildValidator()({ schema: IngestCdr, httpPart: 'body', method: 'POST', url: '/cdrs/with-recordings' }) as ((
  value: unknown,
) => boolean) & { errors?: AjvError[] | null };

/** The `cdr` field of a multipart upload, validated like a JSON push. */
function parseCdrField(value: unknown): IngestCdrView {
  let parsed: unknown;
  try {
    parsed = JSON.parse(String(value));
  } catch {
    throw ValidationFailed.field('cdr', 'The cdr field must be a JSON call detail record.');
  }
  if (checkIngestCdr(parsed)) return parsed as IngestCdrView;
  const errors: FieldErrors = {};
  for (const error of checkIngestCdr.errors ?? []) {
    const field = `cdr.${validationField(error, '')}`.replace(/\.$/, '');
    (errors[field] ??= []).push(validationMessage(error, field));
  }
  throw new ValidationFailed(errors);
}

/**
 * `POST /cdrs/with-recordings` as it arrives: first the `cdr` field (422 when it is not), then the
 * recordings, each streamed to the service as it is read (an unknown file field is 422 on it).
 */
export async function readCdrUpload(parts: AsyncGenerator<UploadPart>): Promise<{ record: IngestCdrView; uploads: AsyncGenerator<RecordingUpload> }> {
  const first = await parts.next();
  const part = first.done ? undefined : first.value;
  if (!part || part.type !== 'field' || part.fieldname !== 'cdr') {
    if (part?.type === 'file') part.file.resume();
    throw ValidationFailed.field('cdr', 'The first part must be the cdr field.');
  }
  const record = parseCdrField(part.value);
  async function* uploads(): AsyncGenerator<RecordingUpload> {
    for await (const next of parts) {
      if (next.type !== 'file') continue;
      const kind = FILE_FIELDS[next.fieldname];
      if (!kind) {
        next.file.resume();
        throw ValidationFailed.field(next.fieldname, 'Unknown file field: use recording, recording_caller or recording_callee.');
      }
      yield { kind, fileName: next.filename, stream: next.file };
    }
  }
  return { record, uploads: uploads() };
}
