/**
 * The audio as the PBX plays it. Asterisk reads a `.wav` only as 8 kHz, mono, 16-bit PCM (anything
 * else is "Not in mono" or "does not exist in any format", and `Background` goes on silently), and
 * plays no MP3 without a module the host does not have: every upload is converted once, here, and
 * stored beside the original, which the download keeps.
 *
 * wavefile reads the WAV's chunks, mpg123 (WebAssembly) decodes MP3, the channels are averaged into
 * one, and libsamplerate (WebAssembly, its fastest sinc converter) resamples to 8 kHz. The work runs
 * in slices of a few milliseconds between turns of the event loop, so converting an hour of music
 * holds no other request up for long. The libraries load with the first conversion.
 */
import { createHash } from 'node:crypto';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { ValidationFailed } from '../../../platform/errors.js';
import type { SoundFormat } from './audio.js';
import { pcm16WavHeader } from './wav.js';

export const PLAYABLE_SAMPLE_RATE = 8000;
export const PLAYABLE_MIME_TYPE = 'audio/wav';

export interface PlayableAudio {
  /** A canonical 44-byte-header WAV: 8 kHz, mono, 16-bit PCM. */
  content: Buffer;
  checksum_sha256: string;
  duration_ms: number;
}

/** The longest stretch of work between two turns of the event loop. */
const SLICE_MS = 10;
/** Input frames read from a WAV per step. */
const WAV_STEP_FRAMES = 16_384;
/** MP3 bytes decoded per step (a quarter of a second at 128 kbit/s, about a second at 32 kbit/s). */
const MP3_STEP_BYTES = 4_096;
/** Bytes hashed per step (an hour at 8 kHz is 58 MB). */
const HASH_STEP_BYTES = 4 * 1024 * 1024;
/** libsamplerate converts between 1/256 and 256 times the input rate, and takes inputs up to 192 kHz. */
const MIN_RATE = Math.ceil(PLAYABLE_SAMPLE_RATE / 256);
const MAX_RATE = 192_000;
/** The most samples libsamplerate-js moves through its WebAssembly buffers in one call (it holds 1,008,000). */
const MAX_CALL_SAMPLES = 1_000_000;

/** One step of the source: mono samples (-1..1) at `sampleRate`. */
interface MonoStep {
  samples: Float32Array;
  sampleRate: number;
}

const unconvertible = (field: string, detail: string) => ValidationFailed.field(field, `The ${field} cannot be converted to what the PBX plays: ${detail}.`);

/**
 * The 8 kHz mono 16-bit PCM WAV of a WAV (PCM) or MP3 that `inspectAudio` accepted, about as long as
 * the original. 422 on `field` for audio that cannot be decoded or resampled.
 */
export async function toPlayableWav(bytes: Buffer, format: SoundFormat, field = 'file'): Promise<PlayableAudio> {
  const output = new Pcm16Collector();
  let resampler: Resampler | null = null;
  let inputFrames = 0;
  let since = performance.now();
  try {
    for await (const { samples, sampleRate } of format === 'wav' ? wavSteps(bytes, field) : mp3Steps(bytes)) {
      resampler ??= await Resampler.create(sampleRate, field);
      if (resampler.inputRate !== sampleRate)
        throw unconvertible(field, `its sample rate changes within the file (${resampler.inputRate} Hz, then ${sampleRate} Hz)`);
      inputFrames += samples.length;
      output.push(resampler.push(samples));
      if (performance.now() - since >= SLICE_MS) {
        await nextTurn();
        since = performance.now();
      }
    }
    if (!resampler || inputFrames === 0) throw unconvertible(field, 'no audio could be decoded');
    output.push(resampler.flush());
    const frames = Math.round((inputFrames * PLAYABLE_SAMPLE_RATE) / resampler.inputRate);
    const content = output.wav(frames);
    const hash = createHash('sha256');
    for (let at = 0; at < content.length; at += HASH_STEP_BYTES) {
      hash.update(content.subarray(at, at + HASH_STEP_BYTES));
      await nextTurn();
    }
    return { content, checksum_sha256: hash.digest('hex'), duration_ms: Math.round((frames * 1000) / PLAYABLE_SAMPLE_RATE) };
  } finally {
    resampler?.release();
  }
}

