/** The canonical 44-byte header of a 16-bit PCM WAV with `channels` channels: RIFF, `fmt ` (16 bytes), `data`. */
export function pcm16WavHeader(dataBytes: number, sampleRate: number, channels = 1): Buffer {
  const header = Buffer.alloc(44);
  header.write('RIFF', 0, 'ascii');
  header.writeUInt32LE(36 + dataBytes, 4);
  header.write('WAVE', 8, 'ascii');
  header.write('fmt ', 12, 'ascii');
  header.writeUInt32LE(16, 16); // size of the fmt chunk
  header.writeUInt16LE(1, 20); // PCM
  header.writeUInt16LE(channels, 22);
  header.writeUInt32LE(sampleRate, 24);
  header.writeUInt32LE(sampleRate * 2 * channels, 28); // bytes per second
  header.writeUInt16LE(2 * channels, 32); // bytes per sample frame
  header.writeUInt16LE(16, 34); // bits per sample
  header.write('data', 36, 'ascii');
  header.writeUInt32LE(dataBytes, 40);
  return header;
}

/**
 * A valid 16-bit PCM mono WAV holding a sine tone: test uploads and the demo seed's sound files
 * (a real file the PBX could play, made without shipping audio).
 */
export function toneWav({ seconds, frequencyHz, sampleRate = 8000 }: { seconds: number; frequencyHz: number; sampleRate?: number }): Buffer {
  const samples = Math.max(0, Math.round(seconds * sampleRate));
  const wav = Buffer.alloc(44 + samples * 2);
  pcm16WavHeader(samples * 2, sampleRate).copy(wav);
  // Half of full scale, faded in and out over 10 ms so the tone starts and ends without a click.
  const fade = Math.max(1, Math.round(sampleRate / 100));
  for (let i = 0; i < samples; i++) {
    const envelope = Math.min(1, i / fade, (samples - 1 - i) / fade);
    wav.writeInt16LE(Math.round(Math.sin((2 * Math.PI * frequencyHz * i) / sampleRate) * 16383 * envelope), 44 + i * 2);
  }
  return wav;
}
