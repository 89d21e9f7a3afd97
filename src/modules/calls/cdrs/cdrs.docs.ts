import type { OperationDocs } from '../../../http/resource-routes.js';

/** The OpenAPI text of cdrs.routes.ts, by operation id; the detail names the limit the server runs with. */
export function cdrDocs(detailPerMinute: number) {
  return {
    listCallHistory: {
      summary: 'Call history, newest first, paginated',
      description:
        'Calls the principal may see: administrators and `call-history` keys see the whole PBX; a user sees what its `call_information_visibility` grants (own_calls: calls it took part in; own_group_only: calls of anyone sharing one of its groups; none: nothing). ' +
        'The standard paginated envelope: follow `links.next` / `links.prev` (they carry a keyset `cursor`: as cheap at any depth) or ask for a `page` by number. ' +
        "`meta.total` counts the matching calls; it is counted once per set of filters until the PBX's data changes, and at most `CACHE_TTL_MS` late for calls recorded in the background.",
    },
    getCallDetail: {
      summary: 'Full detail of one call',
      description: `Scoped to the caller's PBX and visibility. Limited to ${detailPerMinute} requests a minute per user (all of its tokens together) or API key, counted apart from the general limit (its own 429).`,
    },
    downloadCallRecording: {
      summary: 'Download a call recording',
      description:
        'Streams the file named by `path` (from a recording_file object) with its audio content type. Supports a single HTTP `Range: bytes=` range (206, or 416 when unsatisfiable). ' +
        "Only recordings of the caller's PBX, on calls it may see and whose recordings its `call_recordings_visibility` lets it hear (403 otherwise).",
    },
    ingestCallDetailRecords: {
      summary: 'Push finished calls (PBX server)',
      description: `The PBX server pushes finished calls in batches of up to 500, authenticated with its PBX server key. Idempotent on \`cdr_id\`: a record already stored is left unchanged and counted in \`duplicates\`, so a batch may be retried safely. Times are UTC \`YYYY-MM-DD HH:MM:SS\`; \`user_id\`s must be users of the PBX. Recordings are uploaded with their record through \`POST /cdrs/with-recordings\`.`,
    },
    ingestCallDetailRecordWithRecordings: {
      summary: 'Push one finished call with its recordings (PBX server, multipart)',
      description:
        'multipart/form-data: first a field `cdr` holding the call as JSON (the same shape as one item of `POST /cdrs`), then up to three files: `recording` (the whole call), `recording_caller`, `recording_callee` (wav, mp3, ogg or opus). ' +
        'Each file field at most once. All or nothing: when any part is refused (422), too large (413) or the upload breaks off (422 when the body ends without its closing boundary), neither the call nor any of its files is stored. ' +
        'Idempotent on `cdr_id`; uploading a recording again replaces the stored file.',
    },
  } satisfies OperationDocs;
}
