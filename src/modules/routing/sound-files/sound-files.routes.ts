import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import multipart from '@fastify/multipart';
import { Type } from '@sinclair/typebox';
import { resourceRoutes } from '../../../http/resource-routes.js';
import { DataEnvelope } from '../../../http/schema.js';
import { multipartForm, uploadParts, uploadValidatorCompiler } from '../../../http/uploads.js';
import { principalOf } from '../../../platform/auth/auth-plugin.js';
import type { AppContext } from '../../../platform/context.js';
import { tenantOf } from '../../../platform/tenancy.js';
import { ANNOUNCEMENT_LANGUAGES } from '../shared/languages.js';
import { ROUTING_MANAGE, ROUTING_READ } from '../shared/access.js';
import {
  DeleteSoundFileQuery,
  SoundFile,
  SoundFileContentForm,
  SoundFileListQuery,
  SoundFileParams,
  SoundFileUploadForm,
  UpdateSoundFileBody,
} from './sound-files.schemas.js';
import {
  attachmentDisposition,
  presentSoundFile,
  SoundFilesService,
  type RangeHeaders,
  type SoundFileDownload,
  type SoundFileRow,
} from './sound-files.service.js';

const tags = ['Sound files'];
/** The parts an upload takes: three fields are known, the others refused by name (422) up to this many. */
const FORM_LIMITS = { fields: 10, files: 1 };
const NOT_MULTIPART = 'Send the sound file as multipart/form-data.';

const audio = { 'audio/*': { schema: { type: 'string', format: 'binary' } } };
const wav = { 'audio/wav': { schema: { type: 'string', format: 'binary' } } };

function rangeHeaders(request: FastifyRequest): RangeHeaders {
  const ifRange = request.headers['if-range'];
  return { range: request.headers.range, ifRange: typeof ifRange === 'string' ? ifRange : undefined };
}

/** The audio, whole (200) or the range asked (206), with its type, ETag and file name. */
function sendAudio(reply: FastifyReply, file: SoundFileDownload) {
  reply
    .header('content-type', file.mimeType)
    .header('accept-ranges', 'bytes')
    .header('etag', file.etag)
    .header('content-disposition', attachmentDisposition(file.filename));
  if (!file.range) return reply.header('content-length', String(file.size)).send(file.body);
  const { start, end } = file.range;
  return reply
    .code(206)
    .header('content-range', `bytes ${start}-${end}/${file.size}`)
    .header('content-length', String(end - start + 1))
    .send(file.body);
}

