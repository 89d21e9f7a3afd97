import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import type { Insertable } from 'kysely';
import { ClientError, Forbidden, NotFound, ValidationFailed, type FieldErrors } from '../../../platform/errors.js';
import type { Principal } from '../../../platform/auth/principal.js';
import type { AppContext } from '../../../platform/context.js';
import { tenantDataCache, type StampedCache } from '../../../platform/cache/stamped-cache.js';
import type { Tenant } from '../../../platform/tenancy.js';
import { parseByteRange, type ByteRange } from '../../../http/byte-range.js';
import { groupPeers } from '../../address-book/index.js';
import { presentDetail, presentHistoryEntry, presentHistoryPage, type HistoryPage } from './cdrs.presenter.js';
import { DEFAULT_PAGE_SIZE } from '../../../http/list-query.js';
import {
  findCdr,
  findRecordingByPath,
  findViewer,
  insertCdrs,
  insertParticipants,
  listCdrs,
  participantsOf,
  recordingsOf,
  tenantUserIds,
  upsertRecording,
  countCdrs,
  type CdrFilters,
  type CdrScope,
  type CdrListRow,
  type HistoryOrder,
  type HistoryWindow,
  type Keyset,
  replaceCdrs,
} from './cdrs.queries.js';
import type { CallDetailRecordView, CdrListQueryView, IngestCdrView } from './cdrs.schemas.js';
import type { CdrParticipantTable, CdrStatus, CdrTable, RecordingKind } from '../calls.tables.js';
import {
  assertSafeRelativePath,
  commitRecording,
  contentTypeOf,
  discardRecording,
  recordingRelativePath,
  recordingsRoot,
  resolveRecordingFile,
  stageRecording,
  type StagedRecording,
} from './recordings.js';

export interface Visibility {
  calls: CdrScope;
  recordings: CdrScope;
}

