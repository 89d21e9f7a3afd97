import { rangedAudioResponses, writeRangeHeaders } from '../../../http/byte-range.js';
import type { FastifyInstance } from 'fastify';
import multipart from '@fastify/multipart';
import { operationRoutes, type RouteGroup } from '../../../http/resource-routes.js';
import { uploadParts } from '../../../http/uploads.js';
import type { AppContext } from '../../../platform/context.js';
import { CDR_FORM_LIMITS, CDR_FORM_NOT_MULTIPART, readCdrUpload } from './cdr-upload.js';
import { cdrDocs } from './cdrs.docs.js';
import { CdrsService } from './cdrs.service.js';
import {
  CallDetailRecord,
  CallHistoryEntry,
  CdrDetailResponse,
  CdrListQuery,
  CdrListResponse,
  CdrParams,
  CdrUploadForm,
  IngestBody,
  IngestCdr,
  IngestResponse,
  RecordingQuery,
  UploadResponse,
} from './cdrs.schemas.js';
import { RECORDING_MAX_BYTES } from './recordings.js';

const READERS = { user: true, integration: ['call-history'] } as const;
const PBX_SERVER = { pbxServer: true } as const;

/** The call history (a keyset-paged list of its own), a call's detail and recordings, and the PBX server's pushes. */
export async function cdrRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }): Promise<void> {
  const service = new CdrsService(ctx);
  const detailPerMinute = ctx.config.cdrDetailRateLimitPerMinute;
  const group: RouteGroup<undefined> = { tags: ['Call history'], docs: cdrDocs(detailPerMinute) };
  app.addSchema(CallDetailRecord);
  app.addSchema(CallHistoryEntry);
  app.addSchema(IngestCdr);
  const { route } = operationRoutes(app, group);

  route('/cdrs', {
    method: 'GET',
    auth: READERS,
    operationId: 'listCallHistory',
    querystring: CdrListQuery,
    response: { 200: CdrListResponse },
    handle: ({ tenant, principal, query }) => service.list(tenant, principal, query),
  });
  route('/cdrs/detail/:id', {
    method: 'GET',
    auth: READERS,
    config: { rateLimit: { max: detailPerMinute, timeWindow: 60_000 } },
    operationId: 'getCallDetail',
    params: CdrParams,
    response: { 200: CdrDetailResponse },
    handle: async ({ tenant, principal, params }) => ({
      data: await service.detail(tenant, principal, params.id),
      status: true,
      message: 'Call detail record retrieved.',
    }),
  });
  route('/cdrs/recording', {
    method: 'GET',
    auth: READERS,
    operationId: 'downloadCallRecording',
    querystring: RecordingQuery,
    response: rangedAudioResponses('The whole recording.'),
    handle: async ({ tenant, principal, query, request, reply }) => {
      const file = await service.openRecording(tenant, principal, query.path, request.headers.range);
      reply.header('content-type', file.contentType).header('content-disposition', `inline; filename="${file.name}"`).header('etag', file.etag);
      writeRangeHeaders(reply, file.size, file.range);
      return reply.send(file.stream);
    },
  });
  route('/cdrs', {
    method: 'POST',
    auth: PBX_SERVER,
    operationId: 'ingestCallDetailRecords',
    body: IngestBody,
    response: { 200: IngestResponse },
    handle: async ({ tenant, body }) => {
      const { received, created, duplicates } = await service.ingest(tenant, body.cdrs);
      return { data: { received, created, duplicates } };
    },
  });

  // Multipart is registered for this route only.
  await app.register(async (child) => {
    await child.register(multipart, { limits: { fileSize: RECORDING_MAX_BYTES, ...CDR_FORM_LIMITS, fieldSize: 1024 * 1024 } });
    operationRoutes(child, group).route('/cdrs/with-recordings', {
      method: 'POST',
      auth: PBX_SERVER,
      operationId: 'ingestCallDetailRecordWithRecordings',
      upload: CdrUploadForm,
      response: { 200: UploadResponse, 413: { $ref: 'MessageError#' }, 415: { $ref: 'MessageError#' }, 422: { $ref: 'ValidationError#' } },
      handle: async ({ tenant, request }) => {
        const { record, uploads } = await readCdrUpload(uploadParts(request, CDR_FORM_LIMITS, CDR_FORM_NOT_MULTIPART));
        return { data: await service.ingestWithRecordings(tenant, record, uploads) };
      },
    });
  });
}
