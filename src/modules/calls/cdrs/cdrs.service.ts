import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import type { Insertable } from 'kysely';
import { ClientError, Forbidden, NotFound, ValidationFailed, type FieldErrors } from '../../../platform/errors.js';
import type { Principal } from '../../../platform/auth/principal.js';
import type { AppContext } from '../../../platform/context.js';
import { tenantDataCache, type StampedCache } from '../../../platform/cache/stamped-cache.js';
import type { Tenant } from '../../../platform/tenancy.js';
import { presentDetail, presentHistoryEntry } from './cdrs.presenter.js';
import {
  findCdr,
  findRecordingByPath,
  findViewer,
  groupPeers,
  insertCdrs,
  insertParticipants,
  listCdrs,
  participantsOf,
  recordingsOf,
  tenantUserIds,
  upsertRecording,
  type CdrFilters,
  type CdrScope,
  type Keyset,
} from './cdrs.queries.js';
import type { CallDetailRecordView, CallHistoryEntryView, IngestCdrView } from './cdrs.schemas.js';
import type { CdrParticipantTable, CdrStatus, CdrTable, RecordingKind } from '../calls.tables.js';
import {
  assertSafeRelativePath,
  commitRecording,
  contentTypeOf,
  discardRecording,
  parseRange,
  recordingRelativePath,
  recordingsRoot,
  resolveRecordingFile,
  stageRecording,
  type ByteRange,
  type StagedRecording,
} from './recordings.js';

export interface Visibility {
  calls: CdrScope;
  recordings: CdrScope;
}

/** What a user's `call_information_visibility` / `call_recordings_visibility` value grants; unset means own calls. */
function scopeOf(value: string | null, self: string, peers: () => string[]): CdrScope {
  switch (value ?? 'own_calls') {
    case 'none':
      return { kind: 'none' };
    case 'own_group_only':
      return { kind: 'users', userIds: peers() };
    default:
      return { kind: 'users', userIds: [self] };
  }
}

export function scopeAllows(scope: CdrScope, participants: string[]): boolean {
  if (scope.kind === 'all') return true;
  if (scope.kind === 'none') return false;
  return participants.some((id) => scope.userIds.includes(id));
}

/** The call's overall outcome from its legs. */
export function callStatus(record: Pick<IngestCdrView, 'receivers' | 'billsec'>): CdrStatus {
  const legs = record.receivers.map((leg) => leg.status);
  if (record.billsec > 0 || legs.includes('ANSWERED')) return 'answered';
  if (legs.length > 0 && legs.every((status) => status === 'BUSY')) return 'busy';
  if (legs.every((status) => status === 'FAILED')) return 'failed';
  return 'missed';
}

export const encodeCursor = (keyset: Keyset) => Buffer.from(JSON.stringify([keyset.startTime, keyset.cdrId])).toString('base64url');

function decodeCursor(cursor: string): Keyset {
  try {
    const [startTime, cdrId] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown[];
    if (typeof startTime === 'string' && /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/.test(startTime) && Number.isSafeInteger(cdrId))
      return { startTime, cdrId: cdrId as number };
  } catch {
    // reported below
  }
  throw ValidationFailed.field('cursor', 'The cursor is invalid; use meta.next_cursor of the previous page.');
}

export interface IngestResult {
  received: number;
  created: number;
  duplicates: number;
  createdIds: Set<number>;
}

export interface RecordingUpload {
  kind: RecordingKind;
  fileName: string;
  stream: Readable;
}

export interface RecordingStream {
  stream: Readable;
  contentType: string;
  size: number;
  range: ByteRange | null;
  name: string;
}

