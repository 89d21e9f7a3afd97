/**
 * A valid 16-bit PCM mono WAV holding a sine tone: test uploads and the demo seed's sound files
 * (a real file the PBX could play, made without shipping audio).
 */
export function toneWav({ seconds, frequencyHz, sampleRate = 8000 }: { seconds: number; frequencyHz: number; sampleRate?: number }): Buffer {
  const samples = Math.max(0, Math.round(seconds * sampleRate));
  const dataBytes = samples * 2;
  const wav = Buffer.alloc(44 + dataBytes);
  wav.write('RIFF', 0, 'ascii');
  wav.writeUInt32LE(36 + dataBytes, 4);
  wav.write('WAVE', 8, 'ascii');
  wav.write('fmt ', 12, 'ascii');
  wav.writeUInt32LE(16, 16); // size of the fmt chunk
  wav.writeUInt16LE(1, 20); // PCM
  wav.writeUInt16LE(1, 22); // mono
  wav.writeUInt32LE(sampleRate, 24);
  wav.writeUInt32LE(sampleRate * 2, 28); // bytes per second
  wav.writeUInt16LE(2, 32); // bytes per sample frame
  wav.writeUInt16LE(16, 34); // bits per sample
  wav.write('data', 36, 'ascii');
  wav.writeUInt32LE(dataBytes, 40);
  // Half of full scale, faded in and out over 10 ms so the tone starts and ends without a click.
  const fade = Math.max(1, Math.round(sampleRate / 100));
  for (let i = 0; i < samples; i++) {
    const envelope = Math.min(1, i / fade, (samples - 1 - i) / fade);
    wav.writeInt16LE(Math.round(Math.sin((2 * Math.PI * frequencyHz * i) / sampleRate) * 16383 * envelope), 44 + i * 2);
  }
  return wav;
}
