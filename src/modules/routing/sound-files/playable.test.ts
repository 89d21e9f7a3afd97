import { createHash, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { apiCaller, bearer, useTestApp } from '../../../../test/helpers.js';
import { createAdmin, createKey, createTenant, createUser, type TestUser } from '../../../../test/factories.js';
import { multipart } from '../../../../test/imports.js';
import { toneWav } from './wav.js';

/**
 * 1.5 s of a 440 Hz tone (half of full scale, the same on both channels), 44.1 kHz stereo, encoded
 * by LAME 3.100 at 32 kbit/s with an ID3v2 tag: `sox -n -r 44100 -c 2 -b 16 tone.wav synth 1.5 sine
 * 440 sine 440 fade 0.01 1.5 0.01 vol 0.5 && lame -b 32 --resample 44.1 --tt "pbx-api test tone" --id3v2-only tone.wav`.
 */
const MP3_FIXTURE = readFileSync(new URL('./fixtures/tone-440hz-44k1-stereo.mp3', import.meta.url));

interface Tone {
  hz: number;
  amplitude: number;
}

/** A PCM WAV: one list of tones per channel, `bits` 8 (unsigned), 16 or 24 (signed) per sample. */
function pcmWav({ sampleRate, bits, seconds, channels }: { sampleRate: number; bits: 8 | 16 | 24; seconds: number; channels: Tone[][] }): Buffer {
  const width = bits / 8;
  const frames = Math.round(seconds * sampleRate);
  const blockAlign = width * channels.length;
  const wav = Buffer.alloc(44 + frames * blockAlign);
  wav.write('RIFFxxxxWAVEfmt ', 0, 'ascii');
  wav.writeUInt32LE(wav.length - 8, 4);
  wav.writeUInt32LE(16, 16);
  wav.writeUInt16LE(1, 20);
  wav.writeUInt16LE(channels.length, 22);
  wav.writeUInt32LE(sampleRate, 24);
  wav.writeUInt32LE(sampleRate * blockAlign, 28);
  wav.writeUInt16LE(blockAlign, 32);
  wav.writeUInt16LE(bits, 34);
  wav.write('data', 36, 'ascii');
  wav.writeUInt32LE(frames * blockAlign, 40);
  for (let i = 0; i < frames; i++) {
    channels.forEach((tones, channel) => {
      const value = tones.reduce((sum, { hz, amplitude }) => sum + amplitude * Math.sin((2 * Math.PI * hz * i) / sampleRate), 0);
      const at = 44 + i * blockAlign + channel * width;
      if (bits === 8) wav.writeUInt8(Math.round(value * 127) + 128, at);
      else wav.writeIntLE(Math.round(value * (2 ** (bits - 1) - 1)), at, width);
    });
  }
  return wav;
}

/** The samples (-1..1) of what the PBX is served, after checking it is exactly the WAV Asterisk plays: RIFF, PCM, mono, 8 kHz, 16-bit. */
function readPlayable(wav: Buffer): Float64Array {
  expect(wav.toString('ascii', 0, 4)).toBe('RIFF');
  expect(wav.readUInt32LE(4)).toBe(wav.length - 8);
  expect(wav.toString('ascii', 8, 16)).toBe('WAVEfmt ');
  expect({
    fmtSize: wav.readUInt32LE(16),
    format: wav.readUInt16LE(20),
    channels: wav.readUInt16LE(22),
    sampleRate: wav.readUInt32LE(24),
    byteRate: wav.readUInt32LE(28),
    blockAlign: wav.readUInt16LE(32),
    bits: wav.readUInt16LE(34),
  }).toEqual({ fmtSize: 16, format: 1, channels: 1, sampleRate: 8000, byteRate: 16000, blockAlign: 2, bits: 16 });
  expect(wav.toString('ascii', 36, 40)).toBe('data');
  expect(wav.readUInt32LE(40)).toBe(wav.length - 44);
  return Float64Array.from({ length: (wav.length - 44) / 2 }, (_, i) => wav.readInt16LE(44 + i * 2) / 32768);
}

/** The amplitude of the `hz` component of 8 kHz samples (one DFT bin), away from the edges. */
function amplitudeAt(samples: Float64Array, hz: number): number {
  const part = samples.subarray(400, samples.length - 400);
  let re = 0;
  let im = 0;
  for (let i = 0; i < part.length; i++) {
    re += part[i] * Math.cos((2 * Math.PI * hz * i) / 8000);
    im += part[i] * Math.sin((2 * Math.PI * hz * i) / 8000);
  }
  return (2 * Math.hypot(re, im)) / part.length;
}

describe('sound files: the version the PBX plays (8 kHz mono 16-bit PCM WAV)', () => {
  let admin: TestUser;
  const t = useTestApp();
  beforeAll(async () => {
    admin = await createAdmin(t.ctx);
  });

  const call = apiCaller(() => t);
  const send = (method: 'POST' | 'PUT', url: string, token: string, file: { name: string; content: Buffer }, fields: Record<string, string> = {}) => {
    const body = multipart(file, fields);
    return t.app.inject({ method, url: `/api/v1${url}`, headers: { ...bearer(token), ...body.headers }, payload: body.payload });
  };
  const get = (path: 'content' | 'playable', token: string, id: string, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'GET', url: `/api/v1/sound-files/${id}/${path}`, headers: { ...bearer(token), ...headers } });
  const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

  const cases: Array<{ what: string; name: string; content: Buffer; type: 'announcement' | 'music'; facts: object; tone: Tone; silent?: number[] }> = [
    {
      // Left 440 Hz at 0.6 with 6 kHz at 0.3 (which would fold to 2 kHz without the resampler's filter), right 440 Hz at 0.2: averaged, 440 Hz at 0.4.
      what: 'a 44.1 kHz stereo 16-bit WAV',
      name: 'stereo.wav',
      content: pcmWav({
        sampleRate: 44100,
        bits: 16,
        seconds: 1.5,
        channels: [
          [
            { hz: 440, amplitude: 0.6 },
            { hz: 6000, amplitude: 0.3 },
          ],
          [{ hz: 440, amplitude: 0.2 }],
        ],
      }),
      type: 'announcement',
      facts: { format: 'wav', sample_rate: 44100, channels: 2, duration_ms: 1500 },
      tone: { hz: 440, amplitude: 0.4 },
      silent: [2000, 6000 - 4000],
    },
    {
      what: 'a 16 kHz mono 16-bit WAV',
      name: 'wideband.wav',
      content: pcmWav({
        sampleRate: 16000,
        bits: 16,
        seconds: 2,
        channels: [
          [
            { hz: 1000, amplitude: 0.5 },
            { hz: 5000, amplitude: 0.3 },
          ],
        ],
      }),
      type: 'music',
      facts: { format: 'wav', sample_rate: 16000, channels: 1, duration_ms: 2000 },
      tone: { hz: 1000, amplitude: 0.5 },
      silent: [3000],
    },
    {
      what: 'an 11.025 kHz mono 8-bit WAV',
      name: 'old.wav',
      content: pcmWav({ sampleRate: 11025, bits: 8, seconds: 1, channels: [[{ hz: 440, amplitude: 0.5 }]] }),
      type: 'announcement',
      facts: { format: 'wav', sample_rate: 11025, channels: 1, duration_ms: 1000 },
      tone: { hz: 440, amplitude: 0.5 },
    },
    {
      what: 'a 48 kHz stereo 24-bit WAV',
      name: 'studio.wav',
      content: pcmWav({ sampleRate: 48000, bits: 24, seconds: 1, channels: [[{ hz: 700, amplitude: 0.5 }], [{ hz: 700, amplitude: 0.5 }]] }),
      type: 'music',
      facts: { format: 'wav', sample_rate: 48000, channels: 2, duration_ms: 1000 },
      tone: { hz: 700, amplitude: 0.5 },
    },
    {
      what: 'a 44.1 kHz stereo MP3 (LAME, ID3v2 tag)',
      name: 'tone.mp3',
      content: MP3_FIXTURE,
      type: 'announcement',
      facts: { format: 'mp3', sample_rate: 44100, channels: 2 },
      tone: { hz: 440, amplitude: 0.5 },
    },
  ];

  it.each(cases)('converts $what on upload; the original still downloads unchanged', async ({ name, content, type, facts, tone, silent }) => {
    const created = await send('POST', '/sound-files', admin.token, { name, content }, { name, type });
    expect(created.statusCode, created.body).toBe(201);
    const file = created.json().data;
    expect(file).toMatchObject({ ...facts, size_bytes: content.length, checksum_sha256: sha256(content) });
    expect(file.playable_url).toBe(`http://pbx.test/api/v1/sound-files/${file.id}/playable`);

    const playable = await get('playable', admin.token, file.id);
    expect(playable.statusCode).toBe(200);
    expect(playable.headers).toMatchObject({
      'content-type': 'audio/wav',
      'content-length': String(playable.rawPayload.length),
      etag: `"${file.playable_checksum_sha256}"`,
      'accept-ranges': 'bytes',
      'content-disposition': `attachment; filename="${file.id.replace(/-/g, '')}.wav"; filename*=UTF-8''${file.id.replace(/-/g, '')}.wav`,
    });
    expect(sha256(playable.rawPayload)).toBe(file.playable_checksum_sha256);
    const samples = readPlayable(playable.rawPayload);
    // About as long as the original: exactly for a WAV; an MP3's is the decoder's (LAME's gapless info).
    expect(Math.abs((samples.length / 8000) * 1000 - file.duration_ms)).toBeLessThanOrEqual(file.format === 'wav' ? 1 : 80);
    expect(amplitudeAt(samples, tone.hz)).toBeCloseTo(tone.amplitude, 1);
    for (const hz of silent ?? []) expect(amplitudeAt(samples, hz)).toBeLessThan(0.005);

    const original = await get('content', admin.token, file.id);
    expect(original.headers['content-type']).toBe(file.format === 'mp3' ? 'audio/mpeg' : 'audio/wav');
    expect(original.rawPayload.equals(content)).toBe(true);
  });

  it('converts the new audio when it is replaced (PUT …/content), and serves byte ranges', async () => {
    const created = await send(
      'POST',
      '/sound-files',
      admin.token,
      { name: 'a.wav', content: toneWav({ seconds: 1, frequencyHz: 440 }) },
      { name: 'A', type: 'music' },
    );
    const id = created.json().data.id;
    const before = created.json().data.playable_checksum_sha256;
    const replaced = await send('PUT', `/sound-files/${id}/content`, admin.token, { name: 'b.mp3', content: MP3_FIXTURE });
    expect(replaced.statusCode, replaced.body).toBe(200);
    const after = replaced.json().data.playable_checksum_sha256;
    expect(after).not.toBe(before);
    const playable = await get('playable', admin.token, id);
    expect(sha256(playable.rawPayload)).toBe(after);
    expect(readPlayable(playable.rawPayload).length).toBeGreaterThan(1.4 * 8000);
    expect((await get('content', admin.token, id)).rawPayload.equals(MP3_FIXTURE)).toBe(true);

    const head = await get('playable', admin.token, id, { range: 'bytes=0-43' });
    expect(head.statusCode).toBe(206);
    expect(head.headers['content-range']).toBe(`bytes 0-43/${playable.rawPayload.length}`);
    expect(head.rawPayload.equals(playable.rawPayload.subarray(0, 44))).toBe(true);
    expect((await get('playable', admin.token, id, { range: 'bytes=0-9', 'if-range': `"${before}"` })).statusCode).toBe(200);
    expect((await get('playable', admin.token, id, { range: `bytes=${playable.rawPayload.length}-` })).statusCode).toBe(416);
  });

  it('converts a file stored before the conversion existed on its first fetch, once', async () => {
    const content = pcmWav({ sampleRate: 22050, bits: 16, seconds: 1, channels: [[{ hz: 440, amplitude: 0.5 }], [{ hz: 440, amplitude: 0.5 }]] });
    const id = (await send('POST', '/sound-files', admin.token, { name: 'old.wav', content }, { name: 'Old', type: 'announcement' })).json().data.id;
    const converted = (await get('playable', admin.token, id)).rawPayload;
    // As a file uploaded before migration 0021 was left.
    await t.ctx.db.updateTable('sound_files').set({ playable_checksum_sha256: null }).where('id', '=', id).execute();
    await t.ctx.db.updateTable('sound_file_contents').set({ playable: null }).where('sound_file_id', '=', id).execute();
    expect((await call('GET', `/sound-files/${id}`, admin.token)).json().data.playable_checksum_sha256).toBeNull();

    const fetched = await get('playable', admin.token, id);
    expect(fetched.statusCode).toBe(200);
    expect(fetched.rawPayload.equals(converted)).toBe(true);
    expect((await call('GET', `/sound-files/${id}`, admin.token)).json().data.playable_checksum_sha256).toBe(sha256(converted));
    const stored = await t.ctx.db.selectFrom('sound_file_contents').select('playable').where('sound_file_id', '=', id).executeTakeFirstOrThrow();
    expect(Buffer.from(stored.playable!).equals(converted)).toBe(true);
  });

  it('refuses audio it cannot convert (422 on file), and stores nothing', async () => {
    // A valid WAV at 16 Hz: below the 32 Hz libsamplerate can bring to 8 kHz.
    const refused = await send(
      'POST',
      '/sound-files',
      admin.token,
      { name: 'low.wav', content: toneWav({ seconds: 10, frequencyHz: 2, sampleRate: 16 }) },
      { name: 'Low', type: 'music' },
    );
    expect(refused.statusCode).toBe(422);
    expect(refused.json().errors.file).toEqual(['The file cannot be converted to what the PBX plays: its sample rate (16 Hz) is outside 32-192000 Hz.']);
    expect((await call('GET', '/sound-files?search=Low', admin.token)).json().data).toEqual([]);
  });

  it('is fetched by the PBX server key and whoever reads sound files; 401/403 otherwise, 404 for another tenant or a deleted file', async () => {
    const content = pcmWav({ sampleRate: 44100, bits: 16, seconds: 0.5, channels: [[{ hz: 440, amplitude: 0.5 }], [{ hz: 440, amplitude: 0.5 }]] });
    const file = (await send('POST', '/sound-files', admin.token, { name: 'a.wav', content }, { name: 'Readers', type: 'announcement' })).json().data;
    const expected = (await get('playable', admin.token, file.id)).rawPayload;
    for (const reader of [
      await createKey(t.ctx, admin.tenant, 'pbx_server'),
      await createKey(t.ctx, admin.tenant, 'pbx'),
      await createKey(t.ctx, admin.tenant, 'integration', ['call-routing']),
      (await createUser(t.ctx, { tenant: admin.tenant })).token,
    ]) {
      const answer = await get('playable', reader, file.id);
      expect(answer.statusCode).toBe(200);
      expect(answer.rawPayload.equals(expected)).toBe(true);
    }
    // The PBX server key lists what it fetches, with the checksum to compare.
    const listed = (await call('GET', '/sound-files?perPage=100', await createKey(t.ctx, admin.tenant, 'pbx_server'))).json().data;
    expect(listed.find((f: { id: string }) => f.id === file.id)).toMatchObject({ playable_checksum_sha256: sha256(expected) });

    expect((await get('playable', await createKey(t.ctx, admin.tenant, 'integration', ['phone-numbers']), file.id)).statusCode).toBe(403);
    const anonymous = await t.app.inject({ method: 'GET', url: `/api/v1/sound-files/${file.id}/playable` });
    expect(anonymous.statusCode).toBe(401);
    expect(Object.keys(anonymous.json())).toEqual(['error']);

    const other = await createTenant(t.ctx);
    for (const stranger of [(await createAdmin(t.ctx, other)).token, await createKey(t.ctx, other, 'pbx_server')]) {
      const answer = await get('playable', stranger, file.id);
      expect(answer.statusCode).toBe(404);
      expect(answer.json()).toEqual({ message: ['Sound file not found.'] });
    }
    expect((await get('playable', admin.token, randomUUID())).statusCode).toBe(404);
    expect((await get('playable', admin.token, 'not-a-uuid')).statusCode).toBe(422);
    expect((await call('DELETE', `/sound-files/${file.id}`, admin.token)).statusCode).toBe(204);
    expect((await get('playable', admin.token, file.id)).statusCode).toBe(404);
  });
});
