import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import multipart from '@fastify/multipart';
import { Type } from '@sinclair/typebox';
import { multipartForm, UploadFile, uploadParts, uploadValidatorCompiler } from '../../../http/uploads.js';
import { buildValidator } from '../../../http/validator.js';
import { validationField, validationMessage, type AjvError } from '../../../http/validation-messages.js';
import type { AppContext } from '../../../platform/context.js';
import { principalOf, tenantOfRequest } from '../../../platform/auth/auth-plugin.js';
import { DEFAULT_PAGE_SIZE } from '../../../http/list-query.js';
import { linkParams, paginate } from '../../../http/pagination.js';
import { ValidationFailed, type FieldErrors } from '../../../platform/errors.js';
import { CdrsService, type RecordingUpload } from './cdrs.service.js';
import {
  CallDetailRecord,
  CallHistoryEntry,
  CdrDetailResponse,
  CdrListQuery,
  CdrListResponse,
  CdrParams,
  IngestBody,
  IngestCdr,
  IngestResponse,
  RecordingQuery,
  UploadResponse,
  type IngestCdrView,
} from './cdrs.schemas.js';
import { RECORDING_MAX_BYTES } from './recordings.js';
import type { CdrFilters } from './cdrs.queries.js';
import type { RecordingKind } from '../calls.tables.js';

const tags = ['Call history'];
const READERS = { user: true, integration: ['call-history'] } as const;
const PBX_SERVER = { pbxServer: true } as const;

const FILE_FIELDS: Record<string, RecordingKind> = { recording: 'full', recording_caller: 'caller', recording_callee: 'callee' };
/** The `cdr` field and a file for each of FILE_FIELDS. */
const FORM_LIMITS = { fields: 1, files: 3 };
const recordingFile = (whose: string) => Type.Optional(UploadFile(`The recording of ${whose}: wav, mp3, ogg or opus (by its file name's extension).`));
/** The parts of `POST /cdrs/with-recordings`, described for the OpenAPI document: the cdr part first. */
const CdrUploadForm = Type.Object({
  cdr: Type.Ref(IngestCdr, { description: 'The call as JSON (an object part is sent as application/json), the same shape as one item of `POST /cdrs`.' }),
  recording: recordingFile('the whole call'),
  recording_caller: recordingFile('the caller’s side'),
  recording_callee: recordingFile('the callee’s side'),
});
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

