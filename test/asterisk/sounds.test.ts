/**
 * Sound files on a real Asterisk 22: a 44.1 kHz stereo WAV and an MP3 uploaded as announcements,
 * made IVR greetings and pushed; scripts/pbx-sounds-sync.mjs, run against the API over HTTP with
 * the PBX server key, writes what the push names (converted to 8 kHz mono 16-bit PCM); a call into
 * each IVR plays its file, and hold music plays from the synced folder. What was deleted goes.
 */
import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { seedDemo, type DemoTenant } from '../../src/demo-seed.js';
import { compactId, tenantPrefix } from '../../src/platform/pbx-names.js';
import { createAdmin, createKey } from '../factories.js';
import { bearer, buildTestApp, type TestApp } from '../helpers.js';
import { multipart } from '../imports.js';
import { asteriskSuite, startAsterisk, type AsteriskInstance } from './harness.js';
import { pushTo, TEST_CALLERS } from './tenant.js';

const SYNC_SCRIPT = fileURLToPath(new URL('../../scripts/pbx-sounds-sync.mjs', import.meta.url));
const MP3 = readFileSync(new URL('../../src/modules/routing/sound-files/fixtures/tone-440hz-44k1-stereo.mp3', import.meta.url));

/** `seconds` of a 440 Hz tone on the left and 660 Hz on the right: a 44.1 kHz stereo 16-bit WAV, what Asterisk cannot play as it is. */
function stereoWav(seconds: number): Buffer {
  const frames = Math.round(seconds * 44100);
  const wav = Buffer.alloc(44 + frames * 4);
  wav.write('RIFFxxxxWAVEfmt ', 0, 'ascii');
  wav.writeUInt32LE(wav.length - 8, 4);
  wav.writeUInt32LE(16, 16);
  wav.writeUInt16LE(1, 20);
  wav.writeUInt16LE(2, 22);
  wav.writeUInt32LE(44100, 24);
  wav.writeUInt32LE(44100 * 4, 28);
  wav.writeUInt16LE(4, 32);
  wav.writeUInt16LE(16, 34);
  wav.write('data', 36, 'ascii');
  wav.writeUInt32LE(frames * 4, 40);
  for (let i = 0; i < frames; i++) {
    wav.writeInt16LE(Math.round(12000 * Math.sin((2 * Math.PI * 440 * i) / 44100)), 44 + i * 4);
    wav.writeInt16LE(Math.round(12000 * Math.sin((2 * Math.PI * 660 * i) / 44100)), 46 + i * 4);
  }
  return wav;
}

