import type { Static } from '@sinclair/typebox';
import { linkParams, paginate } from '../../../http/pagination.js';
import type { CallDetailRecordView, CallHistoryEntryView, CdrListQueryView, Receiver, RecordingFile } from './cdrs.schemas.js';
import type { CdrDetailRow, CdrListRow, RecordingRow } from './cdrs.queries.js';
import type { RecordingKind } from '../calls.tables.js';

type RecordingFileView = Static<typeof RecordingFile>;
type ReceiverView = Static<typeof Receiver>;

const PARTS: Record<RecordingKind, string> = {
  full: 'The whole call, both parties mixed.',
  caller: "The caller's side of the call only.",
  callee: "The callee's side of the call only.",
};

const parse = <T>(json: string | null, fallback: T): T => (json === null ? fallback : (JSON.parse(json) as T));

/** One recording object: filled when the recording exists and the viewer may listen to it. */
export function presentRecording(kind: RecordingKind, row: RecordingRow | undefined, allowed: boolean, baseUrl: string): RecordingFileView {
  if (!row) return { name: '', path: null, download_url: null, hint: `${PARTS[kind]} No recording exists.` };
  if (!allowed) return { name: '', path: null, download_url: null, hint: `${PARTS[kind]} You are not allowed to listen to the recordings of this call.` };
  return {
    name: row.name,
    path: row.path,
    download_url: `${baseUrl}/cdrs/recording?path=${encodeURIComponent(row.path)}`,
    hint: `${PARTS[kind]} Download it with an Authorization: Bearer <token> header.`,
  };
}

export function presentHistoryEntry(row: CdrListRow): CallHistoryEntryView {
  return {
    // A 64-bit id: written out digit for digit (a JavaScript number would round it beyond 2^53).
    id: BigInt(row.cdr_id),
    company_id: row.pbx_id,
    type: row.type,
    status: row.status,
    date: row.start_time.slice(0, 10),
    start_time: row.start_time,
    answer_time: row.answer_time,
    end_time: row.end_time,
    duration: row.duration,
    billsec: row.billsec,
    is_transfer_call: row.is_transfer_call === 1,
    is_internal: row.is_internal === 1,
    is_conference_call: row.is_conference_call === 1,
    is_recording_file_exists: row.has_recording === 1,
    caller: { id: row.caller_user_id, name: row.caller_name, number: row.caller_number },
    receivers: parse<ReceiverView[]>(row.receivers, []),
  };
}

export function presentDetail(row: CdrDetailRow, recordings: RecordingRow[], recordingsAllowed: boolean, baseUrl: string): CallDetailRecordView {
  const byKind = new Map(recordings.map((recording) => [recording.kind, recording]));
  return {
    ...presentHistoryEntry(row),
    conference: parse<Array<Record<string, unknown>>>(row.conference, []),
    recording_file: presentRecording('full', byKind.get('full'), recordingsAllowed, baseUrl),
    recording_file_path_caller: presentRecording('caller', byKind.get('caller'), recordingsAllowed, baseUrl),
    recording_file_path_callee: presentRecording('callee', byKind.get('callee'), recordingsAllowed, baseUrl),
    call_flow: parse<CallDetailRecordView['call_flow']>(row.call_flow, []),
    notes: parse<Array<Record<string, unknown>>>(row.notes, []),
    transcriptions: parse<Record<string, unknown> | null>(row.transcriptions, null),
    ai_processing_errors: parse<Array<Record<string, unknown>>>(row.ai_processing_errors, []),
  };
}

/** A page of the history with its place in the whole: the rows, their total, and the cursors either side. */
export interface HistoryPage {
  items: CallHistoryEntryView[];
  total: number;
  /** Rows before this page (`from` is offset + 1). */
  offset: number;
  next: string | null;
  prev: string | null;
}

/**
 * A history page in the paginated envelope: links by page number, and `links.next` / `links.prev`
 * carrying the keyset cursors (the same query, without its own cursor).
 */
export function presentHistoryPage(history: HistoryPage, query: CdrListQueryView, perPage: number, path: string) {
  const { cursor: _cursor, ...numbered } = query;
  const withCursor = (cursor: string | null) => cursor && `${path}?${new URLSearchParams({ ...linkParams(numbered), cursor }).toString()}`;
  const page = { page: Math.floor(history.offset / perPage) + 1, perPage, offset: history.offset };
  return paginate(history.items, history.total, page, path, numbered, { prev: withCursor(history.prev), next: withCursor(history.next) });
}
