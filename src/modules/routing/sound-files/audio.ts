/**
 * What an uploaded sound file holds, read from its bytes (never from its name or declared type):
 * WAV (RIFF/WAVE with PCM samples) or MP3, with its duration, sample rate and channels.
 */
import { createHash } from 'node:crypto';
import type { IAudioMetadata } from 'music-metadata';
import { ClientError, ValidationFailed } from '../../../platform/errors.js';
import type { SoundFileType } from '../routing.tables.js';

export type SoundFormat = 'wav' | 'mp3';
export const SOUND_FORMATS = ['wav', 'mp3'] as const;
export const MIME_TYPES: Record<SoundFormat, string> = { wav: 'audio/wav', mp3: 'audio/mpeg' };

/** The longest file each type may hold: a menu's announcement is short, music on hold may loop for an hour. */
export const MAX_DURATION_MS: Record<SoundFileType, number> = { announcement: 10 * 60_000, music: 60 * 60_000 };

export interface AudioFacts {
  format: SoundFormat;
  mime_type: string;
  size_bytes: number;
  duration_ms: number;
  sample_rate: number | null;
  channels: number | null;
  checksum_sha256: string;
}

const UNSUPPORTED = 'The file must be a WAV (PCM) or MP3 audio file.';

/** An MPEG audio frame header of Layer III (MPEG 1, 2 or 2.5): 11 sync bits, then the layer bits 01. */
function isMp3Frame(bytes: Buffer, at: number): boolean {
  return bytes.length >= at + 4 && bytes[at] === 0xff && (bytes[at + 1] & 0xe0) === 0xe0 && (bytes[at + 1] & 0x06) === 0x02 && (bytes[at + 1] & 0x18) !== 0x08;
}

/** The container the first bytes announce, or null for anything else (an OGG, a PNG, text). */
export function sniffFormat(bytes: Buffer): SoundFormat | null {
  if (bytes.length >= 12 && bytes.toString('latin1', 0, 4) === 'RIFF' && bytes.toString('latin1', 8, 12) === 'WAVE') return 'wav';
  if (bytes.length >= 10 && bytes.toString('latin1', 0, 3) === 'ID3') return 'mp3';
  return isMp3Frame(bytes, 0) ? 'mp3' : null;
}

const unreadable = (field: string, detail: string) => ValidationFailed.field(field, `The ${field} could not be read as audio: ${detail}.`);

/**
 * The file's format and metadata: 415 for anything but WAV/PCM and MP3; 422 on `field` for a WAV
 * or MP3 that cannot be read or has no duration.
 */
export async function inspectAudio(bytes: Buffer, field = 'file'): Promise<AudioFacts> {
  const format = sniffFormat(bytes);
  if (!format) throw new ClientError(415, UNSUPPORTED);
  // music-metadata and its parsers load on the first upload, not at every start.
  const { parseBuffer } = await import('music-metadata');
  let metadata: IAudioMetadata;
  try {
    metadata = await parseBuffer(bytes, { mimeType: MIME_TYPES[format], size: bytes.length }, { duration: true, skipCovers: true });
  } catch (error) {
    throw unreadable(field, (error as Error).message || 'it is damaged');
  }
  const { container, codec, duration, sampleRate, numberOfChannels } = metadata.format;
  if (format === 'wav') {
    if (!codec) throw unreadable(field, 'its WAVE format chunk is missing or damaged');
    if (codec !== 'PCM') throw new ClientError(415, `WAV files must hold PCM samples; this one holds ${codec}.`);
  } else if (container !== 'MPEG' || !codec?.includes('Layer 3')) {
    throw unreadable(field, 'no MP3 audio frames were found');
  }
  const durationMs = duration === undefined || !Number.isFinite(duration) ? 0 : Math.round(duration * 1000);
  if (durationMs <= 0) throw unreadable(field, 'it holds no audio (no duration)');
  return {
    format,
    mime_type: MIME_TYPES[format],
    size_bytes: bytes.length,
    duration_ms: durationMs,
    sample_rate: sampleRate ?? null,
    channels: numberOfChannels ?? null,
    checksum_sha256: createHash('sha256').update(bytes).digest('hex'),
  };
}

/** 422 on `field` when a file of `durationMs` is too long for the type. */
export function assertDurationFits(durationMs: number, type: SoundFileType, field: string): void {
  const max = MAX_DURATION_MS[type];
  if (durationMs > max)
    throw ValidationFailed.field(field, `A sound file of type ${type} may last at most ${max / 60_000} minutes; this one lasts ${formatDuration(durationMs)}.`);
}

function formatDuration(ms: number): string {
  const seconds = Math.round(ms / 1000);
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
}