asteriskSuite('sound files on a real Asterisk, delivered by pbx-sounds-sync', () => {
  let asterisk: AsteriskInstance;
  let t: TestApp;
  let demo: DemoTenant;
  let admin: string;
  let serverKey: string;
  let prefix: string;
  let apiUrl: string;
  const ids: { wav: string; mp3: string; ivr: string } = { wav: '', mp3: '', ivr: '' };
  const api = (method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, payload?: object) =>
    t.app.inject({ method, url: `/api/v1${url}`, headers: bearer(admin), ...(payload ? { payload } : {}) });
  const upload = async (name: string, content: Buffer) => {
    const body = multipart({ name, content }, { name, type: 'announcement' });
    const created = await t.app.inject({ method: 'POST', url: '/api/v1/sound-files', headers: { ...bearer(admin), ...body.headers }, payload: body.payload });
    expect(created.statusCode, created.body).toBe(201);
    return created.json().data.id as string;
  };
  /** Runs the shipped script as the host's cron would (music on hold reloaded when it changed); its stdout lines. */
  const sync = async () => {
    const reload = ['--moh-reload', '--asterisk', join(asterisk.prefix, 'sbin', 'asterisk'), '--asterisk-config', asterisk.configPath];
    const { stdout } = await promisify(execFile)(process.execPath, [SYNC_SCRIPT, '--api', apiUrl, '--data-dir', asterisk.dataDir, ...reload], {
      env: { ...process.env, PBX_SERVER_KEY: serverKey, LD_LIBRARY_PATH: join(asterisk.prefix, 'lib') },
      timeout: 30_000,
    });
    return stdout.split('\n').filter(Boolean);
  };
  const ivrContext = (id: string) => `${prefix}-ivr-${compactId(id)}`;
  const soundPath = (id: string) => `pbxapi/${prefix}/${compactId(id)}`;

  beforeAll(async () => {
    asterisk = await startAsterisk({ extraDialplan: TEST_CALLERS });
    t = await buildTestApp({ env: { JOB_WORKER: 'false', AMI_EVENTS: 'false' } });
    demo = (await seedDemo(t.ctx)).seed.tenants[0];
    admin = (await createAdmin(t.ctx, { pbxId: demo.pbx_id })).token;
    serverKey = await createKey(t.ctx, { pbxId: demo.pbx_id }, 'pbx_server');
    prefix = tenantPrefix(demo.pbx_id);
    // The script fetches over HTTP, as on a real host.
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    apiUrl = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}/api/v1`;
  }, 90_000);
  afterAll(async () => {
    await t?.close();
    await asterisk?.stop();
  });

  it('plays a 44.1 kHz stereo WAV and an MP3 uploaded as IVR greetings, once the script has synced them', async () => {
    ids.wav = await upload('Welcome (studio).wav', stereoWav(2));
    ids.mp3 = await upload('Welcome (mp3).mp3', MP3);
    ids.ivr = String(demo.samples.ivr);
    expect((await api('PATCH', `/ivrs/${ids.ivr}`, { announcement: ids.wav })).statusCode).toBe(200);
    const second = await api('POST', '/ivrs', { pbx_id: demo.pbx_id, name: 'MP3 greeting', announcement: ids.mp3, default_action: 'hangup' });
    expect(second.statusCode, second.body).toBe(201);
    const mp3Ivr = second.json().data.id as string;

    expect((await pushTo(t, admin, asterisk)).status).toBe('done');
    expect(await asterisk.cli(`dialplan show ${ivrContext(mp3Ivr)}`)).toContain(`Background(${soundPath(ids.mp3)})`);

    const written = await sync();
    const music = compactId(String(demo.samples.sound_file_music))!;
    expect(written).toEqual(
      expect.arrayContaining([
        expect.stringMatching(new RegExp(`^added sounds/${soundPath(ids.wav)}\\.wav \\(announcement "Welcome \\(studio\\)\\.wav"`)),
        expect.stringMatching(new RegExp(`^added sounds/${soundPath(ids.mp3)}\\.wav \\(announcement`)),
        expect.stringMatching(new RegExp(`^added moh/pbxapi/${prefix}/${music}/${music}\\.wav \\(music`)),
        'reloaded music on hold (moh reload)',
      ]),
    );
    for (const id of [ids.wav, ids.mp3]) {
      const file = readFileSync(join(asterisk.dataDir, 'sounds', `${soundPath(id)}.wav`));
      expect([file.readUInt16LE(20), file.readUInt16LE(22), file.readUInt32LE(24), file.readUInt16LE(34)]).toEqual([1, 1, 8000, 16]);
    }
    // Nothing changed: nothing fetched, nothing said.
    expect(await sync()).toEqual([]);

    for (const [ivr, sound] of [
      [ids.ivr, ids.wav],
      [mp3Ivr, ids.mp3],
    ]) {
      const mark = asterisk.logMark();
      await asterisk.cli(`channel originate Local/s@${ivrContext(ivr)} extension listen@pbxapi-test-caller`);
      const name = soundPath(sound).replace(/\//g, '\\/');
      await asterisk.waitForLog(new RegExp(`Playing '${name}\\.(slin|wav)'`), 10_000, mark);
      await asterisk.waitForLog(new RegExp(`Executing \\[s@${ivrContext(ivr)}:\\d+\\] WaitExten`), 10_000, mark);
      const log = asterisk.log().slice(mark);
      expect(log).not.toMatch(/does not exist in any format|Not in mono|Unable to open|no musiconhold loaded/);
    }
  }, 120_000);

  it('plays hold music from the synced folder, and removes the files of a deleted sound file', async () => {
    const mark = asterisk.logMark();
    const moh = `${prefix}-moh-${compactId(String(demo.samples.sound_file_music))}`;
    await asterisk.cli(`channel originate Local/s@${ivrContext(ids.ivr)} extension press2@pbxapi-test-caller`);
    await asterisk.waitForLog(new RegExp(`Started music on hold, class '${moh}'`), 15_000, mark);
    expect(asterisk.log().slice(mark)).not.toMatch(/Files not found in|Unable to open .*moh|does not exist in any format|no musiconhold loaded/);

    // A soft delete is allowed while the IVR uses it; the host drops the file.
    expect((await api('DELETE', `/sound-files/${ids.mp3}`)).statusCode).toBe(204);
    expect(await sync()).toEqual([`removed sounds/${soundPath(ids.mp3)}.wav`]);
    expect(existsSync(join(asterisk.dataDir, 'sounds', `${soundPath(ids.mp3)}.wav`))).toBe(false);
    expect(readdirSync(join(asterisk.dataDir, 'sounds', 'pbxapi', prefix))).toContain(`${compactId(ids.wav)}.wav`);
  }, 60_000);
});
