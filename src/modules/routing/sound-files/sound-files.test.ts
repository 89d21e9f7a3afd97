import { createHash, randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { apiCaller, bearer, useTestApp } from '../../../../test/helpers.js';
import { createAdmin, createKey, createTenant, createUser } from '../../../../test/factories.js';
import { multipart } from '../../../../test/imports.js';
import { createIvr } from '../../../../test/routing-factories.js';
import { toneWav } from './wav.js';
import { attachmentDisposition, insertSoundFile } from './sound-files.service.js';
import { parseByteRange } from '../../../http/byte-range.js';

const MAX_BYTES = 200_000;

/**
 * A hand-made MP3: `frames` MPEG-1 Layer III frames (128 kbit/s, 44.1 kHz, joint stereo) of
 * silence, 417 bytes each, 1152 samples each.
 */
function silentMp3(frames: number): Buffer {
  const frame = Buffer.alloc(417);
  frame.set([0xff, 0xfb, 0x90, 0x44]);
  return Buffer.concat(Array.from({ length: frames }, () => frame));
}

/** A WAV whose format chunk says μ-law (format tag 7) rather than PCM. */
function muLawWav(): Buffer {
  const wav = toneWav({ seconds: 0.5, frequencyHz: 440 });
  wav.writeUInt16LE(7, 20);
  return wav;
}

describe('sound files', () => {
  const t = useTestApp({ env: { SOUND_FILE_MAX_BYTES: String(MAX_BYTES) } });

  const call = apiCaller(() => t);
  const send = (method: 'POST' | 'PUT', url: string, token: string, file: { name: string; content: Buffer | string; type?: string } | null, fields = {}) => {
    const body = multipart(file, fields);
    return t.app.inject({ method, url: `/api/v1${url}`, headers: { ...bearer(token), ...body.headers }, payload: body.payload });
  };
  const upload = (token: string, file: { name: string; content: Buffer | string; type?: string } | null, fields: Record<string, string> = {}) =>
    send('POST', '/sound-files', token, file, fields);
  const download = (token: string, id: string, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'GET', url: `/api/v1/sound-files/${id}/content`, headers: { ...bearer(token), ...headers } });
  const welcome = toneWav({ seconds: 1.5, frequencyHz: 440 });

  it('uploads a WAV: metadata read from the content, the contract shape, read back and listed', async () => {
    const admin = await createAdmin(t.ctx);
    const created = await upload(
      admin.token,
      { name: 'welcome.wav', content: welcome, type: 'audio/x-wav' },
      { name: 'Welcome', type: 'announcement', language: 'de' },
    );
    expect(created.statusCode).toBe(201);
    const data = created.json().data;
    expect(data).toEqual({
      id: expect.any(String),
      pbx_id: admin.tenant.pbxId,
      name: 'Welcome',
      type: 'announcement',
      language: 'de',
      format: 'wav',
      mime_type: 'audio/wav',
      size_bytes: welcome.length,
      duration_ms: 1500,
      sample_rate: 8000,
      channels: 1,
      checksum_sha256: createHash('sha256').update(welcome).digest('hex'),
      download_url: `http://pbx.test/api/v1/sound-files/${data.id}/content`,
      playable_url: `http://pbx.test/api/v1/sound-files/${data.id}/playable`,
      // Already what the PBX plays (8 kHz mono 16-bit PCM, a plain header): converted to the same bytes.
      playable_checksum_sha256: createHash('sha256').update(welcome).digest('hex'),
      created_at: expect.any(String),
      updated_at: expect.any(String),
      deleted_at: null,
    });
    const read = await call('GET', `/sound-files/${data.id}`, admin.token);
    expect(read.statusCode).toBe(200);
    expect(read.json()).toEqual({ data });

    await upload(admin.token, { name: 'hold.wav', content: toneWav({ seconds: 3, frequencyHz: 330 }) }, { name: 'Hold music', type: 'music', language: '' });
    await upload(admin.token, { name: 'closed.wav', content: toneWav({ seconds: 0.5, frequencyHz: 550 }) }, { name: 'Closed', type: 'announcement' });
    const names = async (query: string) => (await call('GET', `/sound-files${query}`, admin.token)).json().data.map((f: { name: string }) => f.name);
    expect(await names('')).toEqual(['Closed', 'Hold music', 'Welcome']);
    expect(await names('?sort=-duration_ms')).toEqual(['Hold music', 'Welcome', 'Closed']);
    expect(await names('?filter[type]=announcement&sort=-name')).toEqual(['Welcome', 'Closed']);
    expect(await names('?filter[language]=de')).toEqual(['Welcome']);
    expect(await names('?search=MUS')).toEqual(['Hold music']);
    const page = (await call('GET', '/sound-files?perPage=2', admin.token)).json();
    expect(page.meta).toMatchObject({ total: 3, per_page: 2 });
    expect((await call('GET', '/sound-files?filter[language]=xx', admin.token)).statusCode).toBe(422);
    expect((await call('GET', '/sound-files?sort=size', admin.token)).statusCode).toBe(422);
    const hold = (await call('GET', '/sound-files?filter[type]=music', admin.token)).json().data[0];
    expect(hold.language).toBeNull();
  });

  it('uploads an MP3 (read by its frames, whatever its name says)', async () => {
    const admin = await createAdmin(t.ctx);
    const mp3 = silentMp3(100);
    const created = await upload(admin.token, { name: 'jingle.wav', content: mp3, type: 'audio/wav' }, { name: 'Jingle', type: 'music' });
    expect(created.statusCode).toBe(201);
    expect(created.json().data).toMatchObject({ format: 'mp3', mime_type: 'audio/mpeg', size_bytes: mp3.length, sample_rate: 44100, channels: 2 });
    // 100 frames of 1152 samples at 44.1 kHz
    expect(created.json().data.duration_ms).toBe(Math.round((100 * 1152 * 1000) / 44100));
    const downloaded = await download(admin.token, created.json().data.id);
    expect(downloaded.headers['content-type']).toBe('audio/mpeg');
    expect(downloaded.rawPayload.equals(mp3)).toBe(true);
  });

  it('refuses what is too large (413), not WAV/PCM or MP3 (415), unreadable, too long or badly described (422)', async () => {
    const admin = await createAdmin(t.ctx);
    const fields = { name: 'X', type: 'announcement' };

    const large = await upload(admin.token, { name: 'long.wav', content: toneWav({ seconds: 13, frequencyHz: 440 }) }, fields);
    expect(large.statusCode).toBe(413);
    expect(large.json()).toEqual({ message: `The file is larger than ${MAX_BYTES} bytes (SOUND_FILE_MAX_BYTES).` });

    const ogg = Buffer.concat([Buffer.from('OggS\0\x02'), Buffer.alloc(200)]);
    const png = Buffer.concat([Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'), Buffer.alloc(100)]);
    for (const content of [ogg, png, Buffer.from('just some text, named like a sound file\n'), muLawWav()]) {
      const refused = await upload(admin.token, { name: 'sound.wav', content, type: 'audio/wav' }, fields);
      expect(refused.statusCode).toBe(415);
      expect(Object.keys(refused.json())).toEqual(['message']);
    }
    expect((await upload(admin.token, { name: 'sound.wav', content: muLawWav() }, fields)).json().message).toMatch(/PCM/);

    const unreadable = async (content: Buffer) => {
      const answer = await upload(admin.token, { name: 'broken.wav', content }, fields);
      expect(answer.statusCode).toBe(422);
      expect(Object.keys(answer.json().errors)).toEqual(['file']);
      return answer.json().errors.file[0] as string;
    };
    await unreadable(welcome.subarray(0, 30)); // RIFF/WAVE header, the format chunk cut off
    await unreadable(toneWav({ seconds: 0, frequencyHz: 440 })); // a valid header, no samples
    await unreadable(silentMp3(1).subarray(0, 4)); // one MP3 frame header, nothing else
    await unreadable(Buffer.concat([Buffer.from('ID3'), Buffer.alloc(60)])); // an ID3 tag and no audio

    // 10 min 1 s of a 100 Hz sample rate: small, but too long for an announcement; fine as music.
    const tooLong = toneWav({ seconds: 601, frequencyHz: 10, sampleRate: 100 });
    expect(await unreadable(tooLong)).toMatch(/at most 10 minutes/);
    expect((await upload(admin.token, { name: 'long.wav', content: tooLong }, { name: 'Long', type: 'music' })).statusCode).toBe(201);

    const invalid = await upload(admin.token, { name: 'a.wav', content: welcome }, { name: 'n'.repeat(129), type: 'jingle', language: 'xx' });
    expect(invalid.statusCode).toBe(422);
    expect(Object.keys(invalid.json().errors).sort()).toEqual(['language', 'name', 'type']);
    const missing = await upload(admin.token, null, {});
    expect(Object.keys(missing.json().errors).sort()).toEqual(['file', 'name', 'type']);
    const stray = await upload(admin.token, { name: 'a.wav', content: welcome }, { ...fields, colour: 'blue' });
    expect(stray.json().errors).toEqual({ colour: ['The colour field is not allowed.'] });
    const body = multipart({ name: 'a.wav', content: welcome }, fields);
    const cutShort = await t.app.inject({
      method: 'POST',
      url: '/api/v1/sound-files',
      headers: { ...bearer(admin.token), ...body.headers },
      payload: body.payload.subarray(0, body.payload.length - 200),
    });
    expect(cutShort.statusCode).toBe(422);
    expect(Object.keys(cutShort.json().errors)).toEqual(['file']);
    const json = await call('POST', '/sound-files', admin.token, { name: 'X', type: 'music' });
    expect(json.statusCode).toBe(415);
    expect((await call('GET', '/sound-files', admin.token)).json().data.map((f: { name: string }) => f.name)).toEqual(['Long']);
  });

  it('downloads the audio whole or by range, with its ETag; If-Range that does not match gets it whole', async () => {
    const admin = await createAdmin(t.ctx);
    const id = (await upload(admin.token, { name: 'Wëlcome 1.wav', content: welcome }, { name: 'Welcome', type: 'announcement' })).json().data.id;
    const etag = `"${createHash('sha256').update(welcome).digest('hex')}"`;
    const whole = await download(admin.token, id);
    expect(whole.statusCode).toBe(200);
    expect(whole.headers).toMatchObject({
      'content-type': 'audio/wav',
      'content-length': String(welcome.length),
      etag,
      'accept-ranges': 'bytes',
      'content-disposition': `attachment; filename="W_lcome 1.wav"; filename*=UTF-8''${encodeURIComponent('Wëlcome 1.wav')}`,
    });
    expect(whole.rawPayload.equals(welcome)).toBe(true);

    const first = await download(admin.token, id, { range: 'bytes=0-43' });
    expect(first.statusCode).toBe(206);
    expect(first.headers['content-range']).toBe(`bytes 0-43/${welcome.length}`);
    expect(first.headers['content-length']).toBe('44');
    expect(first.rawPayload.equals(welcome.subarray(0, 44))).toBe(true);
    const rest = await download(admin.token, id, { range: 'bytes=1000-' });
    expect(rest.headers['content-range']).toBe(`bytes 1000-${welcome.length - 1}/${welcome.length}`);
    expect(rest.rawPayload.equals(welcome.subarray(1000))).toBe(true);
    const tail = await download(admin.token, id, { range: 'bytes=-100' });
    expect(tail.statusCode).toBe(206);
    expect(tail.rawPayload.equals(welcome.subarray(welcome.length - 100))).toBe(true);
    const beyond = await download(admin.token, id, { range: `bytes=${welcome.length}-` });
    expect(beyond.statusCode).toBe(416);
    expect(beyond.headers['content-range']).toBe(`bytes */${welcome.length}`);
    expect(beyond.json()).toEqual({ message: 'The requested range is not satisfiable.' });
    expect((await download(admin.token, id, { range: 'bytes=0-1,5-6' })).statusCode).toBe(200);
    expect((await download(admin.token, id, { range: 'bytes=0-9', 'if-range': etag })).statusCode).toBe(206);
    expect((await download(admin.token, id, { range: 'bytes=0-9', 'if-range': '"stale"' })).statusCode).toBe(200);

    expect(parseByteRange('bytes=5-2', 10)).toBe('unsatisfiable');
    expect(parseByteRange('bytes=-0', 10)).toBe('unsatisfiable');
    expect(parseByteRange('bytes=-20', 10)).toEqual({ start: 0, end: 9 });
    expect(parseByteRange('bytes=2-99', 10)).toEqual({ start: 2, end: 9 });
    expect(parseByteRange('items=0-1', 10)).toBeNull();
    expect(parseByteRange('bytes= 2 - 4 ', 10)).toEqual({ start: 2, end: 4 });
    expect(attachmentDisposition('a "b"\\c.wav')).toBe(`attachment; filename="a _b__c.wav"; filename*=UTF-8''a%20%22b%22%5Cc.wav`);
  });

  it('refuses a multipart body without a boundary (415) and more than 10 fields (422 on the first one too many), on upload and replace', async () => {
    const admin = await createAdmin(t.ctx);
    const id = (await upload(admin.token, { name: 'a.wav', content: welcome }, { name: 'Welcome', type: 'announcement' })).json().data.id;
    const fields = Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`field_${i}`, 'x']));
    for (const [method, url] of [
      ['POST', '/sound-files'],
      ['PUT', `/sound-files/${id}/content`],
    ] as const) {
      const body = multipart({ name: 'b.wav', content: welcome }, { name: 'Other', type: 'music' });
      for (const contentType of [
        'multipart/form-data',
        'multipart/form-data; boundary=',
        'multipart/form-data; boundary=""',
        'multipart/form-data; charset=utf-8',
      ]) {
        const answer = await t.app.inject({
          method,
          url: `/api/v1${url}`,
          headers: { ...bearer(admin.token), 'content-type': contentType },
          payload: body.payload,
        });
        expect(answer.statusCode, `${method} ${contentType}`).toBe(415);
        expect(answer.json()).toEqual({
          message:
            'The multipart/form-data content type names no boundary: send Content-Type: multipart/form-data; boundary=<the delimiter that separates the parts>.',
        });
      }
      const tooMany = 'The upload has more than 10 form fields: send at most 10 form fields beside the file parts.';
      const fieldsFirst = await send(method, url, admin.token, { name: 'b.wav', content: welcome }, fields);
      expect(fieldsFirst.statusCode, method).toBe(422);
      expect(fieldsFirst.json()).toEqual({ message: tooMany, errors: { field_10: [tooMany] } });
      // The file first: read whole before the fields, and still refused for them.
      const fileFirst = multipart({ name: 'b.wav', content: welcome }, {});
      const boundary = fileFirst.headers['content-type'].split('boundary=')[1];
      const trailing = Object.keys(fields).map((name) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\nx\r\n`);
      const payload = Buffer.concat([
        fileFirst.payload.subarray(0, fileFirst.payload.length - boundary.length - 6),
        Buffer.from(`${trailing.join('')}--${boundary}--\r\n`),
      ]);
      const answer = await t.app.inject({ method, url: `/api/v1${url}`, headers: { ...bearer(admin.token), ...fileFirst.headers }, payload });
      expect(answer.json(), method).toEqual({ message: tooMany, errors: { field_10: [tooMany] } });
    }
    expect((await download(admin.token, id)).rawPayload.equals(welcome)).toBe(true);
    expect((await call('GET', '/sound-files', admin.token)).json().data.map((file: { id: string }) => file.id)).toEqual([id]);
  });

  it('documents each upload’s parts as its multipart/form-data request body', async () => {
    const document = t.app.swagger() as unknown as {
      paths: Record<
        string,
        Record<string, { requestBody?: { required?: boolean; content: Record<string, { schema: { required?: string[]; properties: object } }> } }>
      >;
    };
    const binary = { type: 'string', format: 'binary', contentMediaType: 'application/octet-stream', description: expect.any(String) };
    const created = document.paths['/sound-files'].post.requestBody;
    expect(created?.required).toBe(true);
    expect(Object.keys(created?.content ?? {})).toEqual(['multipart/form-data']);
    expect(created?.content['multipart/form-data'].schema).toMatchObject({
      type: 'object',
      required: ['file', 'name', 'type'],
      properties: {
        file: binary,
        name: { type: 'string', minLength: 1, maxLength: 128 },
        type: { type: 'string', enum: ['announcement', 'music'] },
        language: { type: 'string', enum: expect.arrayContaining(['', 'de', 'en']) },
      },
    });
    const replaced = document.paths['/sound-files/{soundFile}/content'].put.requestBody;
    expect(replaced?.content['multipart/form-data'].schema).toEqual({ type: 'object', required: ['file'], properties: { file: binary } });
  });

  it('updates name, language and type; the type stays while an IVR uses the file (422 naming it)', async () => {
    const admin = await createAdmin(t.ctx);
    const id = (await upload(admin.token, { name: 'a.wav', content: welcome }, { name: 'Welcome', type: 'announcement', language: 'en' })).json().data.id;
    const renamed = await call('PATCH', `/sound-files/${id}`, admin.token, { name: 'Welcome (day)', language: null });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json().data).toMatchObject({ name: 'Welcome (day)', language: null, type: 'announcement' });
    expect((await call('PATCH', `/sound-files/${id}`, admin.token, { language: 'xx' })).json().errors).toHaveProperty('language');
    expect((await call('PATCH', `/sound-files/${id}`, admin.token, { name: '' })).json().errors).toHaveProperty('name');
    expect((await call('PATCH', `/sound-files/${id}`, admin.token, { size_bytes: 1 })).statusCode).toBe(422);

    await createIvr(t.ctx, admin.tenant, { announcementId: id, name: 'Front desk' });
    const refused = await call('PATCH', `/sound-files/${id}`, admin.token, { type: 'music' });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().errors.type[0]).toBe('The type cannot change while the sound file is used by ivr "Front desk".');
    expect((await call('PATCH', `/sound-files/${id}`, admin.token, { type: 'announcement', name: 'Same type' })).statusCode).toBe(200);

    const long = toneWav({ seconds: 601, frequencyHz: 10, sampleRate: 100 });
    const music = (await upload(admin.token, { name: 'm.wav', content: long }, { name: 'Long music', type: 'music' })).json().data.id;
    expect((await call('PATCH', `/sound-files/${music}`, admin.token, { type: 'announcement' })).json().errors.type[0]).toMatch(/at most 10 minutes/);
    const short = (await upload(admin.token, { name: 's.wav', content: welcome }, { name: 'Short', type: 'music' })).json().data.id;
    expect((await call('PATCH', `/sound-files/${short}`, admin.token, { type: 'announcement' })).json().data.type).toBe('announcement');
  });

  it('replaces the audio (PUT .../content) with the same checks', async () => {
    const admin = await createAdmin(t.ctx);
    const id = (await upload(admin.token, { name: 'a.wav', content: welcome }, { name: 'Welcome', type: 'announcement' })).json().data.id;
    const mp3 = silentMp3(40);
    const replaced = await send('PUT', `/sound-files/${id}/content`, admin.token, { name: 'b.mp3', content: mp3 });
    expect(replaced.statusCode).toBe(200);
    expect(replaced.json().data).toMatchObject({
      id,
      name: 'Welcome',
      format: 'mp3',
      size_bytes: mp3.length,
      checksum_sha256: createHash('sha256').update(mp3).digest('hex'),
    });
    const downloaded = await download(admin.token, id);
    expect(downloaded.rawPayload.equals(mp3)).toBe(true);
    expect(downloaded.headers['content-disposition']).toContain('filename="b.mp3"');
    expect((await send('PUT', `/sound-files/${id}/content`, admin.token, { name: 'x.wav', content: 'text' })).statusCode).toBe(415);
    expect((await send('PUT', `/sound-files/${id}/content`, admin.token, null)).json().errors).toHaveProperty('file');
    expect((await send('PUT', `/sound-files/${id}/content`, admin.token, { name: 'x.wav', content: welcome }, { name: 'Other' })).json().errors).toHaveProperty(
      'name',
    );
    const tooLong = toneWav({ seconds: 601, frequencyHz: 10, sampleRate: 100 });
    expect((await send('PUT', `/sound-files/${id}/content`, admin.token, { name: 'x.wav', content: tooLong })).statusCode).toBe(422);
    expect((await download(admin.token, id)).rawPayload.equals(mp3)).toBe(true);
    expect((await send('PUT', `/sound-files/${randomUUID()}/content`, admin.token, { name: 'x.wav', content: welcome })).statusCode).toBe(404);
  });

  it('soft-deletes (even while used) and restores; a deleted file cannot be downloaded', async () => {
    const admin = await createAdmin(t.ctx);
    const id = (await upload(admin.token, { name: 'a.wav', content: welcome }, { name: 'Welcome', type: 'announcement' })).json().data.id;
    await createIvr(t.ctx, admin.tenant, { announcementId: id });
    expect((await call('DELETE', `/sound-files/${id}`, admin.token)).statusCode).toBe(204);
    expect((await call('GET', `/sound-files/${id}`, admin.token)).statusCode).toBe(404);
    expect((await download(admin.token, id)).statusCode).toBe(404);
    expect((await call('DELETE', `/sound-files/${id}`, admin.token)).statusCode).toBe(404);
    const trashed = (await call('GET', '/sound-files?filter[trashed]=only', admin.token)).json().data;
    expect(trashed.map((f: { id: string; deleted_at: string | null }) => [f.id, typeof f.deleted_at])).toEqual([[id, 'string']]);
    expect((await call('GET', '/sound-files', admin.token)).json().data).toEqual([]);
    const restored = await call('POST', `/sound-files/${id}/restore`, admin.token);
    expect(restored.statusCode).toBe(200);
    expect(restored.json().data.deleted_at).toBeNull();
    expect((await download(admin.token, id)).statusCode).toBe(200);
    expect((await call('POST', `/sound-files/${id}/restore`, admin.token)).statusCode).toBe(404);
  });

  it('deletes for good only when nothing uses the file (409 with used_by otherwise)', async () => {
    const admin = await createAdmin(t.ctx);
    const id = (await upload(admin.token, { name: 'a.wav', content: welcome }, { name: 'Welcome', type: 'announcement' })).json().data.id;
    const ivr = await createIvr(t.ctx, admin.tenant, { announcementId: id, name: 'Front desk' });
    const refused = await call('DELETE', `/sound-files/${id}?permanent=1`, admin.token);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toEqual({
      message: 'The sound file is still used by ivr "Front desk".',
      used_by: [{ type: 'ivr', id: ivr, name: 'Front desk', path: 'announcement' }],
    });
    expect((await call('GET', `/sound-files/${id}`, admin.token)).statusCode).toBe(200);
    expect((await call('DELETE', `/sound-files/${id}?permanent=maybe`, admin.token)).statusCode).toBe(422);

    await t.ctx.db.updateTable('ivrs').set({ deleted_at: t.clock.now().toISOString() }).where('id', '=', ivr).execute();
    expect((await call('DELETE', `/sound-files/${id}`, admin.token)).statusCode).toBe(204);
    // A soft-deleted file can be purged too.
    expect((await call('DELETE', `/sound-files/${id}?permanent=true`, admin.token)).statusCode).toBe(204);
    expect((await call('GET', '/sound-files?filter[trashed]=with', admin.token)).json().data).toEqual([]);
    expect(await t.ctx.db.selectFrom('sound_file_contents').select('sound_file_id').where('sound_file_id', '=', id).execute()).toEqual([]);
    expect((await call('DELETE', `/sound-files/${id}?permanent=1`, admin.token)).statusCode).toBe(404);
    expect((await call('POST', `/sound-files/${id}/restore`, admin.token)).statusCode).toBe(404);
  });

  it('users and call-routing keys read; only administrators write (403); another tenant gets 404', async () => {
    const admin = await createAdmin(t.ctx);
    const user = await createUser(t.ctx, { tenant: admin.tenant });
    const id = (await upload(admin.token, { name: 'a.wav', content: welcome }, { name: 'Welcome', type: 'announcement' })).json().data.id;
    const fields = { name: 'Mine', type: 'announcement' };

    for (const reader of [
      user.token,
      await createKey(t.ctx, admin.tenant, 'integration', ['call-routing']),
      await createKey(t.ctx, admin.tenant, 'pbx'),
      await createKey(t.ctx, admin.tenant, 'pbx_server'),
    ]) {
      expect((await call('GET', '/sound-files', reader)).json().data.map((f: { id: string }) => f.id)).toEqual([id]);
      expect((await call('GET', `/sound-files/${id}`, reader)).statusCode).toBe(200);
      expect((await download(reader, id)).rawPayload.equals(welcome)).toBe(true);
    }
    const routingKey = await createKey(t.ctx, admin.tenant, 'integration', ['call-routing']);
    for (const writer of [user.token, routingKey]) {
      expect((await upload(writer, { name: 'a.wav', content: welcome }, fields)).statusCode).toBe(403);
      expect((await send('PUT', `/sound-files/${id}/content`, writer, { name: 'a.wav', content: welcome })).statusCode).toBe(403);
      expect((await call('PATCH', `/sound-files/${id}`, writer, { name: 'Mine' })).statusCode).toBe(403);
      expect((await call('DELETE', `/sound-files/${id}`, writer)).statusCode).toBe(403);
      expect((await call('POST', `/sound-files/${id}/restore`, writer)).statusCode).toBe(403);
    }
    expect((await call('GET', '/sound-files', await createKey(t.ctx, admin.tenant, 'integration', ['phone-numbers']))).statusCode).toBe(403);

    const stranger = await createAdmin(t.ctx, await createTenant(t.ctx));
    expect((await call('GET', '/sound-files', stranger.token)).json().data).toEqual([]);
    expect((await call('GET', `/sound-files/${id}`, stranger.token)).statusCode).toBe(404);
    expect((await download(stranger.token, id)).statusCode).toBe(404);
    expect((await call('PATCH', `/sound-files/${id}`, stranger.token, { name: 'Mine' })).statusCode).toBe(404);
    expect((await send('PUT', `/sound-files/${id}/content`, stranger.token, { name: 'a.wav', content: welcome })).statusCode).toBe(404);
    expect((await call('DELETE', `/sound-files/${id}`, stranger.token)).statusCode).toBe(404);
    expect((await call('DELETE', `/sound-files/${id}?permanent=1`, stranger.token)).statusCode).toBe(404);
    expect((await call('POST', `/sound-files/${id}/restore`, stranger.token)).statusCode).toBe(404);
    expect((await call('GET', `/sound-files/${id}`, admin.token)).json().data.name).toBe('Welcome');
  });

  it('insertSoundFile (the demo seed) reads the audio as the upload does and stores both rows', async () => {
    const tenant = await createTenant(t.ctx);
    const admin = await createAdmin(t.ctx, tenant);
    const content = toneWav({ seconds: 2, frequencyHz: 523.25, sampleRate: 16000 });
    const row = await insertSoundFile(t.ctx.db, tenant, { name: 'Seeded', type: 'music', language: null, content }, t.clock.now());
    expect(row).toMatchObject({ format: 'wav', duration_ms: 2000, sample_rate: 16000, channels: 1, size_bytes: content.length, deleted_at: null });
    expect((await call('GET', `/sound-files/${row.id}`, admin.token)).json().data).toMatchObject({ name: 'Seeded', type: 'music' });
    expect((await download(admin.token, row.id)).rawPayload.equals(content)).toBe(true);
    await expect(insertSoundFile(t.ctx.db, tenant, { name: 'Bad', type: 'music', language: null, content: Buffer.from('no') }, t.clock.now())).rejects.toThrow(
      /WAV \(PCM\) or MP3/,
    );
  });
});
