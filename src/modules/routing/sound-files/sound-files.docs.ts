import type { OperationDocs } from '../../../http/resource-routes.js';
import { ANNOUNCEMENT_LANGUAGES } from '../shared/languages.js';

/** The OpenAPI text of sound-files.routes.ts, by operation id; the uploads name the size limit the server runs with. */
export function soundFileDocs(maxBytes: number) {
  const checks =
    `The content decides, not the name or declared type: WAV (RIFF/WAVE, PCM samples) or MP3; anything else is 415. At most ${maxBytes} bytes (SOUND_FILE_MAX_BYTES; 413 beyond). ` +
    'A WAV or MP3 that cannot be read or has no duration is 422 on `file`, and so is one longer than 10 minutes (announcement) or 60 minutes (music). ' +
    'The audio is kept as uploaded (GET …/content) and converted to what the PBX plays, an 8 kHz mono 16-bit PCM WAV (GET …/playable): ' +
    'channels averaged, resampled; a file that cannot be converted (a sample rate outside 32-192000 Hz, an MP3 whose frames do not decode) is 422 on `file`.';
  return {
    createSoundFile: {
      summary: 'Upload an announcement or music on hold (administrators)',
      description:
        'multipart/form-data with one `file` part and the fields `name` (1-128 characters, no line breaks or other control characters, required), `type` (announcement | music, required) and `language` ' +
        `(optional: ${ANNOUNCEMENT_LANGUAGES.join(' ')}; empty = null). ${checks}`,
    },
    replaceSoundFileContent: {
      summary: 'Replace the audio of a sound file (administrators)',
      description: `multipart/form-data with one \`file\` part; the name, type and language stay. ${checks}`,
    },
    downloadSoundFile: {
      summary: 'Download the audio of a sound file',
      description:
        'Any user of the PBX, its PBX key, or an integration key with the call-routing scope. The audio with its Content-Type, Content-Length, ETag (its SHA-256) and Content-Disposition: attachment. A single `Range: bytes=` range (a-b, a-, -n) ' +
        'answers 206 with Content-Range; a range outside the file 416 with `Content-Range: bytes */<size>`. A deleted sound file is 404.',
    },
    downloadPlayableSoundFile: {
      summary: 'Download the audio of a sound file as the PBX plays it',
      description:
        'For the PBX host (its PBX server key; `scripts/pbx-sounds-sync.mjs` fetches every file this way), and, like the download, any user of the PBX, its PBX key, or an integration key with the call-routing scope. ' +
        'The audio converted on upload to what Asterisk plays as `.wav`: 8 kHz, mono, 16-bit PCM, about as long as the original. ' +
        'Content-Type audio/wav, Content-Length, ETag (its SHA-256, the `playable_checksum_sha256` of the sound file) and Content-Disposition: attachment; filename="<id without dashes>.wav", the name it has on the PBX. ' +
        'A single `Range: bytes=` range answers 206, one outside the file 416, as the download. A file uploaded before the conversion existed is converted on this first fetch; ' +
        'one whose audio cannot be converted is 422 on `file`. A deleted sound file, or another PBX’s, is 404.',
    },
    deleteSoundFile: {
      summary: 'Delete a sound file (soft, restorable; permanent=1 for good) (administrators)',
      description:
        'A soft delete is allowed while IVRs, queues or call flows use the file (the routing validation then reports the dangling reference; restore it to mend). ' +
        '`permanent=1` deletes the row and its audio for good, deleted or not, and is refused with 409 `{message, used_by}` while anything uses it.',
    },
    listSoundFiles: {
      summary: 'Sound files of the PBX',
      description:
        'Any user of the PBX, its PBX key, or an integration key with the call-routing scope. search on the name; filter[type], filter[language], filter[trashed].',
    },
    getSoundFile: {
      summary: 'One sound file',
      description:
        'Any user of the PBX, its PBX key, or an integration key with the call-routing scope. ' +
        'The metadata of the file (the audio is at GET /sound-files/{soundFile}/content as uploaded, and at GET /sound-files/{soundFile}/playable as the PBX plays it); a deleted file, or another PBX’s, is 404.',
    },
    updateSoundFile: {
      summary: 'Rename a sound file, or change its language or type (administrators)',
      description: 'The type cannot change while an IVR, queue or call flow uses the file (422 on type naming them), nor to one the duration exceeds.',
    },
    restoreSoundFile: {
      summary: 'Restore a deleted sound file (administrators)',
      description:
        'Administrators of the PBX only. ' +
        'Clears deleted_at and answers the file; its audio, kept through the soft delete, can be downloaded again, and the IVRs, queues and call flows that still name it no longer point at a deleted file. ' +
        'A file that is not deleted, one deleted with permanent=1, or another PBX’s, is 404.',
    },
  } satisfies OperationDocs;
}