/** Stores finished calls, idempotent on `cdr_id`: the PBX's pushes, AMI Cdr events and the simulated engine all come here. */
export async function ingestCdrs(ctx: AppContext, tenant: Tenant, records: IngestCdrView[], source: CdrTable['source']): Promise<IngestResult> {
  const errors: FieldErrors = {};
  const mentioned = new Set<string>();
  records.forEach((record, index) => {
    if (record.end_time < record.start_time) errors[`cdrs.${index}.end_time`] = ['The end time must not be before the start time.'];
    if (record.answer_time && (record.answer_time < record.start_time || record.answer_time > record.end_time)) {
      errors[`cdrs.${index}.answer_time`] = ['The answer time must lie between the start and end times.'];
    }
    if (record.caller.user_id) mentioned.add(record.caller.user_id);
    for (const leg of record.receivers) if (leg.user_id) mentioned.add(leg.user_id);
  });
  const known = await tenantUserIds(ctx.db, tenant, [...mentioned]);
  records.forEach((record, index) => {
    if (record.caller.user_id && !known.has(record.caller.user_id)) errors[`cdrs.${index}.caller.user_id`] = ['The selected user id is invalid.'];
    record.receivers.forEach((leg, legIndex) => {
      if (leg.user_id && !known.has(leg.user_id)) errors[`cdrs.${index}.receivers.${legIndex}.user_id`] = ['The selected user id is invalid.'];
    });
  });
  if (Object.keys(errors).length) throw new ValidationFailed(errors);

  const now = ctx.clock.now().toISOString();
  const unique = new Map<number, IngestCdrView>();
  for (const record of records) if (!unique.has(record.cdr_id)) unique.set(record.cdr_id, record);
  const rows: Array<Insertable<CdrTable>> = [];
  const participants: Array<Insertable<CdrParticipantTable>> = [];
  for (const record of unique.values()) {
    const receivers = record.receivers.map((leg) => ({
      id: leg.user_id ?? null,
      status: leg.status,
      name: leg.name ?? '',
      number: leg.number,
      start_time: leg.start_time,
      answer_time: leg.answer_time ?? null,
      end_time: leg.end_time,
      duration: leg.duration,
      billsec: leg.billsec,
      via_id: leg.via_id ?? null,
      via_name: leg.via_name ?? null,
      via_number: leg.via_number ?? null,
      via_type: leg.via_type ?? null,
    }));
    const words = [
      record.caller.name ?? '',
      record.caller.number,
      ...receivers.flatMap((leg) => [leg.name, leg.number, leg.via_name ?? '', leg.via_number ?? '']),
    ];
    rows.push({
      pbx_id: tenant.pbxId,
      cdr_id: record.cdr_id,
      type: record.type,
      status: callStatus(record),
      start_time: record.start_time,
      answer_time: record.answer_time ?? null,
      end_time: record.end_time,
      duration: record.duration,
      billsec: record.billsec,
      is_transfer_call: record.is_transfer_call ? 1 : 0,
      is_internal: record.is_internal ? 1 : 0,
      is_conference_call: record.is_conference_call ? 1 : 0,
      has_recording: 0,
      caller_user_id: record.caller.user_id ?? null,
      caller_name: record.caller.name ?? '',
      caller_number: record.caller.number,
      search_text: words.filter(Boolean).join(' ').toLowerCase(),
      receivers: JSON.stringify(receivers),
      call_flow: JSON.stringify(
        (record.call_flow ?? []).map((item) => ({ color: item.color, text: item.text, sub_text: item.sub_text ?? null, time: item.time })),
      ),
      conference: JSON.stringify(record.conference ?? []),
      notes: JSON.stringify(record.notes ?? []),
      transcriptions: record.transcriptions ? JSON.stringify(record.transcriptions) : null,
      ai_processing_errors: JSON.stringify(record.ai_processing_errors ?? []),
      source,
      created_at: now,
    });
    const users = new Set([record.caller.user_id, ...record.receivers.map((leg) => leg.user_id)].filter((id): id is string => !!id));
    for (const userId of users) participants.push({ pbx_id: tenant.pbxId, cdr_id: record.cdr_id, user_id: userId, start_time: record.start_time });
  }
  const createdIds = await ctx.db.transaction().execute(async (trx) => {
    const created = await insertCdrs(trx, rows);
    await insertParticipants(
      trx,
      participants.filter((row) => created.has(Number(row.cdr_id))),
    );
    return created;
  });
  return { received: records.length, created: createdIds.size, duplicates: records.length - createdIds.size, createdIds };
}