export async function cdrRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }): Promise<void> {
  const service = new CdrsService(ctx);
  app.addSchema(CallDetailRecord);
  app.addSchema(CallHistoryEntry);
  app.addSchema(IngestCdr);
  const r = app.withTypeProvider<TypeBoxTypeProvider>();

  r.get('/cdrs', {
    config: { auth: READERS },
    schema: {
      tags,
      operationId: 'listCallHistory',
      summary: 'Call history, newest first, paginated',
      description:
        'Calls the principal may see: administrators and `call-history` keys see the whole PBX; a user sees what its `call_information_visibility` grants (own_calls: calls it took part in; own_group_only: calls of anyone sharing one of its groups; none: nothing). ' +
        'The standard paginated envelope: follow `links.next` / `links.prev` (they carry a keyset `cursor`: as cheap at any depth) or ask for a `page` by number. ' +
        "`meta.total` counts the matching calls; it is counted once per set of filters until the PBX's data changes, and at most `CACHE_TTL_MS` late for calls recorded in the background.",
      querystring: CdrListQuery,
      response: { 200: CdrListResponse },
    },
    handler: async (request) => {
      const query = request.query;
      const filters: CdrFilters = {
        from: query['filter[from]'] && (query['filter[from]'].length === 10 ? `${query['filter[from]']} 00:00:00` : query['filter[from]']),
        to: query['filter[to]'] && (query['filter[to]'].length === 10 ? `${query['filter[to]']} 23:59:59` : query['filter[to]']),
        type: query['filter[type]'],
        status: query['filter[status]'],
        userId: query['filter[user_id]'],
        internal: query['filter[internal]'],
        withRecording: query['filter[with_recording]'],
        search: query.search?.trim() || undefined,
      };
      const perPage = query.perPage ?? DEFAULT_PAGE_SIZE;
      const order = query.sort === 'start_time' ? 'asc' : 'desc';
      const history = await service.list(tenantOfRequest(request), principalOf(request), { cursor: query.cursor, page: query.page, perPage, order, filters });
      const path = `${ctx.config.baseUrl}/cdrs`;
      const { cursor: _cursor, ...numbered } = query;
      const withCursor = (cursor: string | null) => cursor && `${path}?${new URLSearchParams({ ...linkParams(numbered), cursor }).toString()}`;
      const page = { page: Math.floor(history.offset / perPage) + 1, perPage, offset: history.offset };
      return paginate(history.items, history.total, page, path, numbered, { prev: withCursor(history.prev), next: withCursor(history.next) });
    },
  });

  r.get('/cdrs/detail/:id', {
    config: { auth: READERS, rateLimit: { max: ctx.config.cdrDetailRateLimitPerMinute, timeWindow: 60_000 } },
    schema: {
      tags,
      operationId: 'getCallDetail',
      summary: 'Full detail of one call',
      description: `Scoped to the caller's PBX and visibility. Limited to ${ctx.config.cdrDetailRateLimitPerMinute} requests a minute per user (all of its tokens together) or API key, counted apart from the general limit (its own 429).`,
      params: CdrParams,
      response: { 200: CdrDetailResponse },
    },
    handler: async (request) => {
      const data = await service.detail(tenantOfRequest(request), principalOf(request), request.params.id);
      return { data, status: true, message: 'Call detail record retrieved.' };
    },
  });

  r.get('/cdrs/recording', {
    config: { auth: READERS },
    schema: {
      tags,
      operationId: 'downloadCallRecording',
      summary: 'Download a call recording',
      description:
        'Streams the file named by `path` (from a recording_file object) with its audio content type. Supports a single HTTP `Range: bytes=` range (206, or 416 when unsatisfiable). ' +
        "Only recordings of the caller's PBX, on calls it may see and whose recordings its `call_recordings_visibility` lets it hear (403 otherwise).",
      querystring: RecordingQuery,
      response: {
        200: { description: 'The whole recording.', content: { 'audio/*': { schema: { type: 'string', format: 'binary' } } } },
        206: { description: 'The requested byte range (`Content-Range` header).', content: { 'audio/*': { schema: { type: 'string', format: 'binary' } } } },
        416: { description: 'Range not satisfiable; `Content-Range: bytes */<size>`.', $ref: 'MessageError#' },
      },
    },
    handler: async (request, reply) => {
      const file = await service.openRecording(tenantOfRequest(request), principalOf(request), request.query.path, request.headers.range);
      reply.header('content-type', file.contentType).header('accept-ranges', 'bytes').header('content-disposition', `inline; filename="${file.name}"`);
      if (file.range) {
        reply
          .code(206)
          .header('content-range', `bytes ${file.range.start}-${file.range.end}/${file.size}`)
          .header('content-length', String(file.range.end - file.range.start + 1));
      } else {
        reply.header('content-length', String(file.size));
      }
      return reply.send(file.stream);
    },
  });

  r.post('/cdrs', {
    config: { auth: PBX_SERVER },
    schema: {
      tags,
      operationId: 'ingestCallDetailRecords',
      summary: 'Push finished calls (PBX server)',
      description: `The PBX server pushes finished calls in batches of up to 500, authenticated with its PBX server key. Idempotent on \`cdr_id\`: a record already stored is left unchanged and counted in \`duplicates\`, so a batch may be retried safely. Times are UTC \`YYYY-MM-DD HH:MM:SS\`; \`user_id\`s must be users of the PBX. Recordings are uploaded with their record through \`POST /cdrs/with-recordings\`.`,
      body: IngestBody,
      response: { 200: IngestResponse },
    },
    handler: async (request) => {
      const { received, created, duplicates } = await service.ingest(tenantOfRequest(request), request.body.cdrs);
      return { data: { received, created, duplicates } };
    },
  });

  // Multipart is registered for this route only.
  await app.register(async (child) => {
    await child.register(multipart, { limits: { fileSize: RECORDING_MAX_BYTES, ...FORM_LIMITS, fieldSize: 1024 * 1024 } });
    child.withTypeProvider<TypeBoxTypeProvider>().post('/cdrs/with-recordings', {
      config: { auth: PBX_SERVER },
      validatorCompiler: uploadValidatorCompiler(child),
      schema: {
        tags,
        operationId: 'ingestCallDetailRecordWithRecordings',
        summary: 'Push one finished call with its recordings (PBX server, multipart)',
        description:
          'multipart/form-data: first a field `cdr` holding the call as JSON (the same shape as one item of `POST /cdrs`), then up to three files: `recording` (the whole call), `recording_caller`, `recording_callee` (wav, mp3, ogg or opus). ' +
          'Each file field at most once. All or nothing: when any part is refused (422), too large (413) or the upload breaks off (422 when the body ends without its closing boundary), neither the call nor any of its files is stored. ' +
          'Idempotent on `cdr_id`; uploading a recording again replaces the stored file.',
        body: multipartForm(CdrUploadForm),
        response: { 200: UploadResponse, 413: { $ref: 'MessageError#' }, 415: { $ref: 'MessageError#' }, 422: { $ref: 'ValidationError#' } },
      },
      handler: async (request) => {
        const parts = uploadParts(request, FORM_LIMITS, 'Send multipart/form-data: the cdr field, then the recording files.');
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
        return { data: await service.ingestWithRecordings(tenantOfRequest(request), record, uploads()) };
      },
    });
  });
}
