import { Type, type Static } from '@sinclair/typebox';
import { ListQuery } from '../../../http/list-query.js';
import { DateTime, Nullable, PbxText, StringEnum, Uuid } from '../../../http/schema.js';
import { TrashedFilterParam } from '../../../http/soft-delete.js';
import { UploadFile } from '../../../http/uploads.js';
import { ANNOUNCEMENT_LANGUAGES, LanguageOrAuto } from '../shared/languages.js';
import { SOUND_FILE_TYPES } from '../shared/sound-refs.js';
import { SOUND_FORMATS } from './audio.js';

export const SOUND_FILE_SORTS = ['name', 'created_at', 'duration_ms'] as const;

/** An announcement or music on hold: its metadata, read from the audio itself, and where to download it as uploaded and as the PBX plays it. */
export const SoundFile = Type.Object(
  {
    id: Uuid(),
    pbx_id: Uuid(),
    name: Type.String({ examples: ['Welcome (business hours)'] }),
    type: StringEnum(SOUND_FILE_TYPES, { description: 'announcement (played to the caller: menus, queues) or music (on hold).' }),
    language: Nullable(Type.String({ description: 'Announcement language of the recording; null: not language-specific.' })),
    format: StringEnum(SOUND_FORMATS, { description: 'Read from the content.' }),
    mime_type: Type.String({ examples: ['audio/wav'] }),
    size_bytes: Type.Integer(),
    duration_ms: Type.Integer(),
    sample_rate: Nullable(Type.Integer({ description: 'Hz' })),
    channels: Nullable(Type.Integer()),
    checksum_sha256: Type.String({ description: 'Hex SHA-256 of the content; also its ETag.' }),
    download_url: Type.String({ description: 'Absolute URL of the audio as uploaded (GET, supports Range).' }),
    playable_url: Type.String({
      description: 'Absolute URL of the audio as the PBX plays it: converted on upload to an 8 kHz, mono, 16-bit PCM WAV (GET, supports Range).',
    }),
    playable_checksum_sha256: Nullable(
      Type.String({
        description:
          'Hex SHA-256 of that WAV; also its ETag. null for a file uploaded before the conversion existed: it is converted when first fetched from playable_url.',
      }),
    ),
    created_at: DateTime(),
    updated_at: DateTime(),
    deleted_at: Nullable(DateTime()),
  },
  {
    $id: 'SoundFile',
    examples: [
      {
        id: '0a0c9c5a-a987-4695-b7c0-020279268904',
        pbx_id: '5b434841-6826-4eb7-9e1e-52f33261ad31',
        name: 'Closed: office hours',
        type: 'announcement',
        language: 'en',
        format: 'wav',
        mime_type: 'audio/wav',
        size_bytes: 32044,
        duration_ms: 2000,
        sample_rate: 8000,
        channels: 1,
        checksum_sha256: '3a82dd0845628d9e456eb6b55f3d00c01e4e81d53a5d7fdc8c6aa357ac3394e9',
        download_url: 'https://pbx.example.com/api/v1/sound-files/0a0c9c5a-a987-4695-b7c0-020279268904/content',
        playable_url: 'https://pbx.example.com/api/v1/sound-files/0a0c9c5a-a987-4695-b7c0-020279268904/playable',
        playable_checksum_sha256: '3a82dd0845628d9e456eb6b55f3d00c01e4e81d53a5d7fdc8c6aa357ac3394e9',
        created_at: '2026-11-02T08:30:00.000Z',
        updated_at: '2026-11-02T08:30:00.000Z',
        deleted_at: null,
      },
    ],
  },
);
export type SoundFileView = Static<typeof SoundFile>;

export const SoundFileParams = Type.Object({ soundFile: Uuid() });

const audioFile = UploadFile('The audio: a WAV (PCM samples) or an MP3; its content decides, not its name or declared type.');

/** The parts of an upload (multipart/form-data), described for the OpenAPI document; the service checks them. */
export const SoundFileUploadForm = Type.Object({
  file: audioFile,
  name: PbxText({ minLength: 1, maxLength: 128 }),
  type: StringEnum(SOUND_FILE_TYPES),
  language: Type.Optional(StringEnum(['', ...ANNOUNCEMENT_LANGUAGES], { description: 'The announcement language; empty or left out: none.' })),
});

/** The one part of `PUT /sound-files/{soundFile}/content`. */
export const SoundFileContentForm = Type.Object({ file: audioFile });

export const UpdateSoundFileBody = Type.Object(
  {
    name: Type.Optional(PbxText({ minLength: 1, maxLength: 128 })),
    type: Type.Optional(StringEnum(SOUND_FILE_TYPES, { description: 'Cannot change while an IVR, queue or call flow uses the file (422).' })),
    language: Type.Optional(LanguageOrAuto('One of the announcement languages, or null.')),
  },
  { additionalProperties: false, examples: [{ name: 'Begrüßung Hauptmenü', language: 'de' }] },
);
export type UpdateSoundFileInput = Static<typeof UpdateSoundFileBody>;

export const DeleteSoundFileQuery = Type.Object(
  {
    permanent: Type.Optional(
      Type.Boolean({ description: 'Delete the row and its audio for good (1/true); refused with 409 while anything uses the file. Default: soft delete.' }),
    ),
  },
  { additionalProperties: false },
);

export const SoundFileListQuery = ListQuery({
  sort: SOUND_FILE_SORTS,
  filters: {
    type: StringEnum(SOUND_FILE_TYPES),
    language: StringEnum(ANNOUNCEMENT_LANGUAGES),
    trashed: TrashedFilterParam('sound files'),
  },
});