/** The list's filters: a day alone in `filter[from]` / `filter[to]` means from its start / to its end. */
function historyFilters(query: CdrListQueryView): CdrFilters {
  const from = query['filter[from]'];
  const to = query['filter[to]'];
  return {
    from: from && (from.length === 10 ? `${from} 00:00:00` : from),
    to: to && (to.length === 10 ? `${to} 23:59:59` : to),
    type: query['filter[type]'],
    status: query['filter[status]'],
    userId: query['filter[user_id]'],
    internal: query['filter[internal]'],
    withRecording: query['filter[with_recording]'],
    search: query.search?.trim() || undefined,
  };
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

/** The largest id a bigint column holds. */
const MAX_CDR_ID = 9_223_372_036_854_775_807n;

/**
 * A call id as exact decimal text, from the digits or the (safe) number it was sent as; one
 * outside 1..2^63-1 is a 422 on `field`.
 */
export function cdrIdOf(value: string | number, field: string): string {
  const id = typeof value === 'number' ? (Number.isSafeInteger(value) ? BigInt(value) : null) : /^[1-9][0-9]{0,18}$/.test(value) ? BigInt(value) : null;
  const label = (field.split('.').pop() ?? field).replace(/_/g, ' ');
  if (id === null || id < 1n || id > MAX_CDR_ID) throw ValidationFailed.field(field, `The ${label} field must be an integer from 1 to ${MAX_CDR_ID}.`);
  return id.toString();
}

/**
 * Where a page of the history starts: the position it reads beyond, in which direction (a `next`
 * page continues the order, a `prev` page walks back), how many rows come before it (its place in
 * the page numbering) and the order it was made for.
 */
export interface HistoryCursor {
  after: Keyset;
  direction: 'next' | 'prev';
  offset: number;
  order: HistoryOrder;
}

export const encodeCursor = (cursor: HistoryCursor) =>
  Buffer.from(JSON.stringify([cursor.after.startTime, cursor.after.cdrId, cursor.direction, cursor.offset, cursor.order])).toString('base64url');

function decodeCursor(cursor: string): HistoryCursor {
  try {
    const [startTime, cdrId, direction, offset, order] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown[];
    if (
      typeof startTime === 'string' &&
      /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/.test(startTime) &&
      typeof cdrId === 'string' &&
      /^[1-9][0-9]{0,18}$/.test(cdrId) &&
      (direction === 'next' || direction === 'prev') &&
      Number.isSafeInteger(offset) &&
      (offset as number) >= 0 &&
      (order === 'desc' || order === 'asc')
    )
      return { after: { startTime, cdrId }, direction, offset: offset as number, order };
  } catch {
    // reported below
  }
  throw ValidationFailed.field('cursor', 'The cursor is invalid; follow links.next or links.prev of a page.');
}

export interface IngestResult {
  received: number;
  created: number;
  duplicates: number;
  createdIds: Set<string>;
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
  /** A strong validator of the file: its size and modification time (a recording is written once, replaced whole). */
  etag: string;
}

/** Stores finished calls, idempotent on `cdr_id`: the PBX's pushes, AMI Cdr events and the simulated engine all come here. */
export async function ingestCdrs(
  ctx: AppContext,
  tenant: Tenant,
  records: IngestCdrView[],
  source: CdrTable['source'],
  /** Replace a record of the same id (a call whose legs arrive one by one), its recordings kept. */
  options: { replace?: boolean } = {},
): Promise<IngestResult> {
  const errors: FieldErrors = {};
  const mentioned = new Set<string>();
  const ids: string[] = [];
  records.forEach((record, index) => {
    const field = `cdrs.${index}.cdr_id`;
    try {
      ids.push(cdrIdOf(record.cdr_id, field));
    } catch (error) {
      if (!(error instanceof ValidationFailed)) throw error;
      Object.assign(errors, error.errors);
      ids.push('');
    }
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
  const unique = new Map<string, IngestCdrView>();
  records.forEach((record, index) => {
    if (!unique.has(ids[index])) unique.set(ids[index], record);
  });
  const rows: Array<Insertable<CdrTable>> = [];
  const participants: Array<Insertable<CdrParticipantTable>> = [];
  for (const [cdrId, record] of unique) {
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
      cdr_id: cdrId,
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
    for (const userId of users) participants.push({ pbx_id: tenant.pbxId, cdr_id: cdrId, user_id: userId, start_time: record.start_time });
  }
  const createdIds = await ctx.db.transaction().execute(async (trx) => {
    const created = options.replace ? await replaceCdrs(trx, tenant, rows) : await insertCdrs(trx, rows);
    await insertParticipants(
      trx,
      participants.filter((row) => created.has(String(row.cdr_id))),
    );
    return created;
  });
  return { received: records.length, created: createdIds.size, duplicates: records.length - createdIds.size, createdIds };
}

/** Call history: ingestion, the list, the detail and the recordings, as far as the principal may see them. */
export class CdrsService {
  // What each user may see: read on every history request, changed only with the tenant's data.
  private readonly visibilities: StampedCache<Visibility>;
  // Totals of the history lists by scope and filters; several requests missing one count it once.
  private readonly totals: StampedCache<number>;
  private readonly counting = new Map<string, Promise<number>>();

  constructor(private readonly ctx: AppContext) {
    this.visibilities = tenantDataCache(ctx, 10_000);
    this.totals = tenantDataCache(ctx, 10_000);
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

  /**
   * A page of the history in the contract's paginated shape. `page` reads by offset (from the
   * nearer end, so the last page is as cheap as the first); a cursor (links.next/prev) reads by
   * keyset, the same cost at any depth, and carries its place in the numbering. The total is
   * counted once per filter set until the tenant's data changes (at most CACHE_TTL_MS).
   */
  async list(tenant: Tenant, principal: Principal, query: CdrListQueryView) {
    const perPage = query.perPage ?? DEFAULT_PAGE_SIZE;
    const order: HistoryOrder = query.sort === 'start_time' ? 'asc' : 'desc';
    const history = await this.page(tenant, principal, { cursor: query.cursor, page: query.page, perPage, order, filters: historyFilters(query) });
    return presentHistoryPage(history, query, perPage, `${this.ctx.config.baseUrl}/cdrs`);
  }

  private async page(
    tenant: Tenant,
    principal: Principal,
    query: { cursor?: string; page?: number; perPage: number; order: HistoryOrder; filters: CdrFilters },
  ): Promise<HistoryPage> {
    const { filters, perPage, order } = query;
    if (filters.from && filters.to && filters.to < filters.from)
      throw ValidationFailed.field('filter[to]', 'The filter[to] must be a date after or equal to filter[from].');
    if (query.cursor && query.page !== undefined)
      throw ValidationFailed.field('page', 'The page field cannot be combined with cursor: a cursor already names its page.');
    const cursor = query.cursor ? decodeCursor(query.cursor) : null;
    if (cursor && cursor.order !== order) throw ValidationFailed.field('cursor', 'The cursor was made for another sort order.');
    const visibility = await this.visibility(tenant, principal);
    const total = await this.total(tenant, visibility.calls, filters);
    const read = (window: Omit<HistoryWindow, 'order'> & { order?: HistoryOrder }) =>
      listCdrs(this.ctx.db, tenant, visibility.calls, filters, { order, ...window });
    const reverse: HistoryOrder = order === 'desc' ? 'asc' : 'desc';

    let offset: number;
    let rows: CdrListRow[];
    if (cursor?.direction === 'next') {
      offset = cursor.offset;
      rows = await read({ after: cursor.after, offset: 0, limit: perPage });
    } else if (cursor) {
      // Walking back: the rows just before the position, read in the other order, turned round.
      const count = Math.min(perPage, cursor.offset);
      offset = cursor.offset - count;
      rows = (await read({ order: reverse, after: cursor.after, offset: 0, limit: count })).reverse();
    } else {
      offset = ((query.page ?? 1) - 1) * perPage;
      const count = Math.max(0, Math.min(perPage, total - offset));
      const fromEnd = total - offset - count;
      rows =
        fromEnd < offset
          ? (await read({ order: reverse, after: null, offset: fromEnd, limit: count })).reverse()
          : await read({ after: null, offset, limit: count });
    }

    const keyOf = (row: CdrListRow): Keyset => ({ startTime: row.start_time, cdrId: row.cdr_id });
    const first = rows[0];
    const last = rows[rows.length - 1];
    const next = last && offset + rows.length < total ? encodeCursor({ after: keyOf(last), direction: 'next', offset: offset + rows.length, order }) : null;
    const prev = first && offset > 0 ? encodeCursor({ after: keyOf(first), direction: 'prev', offset, order }) : null;
    return { items: rows.map(presentHistoryEntry), total, offset, next, prev };
  }

  /** The number of calls a scope and filters select, counted once until the tenant's data changes. */
  private async total(tenant: Tenant, scope: CdrScope, filters: CdrFilters): Promise<number> {
    const key = JSON.stringify([tenant.pbxId, scope, filters]);
    const cached = this.totals.get(key);
    if (cached !== undefined) return cached;
    let pending = this.counting.get(key);
    if (!pending) {
      const stamp = this.totals.stamp();
      pending = countCdrs(this.ctx.db, tenant, scope, filters)
        .then((total) => {
          this.totals.set(key, tenant.pbxId, stamp, total);
          return total;
        })
        .finally(() => this.counting.delete(key));
      this.counting.set(key, pending);
    }
    return pending;
  }

  async detail(tenant: Tenant, principal: Principal, id: string): Promise<CallDetailRecordView> {
    const cdrId = cdrIdOf(id, 'id');
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
    const cdrId = recording.cdr_id;
    const participants = visibility.calls.kind === 'all' && visibility.recordings.kind === 'all' ? [] : await participantsOf(this.ctx.db, tenant, cdrId);
    if (!scopeAllows(visibility.calls, participants)) throw new NotFound('Recording not found.');
    if (!scopeAllows(visibility.recordings, participants)) throw new Forbidden('You are not allowed to listen to the recordings of this call.');
    const file = await resolveRecordingFile(recordingsRoot(this.ctx.config.dataDir, tenant.pbxId), recording.path);
    if (!file) throw new NotFound('Recording not found.');
    const { size, mtimeMs } = await stat(file);
    const range = parseByteRange(rangeHeader, size);
    if (range === 'unsatisfiable') {
      const error = new ClientError(416, 'The requested range is not satisfiable.');
      error.headers['content-range'] = `bytes */${size}`;
      throw error;
    }
    const stream = range ? createReadStream(file, { start: range.start, end: range.end }) : createReadStream(file);
    const etag = `"${size.toString(36)}-${Math.trunc(mtimeMs).toString(36)}"`;
    return { stream, contentType: recording.content_type, size, range, name: recording.name, etag };
  }

  /**
   * One call pushed together with its recordings (multipart), all or nothing: every file is
   * staged first, so a refused file, a refused record or a broken upload stores neither the call
   * nor any of its files; only then is the call ingested and the files moved into place.
   */
  async ingestWithRecordings(tenant: Tenant, record: IngestCdrView, uploads: AsyncIterable<RecordingUpload>) {
    const root = recordingsRoot(this.ctx.config.dataDir, tenant.pbxId);
    const cdrId = cdrIdOf(record.cdr_id, 'cdr_id');
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
        const path = recordingRelativePath(record.start_time, cdrId, upload.kind, extension);
        staged.push({ kind: upload.kind, contentType, ...(await stageRecording(root, path, upload.stream, field)) });
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
          cdr_id: cdrId,
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
    return { cdr_id: BigInt(cdrId), created: result.created === 1, recordings: stored };
  }
}