/** Call history: ingestion, the list, the detail and the recordings, as far as the principal may see them. */
export class CdrsService {
  // What each user may see: read on every history request, changed only with the tenant's data.
  private readonly visibilities: StampedCache<Visibility>;

  constructor(private readonly ctx: AppContext) {
    this.visibilities = tenantDataCache(ctx, 10_000);
  }

  /** Administrators and `call-history` keys see the whole PBX; a user what its visibility settings grant. */
  async visibility(tenant: Tenant, principal: Principal): Promise<Visibility> {
    if (principal.kind !== 'user' || principal.role === 'admin') return { calls: { kind: 'all' }, recordings: { kind: 'all' } };
    const cached = this.visibilities.get(principal.userId);
    if (cached) return cached;
    const stamp = this.visibilities.stamp();
    const visibility = await this.readVisibility(tenant, principal.userId);
    this.visibilities.set(principal.userId, tenant.pbxId, stamp, visibility);
    return visibility;
  }

  private async readVisibility(tenant: Tenant, userId: string): Promise<Visibility> {
    const viewer = await findViewer(this.ctx.db, tenant, userId);
    if (!viewer) return { calls: { kind: 'none' }, recordings: { kind: 'none' } };
    const needsPeers = [viewer.call_information_visibility, viewer.call_recordings_visibility].includes('own_group_only');
    const peers = needsPeers ? await groupPeers(this.ctx.db, tenant, viewer.id) : [viewer.id];
    return {
      calls: scopeOf(viewer.call_information_visibility, viewer.id, () => peers),
      recordings: scopeOf(viewer.call_recordings_visibility, viewer.id, () => peers),
    };
  }

  ingest(tenant: Tenant, records: IngestCdrView[]) {
    return ingestCdrs(this.ctx, tenant, records, 'api');
  }

  async list(
    tenant: Tenant,
    principal: Principal,
    query: { cursor?: string; perPage: number; filters: CdrFilters },
  ): Promise<{ items: CallHistoryEntryView[]; next: string | null }> {
    const { filters } = query;
    if (filters.from && filters.to && filters.to < filters.from)
      throw ValidationFailed.field('filter[to]', 'The filter[to] must be a date after or equal to filter[from].');
    const after = query.cursor ? decodeCursor(query.cursor) : null;
    const visibility = await this.visibility(tenant, principal);
    const rows = await listCdrs(this.ctx.db, tenant, visibility.calls, filters, after, query.perPage + 1);
    const page = rows.slice(0, query.perPage);
    const last = page[page.length - 1];
    const next = rows.length > query.perPage && last ? encodeCursor({ startTime: last.start_time, cdrId: Number(last.cdr_id) }) : null;
    return { items: page.map(presentHistoryEntry), next };
  }

  async detail(tenant: Tenant, principal: Principal, cdrId: number): Promise<CallDetailRecordView> {
    const row = await findCdr(this.ctx.db, tenant, cdrId);
    if (!row) throw new NotFound('Call detail record not found.');
    const visibility = await this.visibility(tenant, principal);
    const participants = visibility.calls.kind === 'all' && visibility.recordings.kind === 'all' ? [] : await participantsOf(this.ctx.db, tenant, cdrId);
    if (!scopeAllows(visibility.calls, participants)) throw new NotFound('Call detail record not found.');
    const recordings = row.has_recording === 1 ? await recordingsOf(this.ctx.db, tenant, cdrId) : [];
    return presentDetail(row, recordings, scopeAllows(visibility.recordings, participants), this.ctx.config.baseUrl);
  }

