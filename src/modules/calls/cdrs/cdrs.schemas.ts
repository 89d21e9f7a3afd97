import { Type, type Static } from '@sinclair/typebox';
import { DateOnly, Nullable, StringEnum, Uuid } from '../../../http/schema.js';
import { ListQuery } from '../../../http/list-query.js';
import { Paginated } from '../../../http/pagination.js';
import { UploadFile } from '../../../http/uploads.js';

export const CALL_TIME_PATTERN = '^\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2}$';
const CallTime = (description = 'UTC, `YYYY-MM-DD HH:MM:SS`.') => Type.String({ pattern: CALL_TIME_PATTERN, description, examples: ['2026-01-15 09:30:12'] });

export const CDR_TYPES = ['INCOMING', 'OUTGOING'] as const;
export const LEG_STATUSES = ['TRIGGERED', 'RINGING', 'ANSWERED', 'MISSED', 'BUSY', 'FAILED'] as const;
export const VIA_TYPES = ['CALL_FLOW', 'QUEUE', 'TWINNING', 'IVR'] as const;
export const FLOW_COLORS = ['info', 'secondary', 'success', 'warning', 'danger'] as const;
export const CALL_STATUSES = ['answered', 'missed', 'busy', 'failed'] as const;
export const RECORDING_KINDS = ['full', 'caller', 'callee'] as const;

const FreeForm = Type.Object({}, { additionalProperties: true });

export const Caller = Type.Object({
  id: Nullable(Uuid({ description: 'The calling user; null for an external caller.' })),
  name: Type.String(),
  number: Type.String(),
});

export const Receiver = Type.Object({
  id: Nullable(Type.String({ description: 'The user this leg rang; null for an external party.' })),
  status: StringEnum(LEG_STATUSES),
  name: Type.String({ description: 'Empty when unknown.' }),
  number: Type.String(),
  start_time: CallTime(),
  answer_time: Nullable(CallTime()),
  end_time: CallTime(),
  duration: Type.Integer({ minimum: 0, format: 'int32' }),
  billsec: Type.Integer({ minimum: 0, format: 'int32' }),
  via_id: Nullable(Type.String()),
  via_name: Nullable(Type.String()),
  via_number: Nullable(Type.String()),
  via_type: Nullable(StringEnum(VIA_TYPES)),
});

export const CallFlowItem = Type.Object({ color: StringEnum(FLOW_COLORS), text: Type.String(), sub_text: Nullable(Type.String()), time: CallTime() });

export const RecordingFile = Type.Object({
  name: Type.String({ description: 'File name; empty when there is no recording.' }),
  path: Nullable(
    Type.String({ description: 'The `path` query parameter of `GET /cdrs/recording`; null without a recording (or when you may not listen to it).' }),
  ),
  download_url: Nullable(Type.String({ format: 'uri' })),
  hint: Type.String({ description: 'Which part of the call is covered, and that the download needs a bearer token.' }),
});

const CdrCommon = {
  id: Type.Unsafe<bigint>({ type: 'integer', format: 'int64', minimum: 1, description: 'The `cdr_id` of the call: a 64-bit integer, exact at any size.' }),
  company_id: Uuid({ description: 'The tenant (PBX).' }),
  type: StringEnum(CDR_TYPES),
  status: StringEnum(CALL_STATUSES, { description: 'Overall outcome: answered when any leg answered; busy or failed when every leg was; otherwise missed.' }),
  date: DateOnly(),
  start_time: CallTime(),
  answer_time: Nullable(CallTime()),
  end_time: CallTime(),
  duration: Type.Integer({ minimum: 0, format: 'int32' }),
  billsec: Type.Integer({ minimum: 0, format: 'int32' }),
  is_transfer_call: Type.Boolean(),
  is_internal: Type.Boolean({ description: 'Both parties are internal.' }),
  is_conference_call: Type.Boolean(),
  is_recording_file_exists: Type.Boolean(),
  caller: Caller,
  receivers: Type.Array(Receiver),
};

