import { createHash } from 'node:crypto';
import type { KyselyPlugin } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, buildTestApp, type TestApp } from '../../../../test/helpers.js';
import { openTestDatabase } from '../../../../test/database.js';
import { createAdmin } from '../../../../test/factories.js';
import type { Database } from '../../../db/database.js';
import type { Tenant } from '../../../platform/tenancy.js';
import { toneWav } from './wav.js';
import { insertSoundFile } from './sound-files.service.js';
import { readSoundFileBytes } from './sound-files.queries.js';

/** Counts the bytes of every binary value the database hands back: what a request loaded of the audio. */
function binaryBytesCounter(): KyselyPlugin & { bytes: number } {
  return {
    bytes: 0,
    transformQuery: ({ node }) => node,
    async transformResult({ result }) {
      for (const row of result.rows) for (const value of Object.values(row)) if (value instanceof Uint8Array) this.bytes += value.byteLength;
      return result;
    },
  };
}

describe('sound file byte ranges', () => {
  let t: TestApp;
  let database: Database;
  const fetched = binaryBytesCounter();
  // 16 kHz: its playable version (8 kHz) differs from the original, so the two reads cannot be mixed up.
  const original = toneWav({ seconds: 20, frequencyHz: 440, sampleRate: 16_000 });
  let playable: Buffer;
  let id: string;
  let token: string;
  let tenant: Tenant;

  beforeAll(async () => {
    database = await openTestDatabase();
    t = await buildTestApp({ database: { ...database, db: database.db.withPlugin(fetched) } });
    const admin = await createAdmin(t.ctx);
    token = admin.token;
    tenant = admin.tenant;
    const row = await insertSoundFile(t.ctx.db, admin.tenant, { name: 'Hold music', type: 'music', language: null, content: original }, t.clock.now());
    id = row.id;
    playable = (await t.app.inject({ url: `/api/v1/sound-files/${id}/playable`, headers: bearer(token) })).rawPayload;
    expect(playable.length).toBeGreaterThan(100_000);
    expect(playable.equals(original)).toBe(false);
  });
  afterAll(async () => {
    await t.close();
    await database.close();
  });

  const get = (path: 'content' | 'playable', headers: Record<string, string> = {}, method: 'GET' | 'HEAD' = 'GET') =>
    t.app.inject({ method, url: `/api/v1/sound-files/${id}/${path}`, headers: { ...bearer(token), ...headers } });

  it('answers each range with exactly its bytes, from the original and the playable version', async () => {
    for (const [path, audio] of [
      ['content', original],
      ['playable', playable],
    ] as const) {
      const size = audio.length;
      const etag = `"${createHash('sha256').update(audio).digest('hex')}"`;
      const cases: Array<[string, number, number]> = [
        ['bytes=0-0', 0, 0],
        ['bytes=0-43', 0, 43],
        ['bytes=1000-1999', 1000, 1999],
        [`bytes=${size - 1}-${size - 1}`, size - 1, size - 1],
        ['bytes=-1', size - 1, size - 1],
        ['bytes=-500', size - 500, size - 1],
        [`bytes=${size - 10}-`, size - 10, size - 1],
        [`bytes=${size - 10}-${size + 1000}`, size - 10, size - 1],
        [`bytes=-${size + 5}`, 0, size - 1],
      ];
      for (const [range, start, end] of cases) {
        const answer = await get(path, { range });
        expect(answer.statusCode, `${path} ${range}`).toBe(206);
        expect(answer.headers['content-range']).toBe(`bytes ${start}-${end}/${size}`);
        expect(answer.headers['content-length']).toBe(String(end - start + 1));
        expect(answer.headers.etag).toBe(etag);
        expect(answer.rawPayload.equals(audio.subarray(start, end + 1)), `${path} ${range}`).toBe(true);
      }
      const head = await get(path, { range: 'bytes=10-19' }, 'HEAD');
      expect(head.statusCode).toBe(206);
      expect(head.headers['content-range']).toBe(`bytes 10-19/${size}`);
      expect(head.headers['content-length']).toBe('10');
      expect(head.rawPayload.length).toBe(0);
      const beyond = await get(path, { range: `bytes=${size}-` });
      expect(beyond.statusCode).toBe(416);
      expect(beyond.headers['content-range']).toBe(`bytes */${size}`);
      expect((await get(path, { range: 'bytes=5-9', 'if-range': etag })).rawPayload.equals(audio.subarray(5, 10))).toBe(true);
      const stale = await get(path, { range: 'bytes=5-9', 'if-range': '"stale"' });
      expect(stale.statusCode).toBe(200);
      expect(stale.rawPayload.equals(audio)).toBe(true);
    }
  });

  it('reads only the range from the database, never the whole audio', async () => {
    for (const path of ['content', 'playable'] as const) {
      fetched.bytes = 0;
      expect((await get(path, { range: 'bytes=1000-1009' })).statusCode).toBe(206);
      expect(fetched.bytes, path).toBe(10);
      fetched.bytes = 0;
      expect((await get(path, { range: 'bytes=-1' })).statusCode).toBe(206);
      expect(fetched.bytes, path).toBe(1);
      fetched.bytes = 0;
      expect((await get(path, { range: 'bytes=999999999-' })).statusCode).toBe(416);
      expect(fetched.bytes, path).toBe(0);
      // The counter sees what a whole read loads.
      fetched.bytes = 0;
      const whole = await get(path);
      expect(whole.statusCode).toBe(200);
      expect(fetched.bytes, path).toBe(whole.rawPayload.length);
    }
  });

  it('reads no range of audio that was replaced since its checksum was read', async () => {
    const checksum = createHash('sha256').update(original).digest('hex');
    const read = (sum: string) => readSoundFileBytes(t.ctx.db, tenant, id, 'content', sum, { start: 2, end: 5 });
    expect((await read(checksum))?.equals(original.subarray(2, 6))).toBe(true);
    expect(await read('0'.repeat(64))).toBeUndefined();
  });
});
