import type { SoundFileView } from './sound-files.schemas.js';
import type { SoundFileRow } from './sound-files.service.js';

/** A sound file's metadata as the contract shows it, with the URLs of its audio (as uploaded, and as the PBX plays it). */
export function presentSoundFile(row: SoundFileRow, baseUrl: string): SoundFileView {
  return {
    id: row.id,
    pbx_id: row.pbx_id,
    name: row.name,
    type: row.type,
    language: row.language,
    format: row.format as SoundFileView['format'],
    mime_type: row.mime_type,
    size_bytes: row.size_bytes,
    duration_ms: row.duration_ms,
    sample_rate: row.sample_rate,
    channels: row.channels,
    checksum_sha256: row.checksum_sha256,
    download_url: `${baseUrl}/sound-files/${row.id}/content`,
    playable_url: `${baseUrl}/sound-files/${row.id}/playable`,
    playable_checksum_sha256: row.playable_checksum_sha256,
    created_at: row.created_at,
    updated_at: row.updated_at,
    deleted_at: row.deleted_at,
  };
}