export const CallDetailRecord = Type.Object(
  {
    ...CdrCommon,
    conference: Type.Array(FreeForm),
    recording_file: RecordingFile,
    recording_file_path_caller: RecordingFile,
    recording_file_path_callee: RecordingFile,
    call_flow: Type.Array(CallFlowItem),
    notes: Type.Array(FreeForm),
    transcriptions: Nullable(FreeForm, { description: 'null when unavailable.' }),
    ai_processing_errors: Type.Array(FreeForm),
  },
  {
    $id: 'CallDetailRecord',
    examples: [
      {
        id: 1795755422319,
        company_id: '5b434841-6826-4eb7-9e1e-52f33261ad31',
        type: 'INCOMING',
        status: 'missed',
        date: '2026-11-26',
        start_time: '2026-11-26 09:55:32',
        answer_time: null,
        end_time: '2026-11-26 09:55:57',
        duration: 25,
        billsec: 0,
        is_transfer_call: false,
        is_internal: false,
        is_conference_call: false,
        is_recording_file_exists: false,
        caller: { id: null, name: '', number: '+33612345678' },
        receivers: [
          {
            id: '2d7d40fc-5d58-4887-9624-db2cc510214d',
            status: 'MISSED',
            name: 'Marie Hoffmann',
            number: '203',
            start_time: '2026-11-26 09:55:32',
            answer_time: null,
            end_time: '2026-11-26 09:55:57',
            duration: 25,
            billsec: 0,
            via_id: 'cf-main',
            via_name: 'Main number',
            via_number: '+35227100100',
            via_type: 'CALL_FLOW',
          },
          {
            id: 'e84e9823-c8fa-4b5e-982c-30baaf0f0efc',
            status: 'MISSED',
            name: 'Anna Schmit',
            number: '201',
            start_time: '2026-11-26 09:55:32',
            answer_time: null,
            end_time: '2026-11-26 09:55:57',
            duration: 25,
            billsec: 0,
            via_id: 'cf-main',
            via_name: 'Main number',
            via_number: '+35227100100',
            via_type: 'CALL_FLOW',
          },
        ],
        conference: [],
        recording_file: { name: '', path: null, download_url: null, hint: 'The whole call, both parties mixed. No recording exists.' },
        recording_file_path_caller: { name: '', path: null, download_url: null, hint: "The caller's side of the call only. No recording exists." },
        recording_file_path_callee: { name: '', path: null, download_url: null, hint: "The callee's side of the call only. No recording exists." },
        call_flow: [
          { color: 'info', text: 'Call started', sub_text: null, time: '2026-11-26 09:55:32' },
          { color: 'warning', text: 'Nobody answered', sub_text: 'Voicemail', time: '2026-11-26 09:55:57' },
          { color: 'secondary', text: 'Call ended', sub_text: null, time: '2026-11-26 09:55:57' },
        ],
        notes: [],
        transcriptions: null,
        ai_processing_errors: [],
      },
    ],
  },
);
export type CallDetailRecordView = Static<typeof CallDetailRecord>;

export const CallHistoryEntry = Type.Object(CdrCommon, {
  $id: 'CallHistoryEntry',
  examples: [
    {
      id: 1795755422317,
      company_id: '5b434841-6826-4eb7-9e1e-52f33261ad31',
      type: 'INCOMING',
      status: 'answered',
      date: '2026-11-26',
      start_time: '2026-11-26 16:42:20',
      answer_time: '2026-11-26 16:42:30',
      end_time: '2026-11-26 16:46:14',
      duration: 234,
      billsec: 224,
      is_transfer_call: true,
      is_internal: false,
      is_conference_call: false,
      is_recording_file_exists: false,
      caller: { id: null, name: 'Jean Dupont', number: '+352621100200' },
      receivers: [
        {
          id: 'cc54d4ae-8057-438f-8cd8-f22406bd64cd',
          status: 'ANSWERED',
          name: 'Luc Weber',
          number: '202',
          start_time: '2026-11-26 16:42:20',
          answer_time: '2026-11-26 16:42:30',
          end_time: '2026-11-26 16:43:04',
          duration: 44,
          billsec: 34,
          via_id: null,
          via_name: null,
          via_number: null,
          via_type: null,
        },
        {
          id: '2d7d40fc-5d58-4887-9624-db2cc510214d',
          status: 'ANSWERED',
          name: 'Marie Hoffmann',
          number: '203',
          start_time: '2026-11-26 16:43:04',
          answer_time: '2026-11-26 16:43:08',
          end_time: '2026-11-26 16:46:14',
          duration: 190,
          billsec: 186,
          via_id: null,
          via_name: null,
          via_number: null,
          via_type: null,
        },
      ],
    },
  ],
  description: 'A call in the history list; the detail adds recordings, the call flow and notes.',
});
export type CallHistoryEntryView = Static<typeof CallHistoryEntry>;

