/**
 * The configuration push and click-to-call against a real Asterisk 22 set up as the README says
 * (docs/asterisk/): the demo tenant pushed, what Asterisk loaded read back from its CLI, a phone
 * registering with a secret full of what config files read specially, calls walking the IVR by
 * DTMF, music on hold from Asterisk's data directory, click-to-call, a failed push, two tenants.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { seedDemo, type DemoTenant } from '../../src/demo-seed.js';
import { compactId, tenantPrefix } from '../../src/platform/pbx-names.js';
import { toneWav } from '../../src/modules/routing/sound-files/wav.js';
import { createAdmin, createExtension, createSipDevice, createTenant, createUser } from '../factories.js';
import { buildTestApp, type TestApp } from '../helpers.js';
import { asteriskSuite, startAsterisk, type AsteriskInstance } from './harness.js';
import { answeringPhone, registerPhone } from './sipp.js';
import { asteriskApi, pushTo as pushToAsterisk, TEST_CALLERS } from './tenant.js';

asteriskSuite('the configuration push on a real Asterisk', () => {
  let asterisk: AsteriskInstance;
  let t: TestApp;
  let demo: DemoTenant;
  let admin: string;
  let prefix: string;
  const api = asteriskApi(() => t);

  /** The SIP user names of the demo tenant's devices (its endpoints on the PBX). */
  const demoEndpoints = async () =>
    (await t.ctx.db.selectFrom('sip_devices').select('username').where('pbx_id', '=', demo.pbx_id).where('deleted_at', 'is', null).execute())
      .map((row) => row.username)
      .slice(0, 2);

  const pushTo = (token: string, target: AsteriskInstance) => pushToAsterisk(t, token, target);

  beforeAll(async () => {
    asterisk = await startAsterisk({ extraDialplan: TEST_CALLERS });
    t = await buildTestApp({ env: { JOB_WORKER: 'false', AMI_EVENTS: 'false' } });
    demo = (await seedDemo(t.ctx)).seed.tenants[0];
    admin = (await createAdmin(t.ctx, { pbxId: demo.pbx_id })).token;
    prefix = tenantPrefix(demo.pbx_id);
    // The demo's hold music where the pushed class looks for it: under Asterisk's own data directory.
    const music = compactId(String(demo.samples.sound_file_music))!;
    const folder = join(asterisk.dataDir, 'moh', 'pbxapi', prefix, music);
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, 'hold.wav'), toneWav({ seconds: 1, frequencyHz: 440 }));
  }, 90_000);
  afterAll(async () => {
    await t?.close();
    await asterisk?.stop();
  });

  it("passes the connection test with the README's AMI user, and names the missing class of write = originate,command", async () => {
    const saved = await api('PUT', '/pbx-engine/settings', admin, {
      host: '127.0.0.1',
      port: asterisk.amiPort,
      username: asterisk.amiUser,
      secret: asterisk.amiSecret,
      enabled: false,
    });
    expect(saved.json().data.context).toBe(prefix);
    const passed = await api('POST', '/pbx-engine/settings/test', admin);
    expect(passed.statusCode, passed.body).toBe(200);
    expect(passed.json().data.checks.map((check: { name: string; status: string }) => `${check.name}:${check.status}`)).toEqual([
      'connect:passed',
      'login:passed',
      'originate:passed',
      'config:passed',
      'system:passed',
      'read_call:passed',
      'read_cdr:passed',
      'version:passed',
    ]);
    expect(passed.json().data.asterisk_version).toMatch(/^Asterisk 22\./);

    // The user an older README documented: it may originate but never push.
    asterisk.writeEtcFile(
      'manager.conf',
      `${asterisk.readEtcFile('manager.conf')}\n[caller-only]\nsecret = caller-only-secret\nread = call,cdr\nwrite = originate,command\n`,
    );
    await asterisk.cli('manager reload');
    await api('PUT', '/pbx-engine/settings', admin, {
      host: '127.0.0.1',
      port: asterisk.amiPort,
      username: 'caller-only',
      secret: 'caller-only-secret',
      enabled: false,
    });
    const failed = await api('POST', '/pbx-engine/settings/test', admin);
    expect(failed.statusCode).toBe(502);
    expect(failed.json().message).toBe('The AMI user lacks what the engine needs: config, system.');
  }, 60_000);

  it("takes a push of the demo tenant and keeps the host's own transport, trunk and dialplan", async () => {
    const pushed = await pushTo(admin, asterisk);
    expect(pushed, JSON.stringify(pushed)).toMatchObject({ status: 'done', engine: 'asterisk', reason: null });
    // What Asterisk really runs: the tenant's dialplan, endpoints, queue and music class...
    expect(await asterisk.cli(`dialplan show ${prefix}`)).toContain(`[ Context '${prefix}' created by 'pbx_config' ]`);
    expect(await asterisk.cli('dialplan show pbxapi-from-carrier')).toContain(`'${prefix}-inbound'`);
    const endpoints = await asterisk.cli('pjsip show endpoints');
    for (const name of await demoEndpoints()) expect(endpoints).toMatch(new RegExp(`Endpoint:\\s+${name}/`));
    expect(await asterisk.cli('queue show')).toContain(`${prefix}-queue-${compactId(String(demo.samples.queue))}`);
    expect(await asterisk.cli('moh show classes')).toContain(`${prefix}-moh-${compactId(String(demo.samples.sound_file_music))}`);
    // ...beside the host's: its transport, its trunk and its own context survive.
    expect(await asterisk.cli('pjsip show transports')).toContain('transport-udp');
    expect(endpoints).toMatch(/Endpoint:\s+pbxapi-trunk/);
    expect(await asterisk.cli('dialplan show operator-test')).toContain("Context 'operator-test'");
    expect(asterisk.readEtcFile('pjsip.conf')).toContain('#tryinclude "pbxapi-pjsip-*.conf"');

    // A rollback (a push of version 1's files again) keeps them too.
    t.clock.advance(61);
    const rollback = await api('POST', `/pbx/configuration/versions/${pushed.version}/rollback`, admin);
    expect(rollback.statusCode, rollback.body).toBe(202);
    await t.app.jobs.drain();
    expect((await api('GET', `/pbx/configuration/pushes/${rollback.json().data.id}`, admin)).json().data.status).toBe('done');
    expect(await asterisk.cli('pjsip show transports')).toContain('transport-udp');
    expect(await asterisk.cli('pjsip show endpoints')).toMatch(/Endpoint:\s+pbxapi-trunk/);
  }, 90_000);

  it('registers a phone with a secret holding ; # \\ spaces and quotes, escaped once on the way', async () => {
    const user = await createUser(t.ctx, { tenant: { pbxId: demo.pbx_id }, fields: { first_name: 'Ada', last_name: 'Lovelace' } });
    const extension = await createExtension(t.ctx, { pbxId: demo.pbx_id }, { number: '2901', user_id: user.id });
    const device = await createSipDevice(t.ctx, { pbxId: demo.pbx_id }, { user_id: user.id, extension_id: extension.id });
    const secret = 'Se;cr#et \\ with "quotes" ;-- x';
    const changed = await api('PATCH', `/sip-devices/${device.id}`, admin, { secret, transport: 'udp' });
    expect(changed.statusCode, changed.body).toBe(200);
    expect((await pushTo(admin, asterisk)).status).toBe('done');
    expect(await asterisk.cli(`pjsip show auth ${device.username}`)).toContain(`password                 : ${secret}`);
    expect(await registerPhone({ asterisk, username: device.username, password: secret })).toBe(200);
    expect(await registerPhone({ asterisk, username: device.username, password: secret.replace(/;/g, '\\;'), expectStatus: 401 })).not.toBe(200);
  }, 90_000);

  it('routes a call through the IVR by DTMF to the queue, with music on hold from the data directory', async () => {
    const ivr = `${prefix}-ivr-${compactId(String(demo.samples.ivr))}`;
    const queue = `${prefix}-queue-${compactId(String(demo.samples.queue))}`;
    const moh = `${prefix}-moh-${compactId(String(demo.samples.sound_file_music))}`;
    const mark = asterisk.logMark();
    await asterisk.cli(`channel originate Local/s@${ivr} extension press2@pbxapi-test-caller`);
    await asterisk.waitForLog(new RegExp(`Started music on hold, class '${moh}'`), 10_000, mark);
    await asterisk.waitForLog(new RegExp(`Executing \\[2@${ivr}:1\\]`), 10_000, mark);
    await asterisk.waitForLog(new RegExp(`Executing \\[s@${queue}:2\\] Queue\\(`), 10_000, mark);
    // The class found its file (the announcement itself is not on this host: sound files are delivered separately).
    expect(asterisk.log().slice(mark)).not.toMatch(/Files not found in|Unable to open .*moh/);
  }, 60_000);

  it("routes the main number from the host trunk's context into the tenant's inbound context", async () => {
    const mark = asterisk.logMark();
    await asterisk.cli('channel originate Local/+35227123400@pbxapi-from-carrier extension listen@pbxapi-test-caller');
    // Found through the include the tenant's file adds to the trunk's context (the channel stays in that context).
    await asterisk.waitForLog(new RegExp(`Executing \\[\\+35227123400@pbxapi-from-carrier:1\\] Set\\(.*__PBXAPI_ORIGIN=external`), 10_000, mark);
    await asterisk.waitForLog(new RegExp(`Executing \\[s@${prefix}-flow-${compactId(String(demo.samples.call_flow))}:1\\]`), 10_000, mark);
  }, 60_000);

  it("answers click-to-call after a push: the phone rings, then the destination is dialled in the tenant's context", async () => {
    const user = await createUser(t.ctx, { tenant: { pbxId: demo.pbx_id }, fields: { first_name: 'Grace', last_name: 'Hopper' } });
    const extension = await createExtension(t.ctx, { pbxId: demo.pbx_id }, { number: '2902', user_id: user.id });
    const device = await createSipDevice(t.ctx, { pbxId: demo.pbx_id }, { user_id: user.id, extension_id: extension.id });
    const secret = 'click-to-call-secret-1';
    expect((await api('PATCH', `/sip-devices/${device.id}`, admin, { secret, transport: 'udp' })).statusCode).toBe(200);
    expect((await pushTo(admin, asterisk)).status).toBe('done');
    const phone = await answeringPhone({ asterisk, username: device.username, password: secret });
    try {
      const mark = asterisk.logMark();
      const placed = await api('POST', '/calls/new', user.token, { destination: '201' });
      expect(placed.statusCode, placed.body).toBe(200);
      await phone.waitForCall(10_000);
      await asterisk.waitForLog(new RegExp(`Executing \\[201@${prefix}:1\\]`), 10_000, mark);
    } finally {
      await phone.stop();
    }
  }, 90_000);

  it('turns a caller away at once from a queue whose only member is not registered (the member state is its devices)', async () => {
    const user = await createUser(t.ctx, { tenant: { pbxId: demo.pbx_id }, fields: { first_name: 'Alan', last_name: 'Turing' } });
    const extension = await createExtension(t.ctx, { pbxId: demo.pbx_id }, { number: '2903', user_id: user.id });
    await createSipDevice(t.ctx, { pbxId: demo.pbx_id }, { user_id: user.id, extension_id: extension.id });
    const created = await api('POST', '/queues', admin, {
      name: 'Night desk',
      max_wait_seconds: 120,
      members: [{ type: 'extension', id: extension.id, penalty: 0 }],
    });
    expect(created.statusCode, created.body).toBe(201);
    expect((await pushTo(admin, asterisk)).status).toBe('done');
    const queue = `${prefix}-queue-${compactId(created.json().data.id)}`;
    // eslint-disable-next-line no-control-regex
    expect((await asterisk.cli(`queue show ${queue}`)).replace(/\x1b\[[0-9;]*m/g, '')).toMatch(/agents\/n .*\(Unavailable\)/);
    const mark = asterisk.logMark();
    await asterisk.cli(`channel originate Local/s@${queue} extension listen@pbxapi-test-caller`);
    const joined = Date.now();
    await asterisk.waitForLog(new RegExp(`Executing \\[s@${queue}:2\\] Queue\\(`), 10_000, mark);
    // The next step (the queue's overflow, here the end of the call) follows at once, not after 120 s.
    await asterisk.waitForLog(new RegExp(`Executing \\[s@${queue}:3\\]`), 5_000, mark);
    expect(Date.now() - joined).toBeLessThan(5_000);
  }, 60_000);

  it('keeps two tenants on one Asterisk apart: each pushes its own files and contexts', async () => {
    const other = await createTenant(t.ctx);
    const otherAdmin = (await createAdmin(t.ctx, other)).token;
    const user = await createUser(t.ctx, { tenant: other });
    const extension = await createExtension(t.ctx, other, { number: '301', user_id: user.id });
    const device = await createSipDevice(t.ctx, other, { user_id: user.id, extension_id: extension.id });
    const pushed = await pushTo(otherAdmin, asterisk);
    expect(pushed.status, pushed.reason).toBe('done');
    const otherPrefix = tenantPrefix(other.pbxId);
    expect(await asterisk.cli(`dialplan show ${otherPrefix}`)).toContain(`Context '${otherPrefix}'`);
    // The first tenant's configuration still runs, and its status still tells the truth.
    expect(await asterisk.cli(`dialplan show ${prefix}`)).toContain(`Context '${prefix}'`);
    const endpoints = await asterisk.cli('pjsip show endpoints');
    expect(endpoints).toContain(`Endpoint:  ${device.username}/`);
    for (const name of await demoEndpoints()) expect(endpoints).toMatch(new RegExp(`Endpoint:\\s+${name}/`));
    expect((await api('GET', '/pbx/configuration/status', admin)).json().data.has_unpushed_changes).toBe(false);
  }, 90_000);

  it('fails a push on an Asterisk without queues.conf, and the API and the PBX agree on what runs', async () => {
    const bare = await startAsterisk({ without: ['queues.conf'] });
    try {
      expect(await bare.cli('module show like app_queue')).toContain('Not Running');
      // The demo tenant has a queue: app_queue declined at start, and cannot load without queues.conf.
      const failed = await pushTo(admin, bare);
      expect(failed.status).toBe('failed');
      expect(failed.reason).toMatch(/^app_queue\.so is not running on the PBX .*queues\.conf.*The previous configuration was restored and runs\.$/);
      // Nothing of the version runs on that PBX: the files in place are the previous (empty) ones.
      expect(await bare.cli(`dialplan show ${prefix}`)).toMatch(/There is no existence of '.*' context|No such context/);
      const endpoints = await bare.cli('pjsip show endpoints');
      for (const name of await demoEndpoints()) expect(endpoints).not.toContain(name);
    } finally {
      await bare.stop();
    }
  }, 90_000);
});
