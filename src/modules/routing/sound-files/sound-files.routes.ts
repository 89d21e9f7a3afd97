import { rangedAudioResponses, writeRangeHeaders } from '../../../http/byte-range.js';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import multipart from '@fastify/multipart';
import { Type } from '@sinclair/typebox';
import { resourceRoutes } from '../../../http/resource-routes.js';
import { DataEnvelope } from '../../../http/schema.js';
import { uploadParts } from '../../../http/uploads.js';
import type { AppContext } from '../../../platform/context.js';
import { ROUTING_MANAGE, ROUTING_READ } from '../shared/access.js';
import { soundFileDocs } from './sound-files.docs.js';
import { presentSoundFile } from './sound-files.presenter.js';
import {
  DeleteSoundFileQuery,
  SoundFile,
  SoundFileContentForm,
  SoundFileListQuery,
  SoundFileParams,
  SoundFileUploadForm,
  UpdateSoundFileBody,
} from './sound-files.schemas.js';
import { attachmentDisposition, SoundFilesService, type RangeHeaders, type SoundFileDownload, type SoundFileRow } from './sound-files.service.js';

/** The parts an upload takes: three fields are known, the others refused by name (422) up to this many. */
const FORM_LIMITS = { fields: 10, files: 1 };
const NOT_MULTIPART = 'Send the sound file as multipart/form-data.';

const wav = { 'audio/wav': { schema: { type: 'string', format: 'binary' } } };

function rangeHeaders(request: FastifyRequest): RangeHeaders {
  const ifRange = request.headers['if-range'];
  return { range: request.headers.range, ifRange: typeof ifRange === 'string' ? ifRange : undefined };
}

/** The audio, whole (200) or the range asked (206), with its type, ETag and file name. */
function sendAudio(reply: FastifyReply, file: SoundFileDownload) {
  reply.header('content-type', file.mimeType).header('etag', file.etag).header('content-disposition', attachmentDisposition(file.filename));
  writeRangeHeaders(reply, file.size, file.range);
  return reply.send(file.body);
}

/** Announcements and music on hold: multipart upload, metadata, the audio with Range support, soft and permanent delete. */
export async function soundFileRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }): Promise<void> {
  const service = new SoundFilesService(ctx);
  const maxBytes = ctx.config.soundFileMaxBytes;
  const present = (row: SoundFileRow) => presentSoundFile(row, ctx.config.baseUrl);
  // Multipart only here: the rest of the API takes JSON alone.
  await app.register(multipart, { limits: { fileSize: maxBytes, ...FORM_LIMITS, fieldSize: 4096 }, throwFileSizeLimit: true });
  const files = resourceRoutes(app, ctx.config.baseUrl, {
    tags: ['Sound files'],
    docs: soundFileDocs(maxBytes),
    schema: SoundFile,
    present: (rows: SoundFileRow[]) => rows.map(present),
  });
  const SoundFileRef = Type.Ref(SoundFile);

  files.route('/sound-files', {
    method: 'POST',
    auth: ROUTING_MANAGE,
    operationId: 'createSoundFile',
    upload: SoundFileUploadForm,
    response: { 201: DataEnvelope(SoundFileRef), 413: { $ref: 'MessageError#' }, 415: { $ref: 'MessageError#' }, 422: { $ref: 'ValidationError#' } },
    handle: async ({ tenant, request, reply }) => {
      const row = await service.upload(tenant, uploadParts(request, FORM_LIMITS, NOT_MULTIPART));
      reply.code(201);
      return { data: present(row) };
    },
  });
  files.route('/sound-files/:soundFile/content', {
    method: 'PUT',
    auth: ROUTING_MANAGE,
    operationId: 'replaceSoundFileContent',
    params: SoundFileParams,
    upload: SoundFileContentForm,
    response: { 200: DataEnvelope(SoundFileRef), 413: { $ref: 'MessageError#' }, 415: { $ref: 'MessageError#' } },
    handle: async ({ tenant, params, request }) => ({
      data: present(await service.replaceContent(tenant, params.soundFile, uploadParts(request, FORM_LIMITS, NOT_MULTIPART))),
    }),
  });
  files.route('/sound-files/:soundFile/content', {
    method: 'GET',
    auth: ROUTING_READ,
    operationId: 'downloadSoundFile',
    params: SoundFileParams,
    response: rangedAudioResponses('The whole file.'),
    handle: async ({ tenant, params, request, reply }) => sendAudio(reply, await service.download(tenant, params.soundFile, rangeHeaders(request))),
  });
  files.route('/sound-files/:soundFile/playable', {
    method: 'GET',
    auth: ROUTING_READ,
    operationId: 'downloadPlayableSoundFile',
    params: SoundFileParams,
    response: {
      200: { description: 'The whole WAV.', content: wav },
      206: { description: 'The requested byte range (`Content-Range` header).', content: wav },
      416: { description: 'Range not satisfiable; `Content-Range: bytes */<size>`.', $ref: 'MessageError#' },
    },
    handle: async ({ tenant, params, request, reply }) => sendAudio(reply, await service.playable(tenant, params.soundFile, rangeHeaders(request))),
  });
  files.delete('/sound-files/:soundFile', {
    auth: ROUTING_MANAGE,
    operationId: 'deleteSoundFile',
    refusedWhileUsed: true,
    params: SoundFileParams,
    querystring: DeleteSoundFileQuery,
    run: ({ tenant, params, query }) => service.remove(tenant, params.soundFile, query.permanent === true),
  });

  files.list('/sound-files', {
    auth: ROUTING_READ,
    operationId: 'listSoundFiles',
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
    params: SoundFileParams,
    load: ({ tenant, params }) => service.get(tenant, params.soundFile),
  });
  files.update('/sound-files/:soundFile', {
    auth: ROUTING_MANAGE,
    operationId: 'updateSoundFile',
    params: SoundFileParams,
    body: UpdateSoundFileBody,
    run: ({ tenant, params, body }) => service.update(tenant, params.soundFile, body),
  });
  files.restore('/sound-files/:soundFile/restore', {
    auth: ROUTING_MANAGE,
    operationId: 'restoreSoundFile',
    params: SoundFileParams,
    run: ({ tenant, params }) => service.restore(tenant, params.soundFile),
  });
}