export const CdrDetailResponse = Type.Object({ data: Type.Ref(CallDetailRecord), status: Type.Boolean({ examples: [true] }), message: Type.String() });
/** A 64-bit call id as text: a path segment carries it exactly, where a JavaScript number would round it beyond 2^53. */
const CdrIdDigits = { pattern: '^[1-9][0-9]{0,18}$', examples: ['1732619045123456'] };

export const CdrParams = Type.Object({
  id: Type.String({ ...CdrIdDigits, description: 'The `cdr_id` from the call-history list: a 64-bit integer (1 to 9223372036854775807), in digits.' }),
});

const DateOrTime = (description: string) => Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}( \\d{2}:\\d{2}:\\d{2})?$', description, examples: ['2026-01-01'] });

export const CdrListQuery = ListQuery({
  sort: ['start_time'],
  filters: {
    from: DateOrTime('Calls starting on or after this UTC date (`YYYY-MM-DD`) or time (`YYYY-MM-DD HH:MM:SS`).'),
    to: DateOrTime('Calls starting on or before this UTC date (the whole day) or time.'),
    type: StringEnum(CDR_TYPES, { description: 'Direction.' }),
    status: StringEnum(CALL_STATUSES),
    user_id: Uuid({ description: 'Calls this user took part in (as caller or on any leg).' }),
    internal: Type.Boolean({ description: 'true: only internal calls; false: only calls with an external party.' }),
    with_recording: Type.Boolean({ description: 'true: only calls with a recording; false: only calls without.' }),
  },
  extra: {
    cursor: Type.Optional(
      Type.String({
        maxLength: 300,
        description:
          'Opaque position carried by `links.next` and `links.prev`: the next or previous page, read by keyset, as cheap at any depth. Not combined with `page`.',
      }),
    ),
  },
});
export type CdrListQueryView = Static<typeof CdrListQuery>;

export const CdrListResponse = Paginated(Type.Ref(CallHistoryEntry), {
  description:
    'Newest first unless sort=start_time. The envelope of every paginated list; `links.next` and `links.prev` carry a keyset cursor, so paging on costs the same at any depth, while `links.first`, `links.last` and the page links read by page number (a page far from both ends costs more).',
});

// Ingestion, by the PBX server.
const IngestLeg = Type.Object(
  {
    user_id: Type.Optional(Nullable(Uuid({ description: 'The user this leg rang, when it rang a user.' }))),
    status: StringEnum(LEG_STATUSES),
    name: Type.Optional(Type.String({ maxLength: 255 })),
    number: Type.String({ maxLength: 64 }),
    start_time: CallTime(),
    answer_time: Type.Optional(Nullable(CallTime())),
    end_time: CallTime(),
    duration: Type.Integer({ minimum: 0, maximum: 2_147_483_647 }),
    billsec: Type.Integer({ minimum: 0, maximum: 2_147_483_647 }),
    via_id: Type.Optional(Nullable(Type.String({ maxLength: 64 }))),
    via_name: Type.Optional(Nullable(Type.String({ maxLength: 255 }))),
    via_number: Type.Optional(Nullable(Type.String({ maxLength: 64 }))),
    via_type: Type.Optional(Nullable(StringEnum(VIA_TYPES))),
  },
  { additionalProperties: false },
);