  /** Opens a recording for download: it must be one of the tenant's, on a call the viewer may hear. */
  async openRecording(tenant: Tenant, principal: Principal, relative: string, rangeHeader: string | undefined): Promise<RecordingStream> {
    assertSafeRelativePath(relative);
    const recording = await findRecordingByPath(this.ctx.db, tenant, relative);
    if (!recording) throw new NotFound('Recording not found.');
    const visibility = await this.visibility(tenant, principal);
    const cdrId = Number(recording.cdr_id);
    const participants = visibility.calls.kind === 'all' && visibility.recordings.kind === 'all' ? [] : await participantsOf(this.ctx.db, tenant, cdrId);
    if (!scopeAllows(visibility.calls, participants)) throw new NotFound('Recording not found.');
    if (!scopeAllows(visibility.recordings, participants)) throw new Forbidden('You are not allowed to listen to the recordings of this call.');
    const file = await resolveRecordingFile(recordingsRoot(this.ctx.config.dataDir, tenant.pbxId), recording.path);
    if (!file) throw new NotFound('Recording not found.');
    const { size } = await stat(file);
    const range = parseRange(rangeHeader, size);
    if (range === 'unsatisfiable') {
      const error = new ClientError(416, 'The requested range is not satisfiable.');
      error.headers['content-range'] = `bytes */${size}`;
      throw error;
    }
    const stream = range ? createReadStream(file, { start: range.start, end: range.end }) : createReadStream(file);
    return { stream, contentType: recording.content_type, size, range, name: recording.name };
  }

  /**
   * One call pushed together with its recordings (multipart), all or nothing: every file is
   * staged first, so a refused file, a refused record or a broken upload stores neither the call
   * nor any of its files; only then is the call ingested and the files moved into place.
   */
  async ingestWithRecordings(tenant: Tenant, record: IngestCdrView, uploads: AsyncIterable<RecordingUpload>) {
    const root = recordingsRoot(this.ctx.config.dataDir, tenant.pbxId);
    const staged: Array<StagedRecording & { kind: RecordingKind; contentType: string }> = [];
    let result: Awaited<ReturnType<typeof ingestCdrs>>;
    try {
      for await (const upload of uploads) {
        const field = upload.kind === 'full' ? 'recording' : `recording_${upload.kind}`;
        const contentType = contentTypeOf(upload.fileName);
        if (!contentType || staged.some((file) => file.kind === upload.kind)) {
          upload.stream.resume();
          throw ValidationFailed.field(field, contentType ? `Send the ${field} file once.` : 'The recording must be a wav, mp3, ogg or opus file.');
        }
        const extension = upload.fileName.slice(upload.fileName.lastIndexOf('.')).toLowerCase();
        const path = recordingRelativePath(record.start_time, record.cdr_id, upload.kind, extension);
        staged.push({ kind: upload.kind, contentType, ...(await stageRecording(root, path, upload.stream)) });
      }
      result = await ingestCdrs(this.ctx, tenant, [record], 'api');
    } catch (error) {
      await Promise.all(staged.map(discardRecording));
      throw error;
    }
    const stored: Array<{ kind: RecordingKind; path: string; size_bytes: number }> = [];
    for (const file of staged) await commitRecording(root, file);
    const createdAt = this.ctx.clock.now().toISOString();
    await this.ctx.db.transaction().execute(async (trx) => {
      for (const file of staged) {
        await upsertRecording(trx, {
          pbx_id: tenant.pbxId,
          cdr_id: record.cdr_id,
          kind: file.kind,
          path: file.relative,
          name: file.relative.split('/').pop() ?? file.relative,
          content_type: file.contentType,
          size_bytes: file.size,
          created_at: createdAt,
        });
        stored.push({ kind: file.kind, path: file.relative, size_bytes: file.size });
      }
    });
    return { cdr_id: record.cdr_id, created: result.created === 1, recordings: stored };
  }
}