/**
 * The export `name` of a library that Node loads as CommonJS (`module.exports` as `default`) and a
 * loader may load as an ES module (tsx and Vite read wavefile's `module` field).
 */
function exported<T>(module: unknown, name: string): T {
  const found = (module as Record<string, T | undefined>)[name] ?? (module as { default?: Record<string, T | undefined> }).default?.[name];
  if (found === undefined) throw new Error(`The audio library exports no ${name}.`);
  return found;
}

interface WavFormat {
  audioFormat: number;
  numChannels: number;
  sampleRate: number;
  blockAlign: number;
  bitsPerSample: number;
  subformat: number[];
}

/** The WAV's samples, averaged over its channels, a step at a time. */
async function* wavSteps(bytes: Buffer, field: string): AsyncGenerator<MonoStep> {
  const WaveFile = exported<(typeof import('wavefile'))['WaveFile']>(await import('wavefile'), 'WaveFile');
  const wav = new WaveFile();
  try {
    wav.fromBuffer(bytes);
  } catch (error) {
    throw unconvertible(field, `its chunks cannot be read (${(error as Error).message})`);
  }
  const fmt = wav.fmt as WavFormat;
  // For a Buffer, wavefile's slice of the data chunk is a view of it, not a copy.
  const data = (wav.data as { samples: Uint8Array }).samples;
  const read = sampleReader(fmt, field);
  const channels = fmt.numChannels;
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const frames = Math.floor(data.byteLength / fmt.blockAlign);
  const width = fmt.blockAlign / channels;
  for (let first = 0; first < frames; first += WAV_STEP_FRAMES) {
    const samples = new Float32Array(Math.min(WAV_STEP_FRAMES, frames - first));
    for (let i = 0, at = first * fmt.blockAlign; i < samples.length; i++) {
      let sum = 0;
      for (let channel = 0; channel < channels; channel++, at += width) sum += read(view, at);
      samples[i] = sum / channels;
    }
    yield { samples, sampleRate: fmt.sampleRate };
  }
}

/** How one sample of the WAV reads as -1..1: by the width of its container, as the WAVE format lays integers (8-bit unsigned, wider signed) and floats out. */
function sampleReader(fmt: WavFormat, field: string): (view: DataView, at: number) => number {
  const channels = fmt.numChannels;
  const width = channels > 0 ? fmt.blockAlign / channels : 0;
  if (!Number.isInteger(width) || width < 1) throw unconvertible(field, 'its format chunk gives no sample size');
  const float = fmt.audioFormat === 3 || (fmt.audioFormat === 0xfffe && fmt.subformat?.[0] === 3);
  if (float && width === 4) return (view, at) => view.getFloat32(at, true);
  if (float && width === 8) return (view, at) => view.getFloat64(at, true);
  if (!float && width === 1) return (view, at) => (view.getUint8(at) - 128) / 128;
  if (!float && width === 2) return (view, at) => view.getInt16(at, true) / 32_768;
  if (!float && width === 3) return (view, at) => (view.getUint8(at) | (view.getUint8(at + 1) << 8) | (view.getInt8(at + 2) << 16)) / 8_388_608;
  if (!float && width === 4) return (view, at) => view.getInt32(at, true) / 2_147_483_648;
  throw unconvertible(field, `${fmt.bitsPerSample}-bit samples are not supported`);
}

/** The MP3's samples (mpg123 answers two channels, the same twice for a mono file), averaged, a step at a time. */
async function* mp3Steps(bytes: Buffer): AsyncGenerator<MonoStep> {
  const { MPEGDecoder } = await import('mpg123-decoder');
  const decoder = new MPEGDecoder();
  await decoder.ready;
  try {
    for (let at = 0; at < bytes.length; at += MP3_STEP_BYTES) {
      const { channelData, samplesDecoded, sampleRate } = decoder.decode(bytes.subarray(at, at + MP3_STEP_BYTES));
      if (samplesDecoded === 0) continue;
      const samples = new Float32Array(samplesDecoded);
      for (const channel of channelData) for (let i = 0; i < samplesDecoded; i++) samples[i] += channel[i];
      for (let i = 0; i < samplesDecoded; i++) samples[i] /= channelData.length;
      yield { samples, sampleRate };
    }
  } finally {
    decoder.free();
  }
}