export const IngestCdr = Type.Object(
  {
    cdr_id: Type.Unsafe<number | string>({
      type: ['integer', 'string'],
      minimum: 1,
      maximum: Number.MAX_SAFE_INTEGER,
      ...CdrIdDigits,
      description:
        'The PBX id of the call, 1 to 9223372036854775807; pushing the same id again changes nothing. Ids beyond 2^53 (9007199254740991) go as a string of digits, since a JSON number that large is rounded by most parsers.',
    }),
    type: StringEnum(CDR_TYPES),
    start_time: CallTime(),
    answer_time: Type.Optional(Nullable(CallTime())),
    end_time: CallTime(),
    duration: Type.Integer({ minimum: 0, maximum: 2_147_483_647 }),
    billsec: Type.Integer({ minimum: 0, maximum: 2_147_483_647 }),
    is_transfer_call: Type.Optional(Type.Boolean()),
    is_internal: Type.Optional(Type.Boolean()),
    is_conference_call: Type.Optional(Type.Boolean()),
    conference: Type.Optional(Type.Array(FreeForm, { maxItems: 100 })),
    caller: Type.Object(
      { user_id: Type.Optional(Nullable(Uuid())), name: Type.Optional(Type.String({ maxLength: 255 })), number: Type.String({ maxLength: 64 }) },
      { additionalProperties: false },
    ),
    receivers: Type.Array(IngestLeg, { maxItems: 100 }),
    call_flow: Type.Optional(
      Type.Array(
        Type.Object(
          {
            color: StringEnum(FLOW_COLORS),
            text: Type.String({ maxLength: 500 }),
            sub_text: Type.Optional(Nullable(Type.String({ maxLength: 500 }))),
            time: CallTime(),
          },
          { additionalProperties: false },
        ),
        { maxItems: 200 },
      ),
    ),
    notes: Type.Optional(Type.Array(FreeForm, { maxItems: 100 })),
    transcriptions: Type.Optional(Nullable(FreeForm)),
    ai_processing_errors: Type.Optional(Type.Array(FreeForm, { maxItems: 100 })),
  },
  { additionalProperties: false, $id: 'CdrIngestRecord', description: 'A finished call as the PBX server pushes it. Times are UTC `YYYY-MM-DD HH:MM:SS`.' },
);
export type IngestCdrView = Static<typeof IngestCdr>;

export const MAX_INGEST_BATCH = 500;
export const IngestBody = Type.Object(
  { cdrs: Type.Array(Type.Ref(IngestCdr), { minItems: 1, maxItems: MAX_INGEST_BATCH }) },
  {
    additionalProperties: false,
    examples: [
      {
        cdrs: [
          {
            cdr_id: 48211,
            type: 'INCOMING',
            start_time: '2026-11-24 09:00:04',
            answer_time: '2026-11-24 09:00:12',
            end_time: '2026-11-24 09:03:40',
            duration: 216,
            billsec: 208,
            caller: { name: 'Marc Weber', number: '+352691234567' },
            receivers: [
              {
                status: 'ANSWERED',
                name: 'Anna Schmit',
                number: '201',
                start_time: '2026-11-24 09:00:05',
                answer_time: '2026-11-24 09:00:12',
                end_time: '2026-11-24 09:03:40',
                duration: 215,
                billsec: 208,
                via_name: 'Main number',
                via_number: '+35227123400',
                via_type: 'CALL_FLOW',
              },
            ],
          },
        ],
      },
    ],
  },
);
export const IngestResponse = Type.Object({
  data: Type.Object(
    {
      received: Type.Integer(),
      created: Type.Integer({ description: 'New records stored.' }),
      duplicates: Type.Integer({ description: 'Records whose `cdr_id` was already stored; left unchanged.' }),
    },
    { examples: [{ received: 3, created: 2, duplicates: 1 }] },
  ),
});

export const RecordingQuery = Type.Object({
  path: Type.String({ minLength: 1, maxLength: 255, pattern: '^[A-Za-z0-9][A-Za-z0-9._/-]*$', description: 'The `path` of a recording_file object.' }),
});

export const UploadResponse = Type.Object({
  data: Type.Object(
    {
      cdr_id: Type.Unsafe<bigint>({ type: 'integer', format: 'int64' }),
      created: Type.Boolean({ description: 'false when the record was already stored.' }),
      recordings: Type.Array(Type.Object({ kind: StringEnum(RECORDING_KINDS), path: Type.String(), size_bytes: Type.Integer() })),
    },
    { examples: [{ cdr_id: 1795755422003, created: true, recordings: [{ kind: 'full', path: '2026/11/1795755422003-full.wav', size_bytes: 1920044 }] }] },
  ),
});

const recordingFile = (whose: string) => Type.Optional(UploadFile(`The recording of ${whose}: wav, mp3, ogg or opus (by its file name's extension).`));
/** The parts of `POST /cdrs/with-recordings`, described for the OpenAPI document: the cdr part first. */
export const CdrUploadForm = Type.Object({
  cdr: Type.Ref(IngestCdr, { description: 'The call as JSON (an object part is sent as application/json), the same shape as one item of `POST /cdrs`.' }),
  recording: recordingFile('the whole call'),
  recording_caller: recordingFile('the caller’s side'),
  recording_callee: recordingFile('the callee’s side'),
});