/** Announcements and music on hold: multipart upload, metadata, the audio with Range support, soft and permanent delete. */
export async function soundFileRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }): Promise<void> {
  const service = new SoundFilesService(ctx);
  const maxBytes = ctx.config.soundFileMaxBytes;
  // Multipart only here: the rest of the API takes JSON alone.
  await app.register(multipart, { limits: { fileSize: maxBytes, ...FORM_LIMITS, fieldSize: 4096 }, throwFileSizeLimit: true });
  const files = resourceRoutes(app, ctx.config.baseUrl, {
    tags,
    schema: SoundFile,
    present: (rows: SoundFileRow[]) => rows.map((row) => presentSoundFile(row, ctx.config.baseUrl)),
  });
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const SoundFileRef = Type.Ref(SoundFile);
  const checks =
    `The content decides, not the name or declared type: WAV (RIFF/WAVE, PCM samples) or MP3; anything else is 415. At most ${maxBytes} bytes (SOUND_FILE_MAX_BYTES; 413 beyond). ` +
    'A WAV or MP3 that cannot be read or has no duration is 422 on `file`, and so is one longer than 10 minutes (announcement) or 60 minutes (music). ' +
    'The audio is kept as uploaded (GET …/content) and converted to what the PBX plays, an 8 kHz mono 16-bit PCM WAV (GET …/playable): ' +
    'channels averaged, resampled; a file that cannot be converted (a sample rate outside 32-192000 Hz, an MP3 whose frames do not decode) is 422 on `file`.';

  r.post('/sound-files', {
    config: { auth: ROUTING_MANAGE },
    validatorCompiler: uploadValidatorCompiler(app),
    schema: {
      tags,
      operationId: 'createSoundFile',
      summary: 'Upload an announcement or music on hold (administrators)',
      description:
        'multipart/form-data with one `file` part and the fields `name` (1-128 characters, no line breaks or other control characters, required), `type` (announcement | music, required) and `language` ' +
        `(optional: ${ANNOUNCEMENT_LANGUAGES.join(' ')}; empty = null). ${checks}`,
      body: multipartForm(SoundFileUploadForm),
      response: { 201: DataEnvelope(SoundFileRef), 413: { $ref: 'MessageError#' }, 415: { $ref: 'MessageError#' }, 422: { $ref: 'ValidationError#' } },
    },
    handler: async (request, reply) => {
      const row = await service.upload(tenantOf(principalOf(request)), uploadParts(request, FORM_LIMITS, NOT_MULTIPART));
      reply.code(201);
      return { data: presentSoundFile(row, ctx.config.baseUrl) };
    },
  });

  r.put('/sound-files/:soundFile/content', {
    config: { auth: ROUTING_MANAGE },
    validatorCompiler: uploadValidatorCompiler(app),
    schema: {
      tags,
      operationId: 'replaceSoundFileContent',
      summary: 'Replace the audio of a sound file (administrators)',
      description: `multipart/form-data with one \`file\` part; the name, type and language stay. ${checks}`,
      params: SoundFileParams,
      body: multipartForm(SoundFileContentForm),
      response: { 200: DataEnvelope(SoundFileRef), 413: { $ref: 'MessageError#' }, 415: { $ref: 'MessageError#' } },
    },
    handler: async (request) => {
      const row = await service.replaceContent(tenantOf(principalOf(request)), request.params.soundFile, uploadParts(request, FORM_LIMITS, NOT_MULTIPART));
      return { data: presentSoundFile(row, ctx.config.baseUrl) };
    },
  });

  r.get('/sound-files/:soundFile/content', {
    config: { auth: ROUTING_READ },
    schema: {
      tags,
      operationId: 'downloadSoundFile',
      summary: 'Download the audio of a sound file',
      description:
        'Any user of the PBX, its PBX key, or an integration key with the call-routing scope. The audio with its Content-Type, Content-Length, ETag (its SHA-256) and Content-Disposition: attachment. A single `Range: bytes=` range (a-b, a-, -n) ' +
        'answers 206 with Content-Range; a range outside the file 416 with `Content-Range: bytes */<size>`. A deleted sound file is 404.',
      params: SoundFileParams,
      response: {
        200: { description: 'The whole file.', content: audio },
        206: { description: 'The requested byte range (`Content-Range` header).', content: audio },
        416: { description: 'Range not satisfiable; `Content-Range: bytes */<size>`.', $ref: 'MessageError#' },
      },
    },
    handler: async (request, reply) =>
      sendAudio(reply, await service.download(tenantOf(principalOf(request)), request.params.soundFile, rangeHeaders(request))),
  });

  r.get('/sound-files/:soundFile/playable', {
    config: { auth: ROUTING_READ },
    schema: {
      tags,
      operationId: 'downloadPlayableSoundFile',
      summary: 'Download the audio of a sound file as the PBX plays it',
      description:
        'For the PBX host (its PBX server key; `scripts/pbx-sounds-sync.mjs` fetches every file this way), and, like the download, any user of the PBX, its PBX key, or an integration key with the call-routing scope. ' +
        'The audio converted on upload to what Asterisk plays as `.wav`: 8 kHz, mono, 16-bit PCM, about as long as the original. ' +
        'Content-Type audio/wav, Content-Length, ETag (its SHA-256, the `playable_checksum_sha256` of the sound file) and Content-Disposition: attachment; filename="<id without dashes>.wav", the name it has on the PBX. ' +
        'A single `Range: bytes=` range answers 206, one outside the file 416, as the download. A file uploaded before the conversion existed is converted on this first fetch; ' +
        'one whose audio cannot be converted is 422 on `file`. A deleted sound file, or another PBX’s, is 404.',
      params: SoundFileParams,
      response: {
        200: { description: 'The whole WAV.', content: wav },
        206: { description: 'The requested byte range (`Content-Range` header).', content: wav },
        416: { description: 'Range not satisfiable; `Content-Range: bytes */<size>`.', $ref: 'MessageError#' },
      },
    },
    handler: async (request, reply) =>
      sendAudio(reply, await service.playable(tenantOf(principalOf(request)), request.params.soundFile, rangeHeaders(request))),
  });

  r.delete('/sound-files/:soundFile', {
    config: { auth: ROUTING_MANAGE },
    schema: {
      tags,
      operationId: 'deleteSoundFile',
      summary: 'Delete a sound file (soft, restorable; permanent=1 for good) (administrators)',
      description:
        'A soft delete is allowed while IVRs, queues or call flows use the file (the routing validation then reports the dangling reference; restore it to mend). ' +
        '`permanent=1` deletes the row and its audio for good, deleted or not, and is refused with 409 `{message, used_by}` while anything uses it.',
      params: SoundFileParams,
      querystring: DeleteSoundFileQuery,
      response: { 204: Type.Null(), 409: { $ref: 'InUseError#' } },
    },
    handler: async (request, reply) => {
      await service.remove(tenantOf(principalOf(request)), request.params.soundFile, request.query.permanent === true);
      return reply.code(204).send(null);
    },
  });

  files.list('/sound-files', {
    auth: ROUTING_READ,
    operationId: 'listSoundFiles',
    summary: 'Sound files of the PBX',
    description:
      'Any user of the PBX, its PBX key, or an integration key with the call-routing scope. search on the name; filter[type], filter[language], filter[trashed].',
    querystring: SoundFileListQuery,
    defaultSort: [{ field: 'name', direction: 'asc' }],
    fetch: ({ tenant, query }, { sort, page }) =>
      service.list(
        tenant,
        { search: query.search, type: query['filter[type]'], language: query['filter[language]'], trashed: query['filter[trashed]'] },
        sort,
        page,
      ),
  });
  files.read('/sound-files/:soundFile', {
    auth: ROUTING_READ,
    operationId: 'getSoundFile',
    summary: 'One sound file',
    description:
      'Any user of the PBX, its PBX key, or an integration key with the call-routing scope. ' +
      'The metadata of the file (the audio is at GET /sound-files/{soundFile}/content as uploaded, and at GET /sound-files/{soundFile}/playable as the PBX plays it); a deleted file, or another PBX’s, is 404.',
    params: SoundFileParams,
    load: ({ tenant, params }) => service.get(tenant, params.soundFile),
  });
  files.update('/sound-files/:soundFile', {
    auth: ROUTING_MANAGE,
    operationId: 'updateSoundFile',
    summary: 'Rename a sound file, or change its language or type (administrators)',
    description: 'The type cannot change while an IVR, queue or call flow uses the file (422 on type naming them), nor to one the duration exceeds.',
    params: SoundFileParams,
    body: UpdateSoundFileBody,
    run: ({ tenant, params, body }) => service.update(tenant, params.soundFile, body),
  });
  files.restore('/sound-files/:soundFile/restore', {
    auth: ROUTING_MANAGE,
    operationId: 'restoreSoundFile',
    summary: 'Restore a deleted sound file (administrators)',
    description:
      'Administrators of the PBX only. ' +
      'Clears deleted_at and answers the file; its audio, kept through the soft delete, can be downloaded again, and the IVRs, queues and call flows that still name it no longer point at a deleted file. ' +
      'A file that is not deleted, one deleted with permanent=1, or another PBX’s, is 404.',
    params: SoundFileParams,
    run: ({ tenant, params }) => service.restore(tenant, params.soundFile),
  });
}