type LibSampleRate = typeof import('@alexanderolsen/libsamplerate-js');
type Converter = Awaited<ReturnType<LibSampleRate['create']>>;

/**
 * Converters kept for the next conversions: libsamplerate-js compiles its WebAssembly anew for
 * each converter it creates, tens of milliseconds of the event loop; one kept is set to the next
 * rate instead, which starts its filter afresh.
 */
const idleConverters: Converter[] = [];
const MAX_IDLE_CONVERTERS = 2;

/** A streaming resampler to 8 kHz that keeps its filter's state from one step to the next. */
class Resampler {
  private constructor(
    readonly inputRate: number,
    private readonly converter: Converter | null,
  ) {}

  static async create(inputRate: number, field: string): Promise<Resampler> {
    if (!Number.isInteger(inputRate) || inputRate < MIN_RATE || inputRate > MAX_RATE)
      throw unconvertible(field, `its sample rate (${inputRate} Hz) is outside ${MIN_RATE}-${MAX_RATE} Hz`);
    if (inputRate === PLAYABLE_SAMPLE_RATE) return new Resampler(inputRate, null);
    const kept = idleConverters.pop();
    if (kept) {
      kept.ratio = PLAYABLE_SAMPLE_RATE / inputRate;
      kept.inputSampleRate = inputRate; // frees the converter's state and makes a new one for this rate
      return new Resampler(inputRate, kept);
    }
    const libsamplerate = await import('@alexanderolsen/libsamplerate-js');
    const create = exported<LibSampleRate['create']>(libsamplerate, 'create');
    const { SRC_SINC_FASTEST } = exported<LibSampleRate['ConverterType']>(libsamplerate, 'ConverterType');
    const converter = await create(1, inputRate, PLAYABLE_SAMPLE_RATE, { converterType: SRC_SINC_FASTEST });
    return new Resampler(inputRate, converter);
  }

  push(samples: Float32Array): Float32Array[] {
    const converter = this.converter;
    if (!converter) return [samples];
    const ratio = PLAYABLE_SAMPLE_RATE / this.inputRate;
    const perCall = Math.floor(MAX_CALL_SAMPLES / Math.max(1, ratio));
    const out: Float32Array[] = [];
    for (let first = 0; first < samples.length; first += perCall) {
      const input = samples.subarray(first, first + perCall);
      const written = { frames: 0 };
      const output = converter.full(input, new Float32Array(Math.ceil(input.length * ratio) + 1), written);
      out.push(output.subarray(0, written.frames));
    }
    return out;
  }

  /** Silence after the end pushes out what the filter still holds (the caller cuts the output to length). */
  flush(): Float32Array[] {
    if (!this.converter) return [];
    return this.push(new Float32Array(Math.max(256, Math.ceil((256 * this.inputRate) / PLAYABLE_SAMPLE_RATE))));
  }

  /** Keeps the converter for the next conversion, or frees it. */
  release(): void {
    if (!this.converter) return;
    if (idleConverters.length < MAX_IDLE_CONVERTERS) idleConverters.push(this.converter);
    else this.converter.destroy();
  }
}

/** 16-bit little-endian samples, rounded and clipped, collected until the WAV is written. */
class Pcm16Collector {
  private readonly parts: Buffer[] = [];

  push(steps: Float32Array[]): void {
    for (const samples of steps) {
      const part = Buffer.allocUnsafe(samples.length * 2);
      const view = new DataView(part.buffer, part.byteOffset, part.byteLength);
      for (let i = 0; i < samples.length; i++) view.setInt16(i * 2, Math.max(-32_768, Math.min(32_767, Math.round(samples[i] * 32_768))), true);
      this.parts.push(part);
    }
  }

  /** The WAV of exactly `frames` samples: the filter's tail cut off, or silence added where the output fell short. */
  wav(frames: number): Buffer {
    const wav = Buffer.alloc(44 + frames * 2);
    pcm16WavHeader(frames * 2, PLAYABLE_SAMPLE_RATE).copy(wav);
    let at = 44;
    for (const part of this.parts) {
      if (at >= wav.length) break;
      at += part.copy(wav, at, 0, Math.min(part.length, wav.length - at));
    }
    return wav;
  }
}
