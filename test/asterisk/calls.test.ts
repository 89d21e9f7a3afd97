/**
 * Call history from a real Asterisk 22 set up as the README says (docs/asterisk/: cdr_manager with
 * the LinkedID mapping, cdr.conf with unanswered calls): the app listens to AMI events (the event
 * hub, AMI_EVENTS on), calls are placed through the API or originated into the pushed demo
 * tenant's queues and IVR, SIPp phones answer, and every call must become exactly one record with
 * its receivers, never one of a Local helper half. Also the warning when the host's clock and
 * `pbx_timezone` disagree, and times right once they agree.
 */
import { execFileSync } from 'node:child_process';
import { DateTime } from 'luxon';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { seedDemo, type DemoTenant } from '../../src/demo-seed.js';
import { compactId, tenantPrefix } from '../../src/platform/pbx-names.js';
import { createAdmin, createExtension, createMobileTwinning, createSipDevice, createUser } from '../factories.js';
import { buildTestApp, type TestApp } from '../helpers.js';
import { asteriskSuite, sleep, startAsterisk, type AsteriskInstance } from './harness.js';
import { answeringPhone, type AnsweringPhone } from './sipp.js';
import { asteriskApi, pushTo, TEST_CALLERS } from './tenant.js';

/** The SIPp process of the phone on `port` (started by this file, through test/asterisk/sipp.ts). */
function sippPid(port: number): number {
  const line = execFileSync('ps', ['-eo', 'pid=,args='], { encoding: 'utf8' })
    .split('\n')
    .find((row) => /\bsipp\b/.test(row) && row.includes(` -p ${port} `));
  if (!line) throw new Error(`no SIPp on port ${port}`);
  return Number(line.trim().split(/\s+/)[0]);
}

interface Receiver {
  id: string | null;
  status: string;
  number: string;
  name: string;
  via_type: string | null;
  via_id: string | null;
}

asteriskSuite('call history from a real Asterisk', () => {
  let asterisk: AsteriskInstance;
  let t: TestApp;
  let demo: DemoTenant;
  let admin: string;
  let prefix: string;
  const phones: AnsweringPhone[] = [];
  const api = asteriskApi(() => t);

  /** A user with an extension and `devices` SIP devices (UDP, a known secret each). */
  async function person(first: string, number: string, devices: number) {
    const user = await createUser(t.ctx, { tenant: { pbxId: demo.pbx_id }, fields: { first_name: first, last_name: 'Tester' } });
    const extension = await createExtension(t.ctx, { pbxId: demo.pbx_id }, { number, user_id: user.id });
    const phones: Array<{ id: string; username: string; secret: string }> = [];
    for (let i = 0; i < devices; i++) {
      const device = await createSipDevice(t.ctx, { pbxId: demo.pbx_id }, { user_id: user.id, extension_id: extension.id });
      const secret = `calls-secret-${number}-${i}`;
      const changed = await api('PATCH', `/sip-devices/${device.id}`, admin, { secret, transport: 'udp' });
      expect(changed.statusCode, changed.body).toBe(200);
      phones.push({ id: device.id, username: device.username, secret });
    }
    return { user, extension, phones };
  }
  let alice: Awaited<ReturnType<typeof person>>;
  let bob: Awaited<ReturnType<typeof person>>;
  let dave: Awaited<ReturnType<typeof person>>;
  let answeredQueue: string;
  let silentQueue: string;

  /** The tenant's call records. */
  const records = () => t.ctx.db.selectFrom('cdrs').selectAll().where('pbx_id', '=', demo.pbx_id).execute();
  const receiversOf = (row: { receivers: string }) => JSON.parse(row.receivers) as Receiver[];

  /**
   * Waits until `count` records more than `before` exist, and stays there while the last legs come
   * in (a helper leg that became a record of its own would show up as one more).
   */
  async function newRecords(before: Set<string>, count: number, timeoutMs = 15_000) {
    const deadline = Date.now() + timeoutMs;
    const fresh = async () => (await records()).filter((row) => !before.has(String(row.cdr_id)));
    while ((await fresh()).length < count && Date.now() <= deadline) await sleep(100);
    await sleep(2_500);
    return fresh();
  }
  const known = async () => new Set((await records()).map((row) => String(row.cdr_id)));

  /** The placed call, once it ended and its record is known. */
  async function endedCall(callId: string, token: string) {
    const deadline = Date.now() + 15_000;
    for (;;) {
      const call = (await api('GET', `/calls/${callId}`, token)).json().data;
      if (call.cdr_id !== null && (call.status === 'ended' || call.status === 'failed')) return call;
      if (Date.now() > deadline) throw new Error(`call ${callId} did not end with a record: ${JSON.stringify(call)}`);
      await sleep(100);
    }
  }

  beforeAll(async () => {
    asterisk = await startAsterisk({ extraDialplan: TEST_CALLERS });
    // The app listens to AMI events here: the hub starts a listener for the PBX once its settings are enabled.
    t = await buildTestApp({ env: { JOB_WORKER: 'false', AMI_EVENTS: 'true' } });
    demo = (await seedDemo(t.ctx)).seed.tenants[0];
    admin = (await createAdmin(t.ctx, { pbxId: demo.pbx_id })).token;
    prefix = tenantPrefix(demo.pbx_id);
    alice = await person('Alice', '2921', 1);
    bob = await person('Bob', '2922', 2);
    dave = await person('Dave', '2923', 1);
    const queue = async (name: string, extensionId: string) => {
      const created = await api('POST', '/queues', admin, {
        name,
        max_wait_seconds: 60,
        member_timeout_seconds: 5,
        members: [{ type: 'extension', id: extensionId, penalty: 0 }],
      });
      expect(created.statusCode, created.body).toBe(201);
      return created.json().data.id as string;
    };
    answeredQueue = await queue('Front desk', alice.extension.id);
    silentQueue = await queue('Back office', dave.extension.id);

    // pbx_timezone left at its default (the PBX's Europe/Luxembourg), whatever the host runs on.
    const pushed = await pushTo(t, admin, asterisk);
    expect(pushed.status, JSON.stringify(pushed)).toBe('done');

    for (const phone of [...alice.phones, ...bob.phones, ...dave.phones]) {
      phones.push(await answeringPhone({ asterisk, username: phone.username, password: phone.secret }));
    }
    // The event listener is logged in before any call is placed.
    const deadline = Date.now() + 15_000;
    while (!(await asterisk.cli('manager show connected')).includes(asterisk.amiUser)) {
      if (Date.now() > deadline) throw new Error('the event listener did not log in');
      await sleep(100);
    }
  }, 120_000);
  afterAll(async () => {
    for (const phone of phones) await phone.stop();
    await t?.close();
    await asterisk?.stop();
  });

  it("records a click-to-call from one device to a user with two devices as one call, in true UTC at the host's own offset", async () => {
    const before = await known();
    const startedAt = Date.now();
    const placed = await api('POST', '/calls/new', alice.user.token, { destination: '2922' });
    expect(placed.statusCode, placed.body).toBe(200);
    const callId = placed.json().data.call_id as string;
    await phones[0].waitForCall(10_000);
    await Promise.any([phones[1].waitForCall(10_000), phones[2].waitForCall(10_000)]);
    await sleep(2_000);
    await asterisk.cli('channel request hangup all');
    const call = await endedCall(callId, alice.user.token);
    const fresh = await newRecords(before, 1);
    expect(fresh).toHaveLength(1);
    expect(fresh[0].cdr_id).toBe(call.cdr_id);
    expect(fresh[0]).toMatchObject({ type: 'OUTGOING', caller_user_id: alice.user.id, status: 'answered', is_internal: 1 });
    // Bob's two phones rang (one fork each): both are receivers of the one call, one answered.
    const receivers = receiversOf(fresh[0]);
    expect(receivers.map((r) => r.number)).toEqual(['2922', '2922']);
    expect(receivers.map((r) => r.status).sort()).toEqual(['ANSWERED', 'MISSED']);
    expect(receivers.every((r) => r.id === bob.user.id)).toBe(true);

    // pbx_timezone is not set (the PBX's Europe/Luxembourg, whatever the host runs on): the times are
    // read at the offset the host's Cdrs show, so they are stored as they happened, and nothing warns.
    const start = DateTime.fromFormat(String(fresh[0].start_time), 'yyyy-MM-dd HH:mm:ss', { zone: 'utc' }).toMillis();
    expect(Math.abs(start - startedAt)).toBeLessThan(60_000);
    const settings = (await api('GET', '/pbx-engine/settings', admin)).json().data;
    expect(settings).toMatchObject({ pbx_timezone: 'Europe/Luxembourg', pbx_timezone_set: false });
    expect(settings.connection.last_error).toBeNull();
  }, 60_000);

  it("records a click-to-call from a user with two devices (the call's own leg a Local/…;1 half) as one call, and warns when a set pbx_timezone is not the host's", async () => {
    // A zone the host's clock does not run on, set on purpose: it overrides what the Cdrs show, and the mismatch is told.
    const hostOffset = -new Date().getTimezoneOffset();
    const zone = DateTime.now().setZone('Asia/Tokyo').offset === hostOffset ? 'Europe/Luxembourg' : 'Asia/Tokyo';
    const zoneOffsetMs = DateTime.now().setZone(zone).offset * 60_000 - hostOffset * 60_000;
    const saved = await api('PUT', '/pbx-engine/settings', admin, {
      host: '127.0.0.1',
      port: asterisk.amiPort,
      username: asterisk.amiUser,
      pbx_timezone: zone,
    });
    expect(saved.statusCode, saved.body).toBe(200);
    await sleep(1_500);
    const before = await known();
    const startedAt = Date.now();
    const placed = await api('POST', '/calls/new', bob.user.token, { destination: '2921' });
    expect(placed.statusCode, placed.body).toBe(200);
    const callId = placed.json().data.call_id as string;
    await phones[0].waitForCall(10_000);
    await sleep(2_000);
    await asterisk.cli('channel request hangup all');
    const call = await endedCall(callId, bob.user.token);
    const fresh = await newRecords(before, 1);
    expect(fresh).toHaveLength(1);
    expect(fresh[0].cdr_id).toBe(call.cdr_id);
    expect(fresh[0]).toMatchObject({ type: 'OUTGOING', caller_user_id: bob.user.id, status: 'answered' });
    const receivers = receiversOf(fresh[0]);
    // Bob's own phones (rung through [t…-ring]), then Alice, who was dialled.
    expect(receivers.filter((r) => r.id === bob.user.id)).toHaveLength(2);
    expect(receivers.at(-1)).toMatchObject({ id: alice.user.id, number: '2921', status: 'ANSWERED' });
    expect(receivers.some((r) => /^[0-9a-f]{32}$/.test(r.number) || r.number === 'ring')).toBe(false);
    // The override wins: the times are read in that zone, so they are off by the difference...
    const start = DateTime.fromFormat(String(fresh[0].start_time), 'yyyy-MM-dd HH:mm:ss', { zone: 'utc' }).toMillis();
    expect(Math.abs(start + zoneOffsetMs - startedAt)).toBeLessThan(60_000);
    // ...and the settings say so, naming both offsets.
    expect((await api('GET', '/pbx-engine/settings', admin)).json().data.connection.last_error).toMatch(
      new RegExp(`^The Asterisk host's clock runs at UTC.* but pbx_timezone ${zone.replace('/', '\\/')} is UTC.*Set pbx_timezone`),
    );
    // Back to the host's own offset for the calls that follow.
    await api('PUT', '/pbx-engine/settings', admin, { host: '127.0.0.1', port: asterisk.amiPort, username: asterisk.amiUser, pbx_timezone: null });
    await sleep(1_500);
  }, 60_000);

  it('records a call whose destination never answers (a number out through the trunk, to a carrier that is not there) as one call', async () => {
    const before = await known();
    const placed = await api('POST', '/calls/new', alice.user.token, { destination: '+352621000555' });
    expect(placed.statusCode, placed.body).toBe(200);
    const callId = placed.json().data.call_id as string;
    await phones[0].waitForCall(10_000);
    // The carrier (192.0.2.10, docs/asterisk/pjsip.conf) never answers: the call is given up.
    await sleep(3_000);
    await asterisk.cli('channel request hangup all');
    const call = await endedCall(callId, alice.user.token);
    const fresh = await newRecords(before, 1);
    expect(fresh, JSON.stringify(fresh)).toHaveLength(1);
    expect(fresh[0].cdr_id).toBe(call.cdr_id);
    expect(['missed', 'failed']).toContain(fresh[0].status);
    expect(fresh[0]).toMatchObject({ billsec: 0, type: 'OUTGOING', caller_user_id: alice.user.id });
    const receivers = receiversOf(fresh[0]);
    expect(receivers, JSON.stringify(receivers)).toHaveLength(1);
    expect(receivers[0].number).toBe('+352621000555');
    expect(receivers[0].status).not.toBe('ANSWERED');
  }, 60_000);

  it("records a click-to-call the user's own phone never answers as one missed call (cdr.conf: unanswered = yes)", async () => {
    const before = await known();
    // Dave's phone stops answering anything (SIPp paused), yet stays registered.
    const pid = sippPid(phones[3].port);
    process.kill(pid, 'SIGSTOP');
    let callId: string;
    try {
      const placed = await api('POST', '/calls/new', dave.user.token, { destination: '2921' });
      expect(placed.statusCode, placed.body).toBe(200);
      callId = placed.json().data.call_id as string;
      await sleep(3_000);
      await asterisk.cli('channel request hangup all');
    } finally {
      process.kill(pid, 'SIGCONT');
    }
    const call = await endedCall(callId, dave.user.token);
    expect(call.status).toBe('failed');
    const fresh = await newRecords(before, 1);
    expect(fresh, JSON.stringify(fresh)).toHaveLength(1);
    expect(fresh[0]).toMatchObject({ cdr_id: call.cdr_id, status: 'missed', billsec: 0, caller_user_id: dave.user.id });
    // What rang was Dave's own phone; Alice was never dialled.
    expect(receiversOf(fresh[0])).toMatchObject([{ id: dave.user.id, number: dave.phones[0].username, status: 'MISSED' }]);
    expect(await api('GET', `/cdrs/detail/${call.cdr_id}`, dave.user.token).then((answer) => answer.json().data.receivers.length)).toBe(1);
  }, 60_000);

  it('records a queue call answered by its member (a Local member channel, a name cut at 80 characters) as one call', async () => {
    const before = await known();
    const queue = `${prefix}-queue-${compactId(answeredQueue)}`;
    await asterisk.cli(`channel originate Local/s@${queue} extension listen@pbxapi-test-caller`);
    await phones[0].waitForCall(10_000);
    await sleep(2_000);
    await asterisk.cli('channel request hangup all');
    const fresh = await newRecords(before, 1);
    expect(fresh).toHaveLength(1);
    expect(fresh[0].status).toBe('answered');
    expect(receiversOf(fresh[0])).toMatchObject([{ id: alice.user.id, number: '2921', status: 'ANSWERED', via_type: 'QUEUE', via_id: answeredQueue }]);
  }, 60_000);

  it('records a queue call whose member never answers, rung again every few seconds, as one missed call', async () => {
    const before = await known();
    const queue = `${prefix}-queue-${compactId(silentQueue)}`;
    // Dave's phone stops answering anything (SIPp paused), yet stays registered and reachable for the queue.
    const pid = sippPid(phones[3].port);
    process.kill(pid, 'SIGSTOP');
    try {
      const mark = asterisk.logMark();
      await asterisk.cli(`channel originate Local/s@${queue} extension linger@pbxapi-test-caller`);
      // The caller waits 16 s: the queue rings Dave 5 s, waits 5 s (retry), rings him again.
      await asterisk.waitForLog(/Executing \[linger@pbxapi-test-caller:2\] Hangup\(/, 25_000, mark);
      const rounds =
        asterisk
          .log()
          .slice(mark)
          .match(/Called Local\/[0-9a-z]+@t[0-9a-f]{32}-agents/g) ?? [];
      expect(rounds.length).toBeGreaterThanOrEqual(2);
    } finally {
      process.kill(pid, 'SIGCONT');
    }
    const fresh = await newRecords(before, 1);
    expect(fresh, JSON.stringify(fresh)).toHaveLength(1);
    expect(fresh[0].status).toBe('missed');
    const receivers = receiversOf(fresh[0]);
    expect(receivers.length, JSON.stringify(receivers)).toBeGreaterThanOrEqual(2);
    for (const receiver of receivers)
      expect(receiver).toMatchObject({ id: dave.user.id, number: '2923', status: 'MISSED', via_type: 'QUEUE', via_id: silentQueue });
  }, 60_000);

  it('records a call through the IVR, a choice by DTMF into the queue, as one call', async () => {
    const before = await known();
    const ivr = `${prefix}-ivr-${compactId(String(demo.samples.ivr))}`;
    const mark = asterisk.logMark();
    await asterisk.cli(`channel originate Local/s@${ivr} extension press2@pbxapi-test-caller`);
    await asterisk.waitForLog(new RegExp(`Executing \\[2@${ivr}:1\\]`), 10_000, mark);
    await asterisk.waitForLog(/Executing \[press2@pbxapi-test-caller:4\] Hangup\(/, 15_000, mark);
    const fresh = await newRecords(before, 1);
    expect(fresh).toHaveLength(1);
  }, 60_000);

  it("records a click-to-call through the user's twinning alone (its own leg the Local/…;1 half) as one call", async () => {
    // Carol rings only her mobile: the call's first channel is Local/<mobile>@t…-ring-external-…;1 (78 characters, its marker kept).
    const carol = await person('Carol', '2924', 0);
    const mobile = '+352691222333';
    const twinningId = await createMobileTwinning(t.ctx, carol.user.id, mobile);
    // The carrier answers now: the trunk's contact is a SIPp phone that answers every call (Bob's second one).
    asterisk.writeEtcFile(
      'pjsip.conf',
      asterisk.readEtcFile('pjsip.conf').replace('contact = sip:192.0.2.10:5060', `contact = sip:127.0.0.1:${phones[2].port}`),
    );
    await asterisk.cli('module reload res_pjsip.so');
    await sleep(1_000);
    const before = await known();
    const mark = asterisk.logMark();
    const placed = await api('POST', '/calls/new', carol.user.token, { destination: '2921', targets: { sip_devices: [], twinning: true } });
    expect(placed.statusCode, placed.body).toBe(200);
    const callId = placed.json().data.call_id as string;
    await asterisk.waitForLog(new RegExp(`Local/\\${mobile}@${prefix}-ring-external-[0-9a-f]+;1`), 10_000, mark);
    await phones[0].waitForCall(10_000);
    await sleep(2_000);
    await asterisk.cli('channel request hangup all');
    const call = await endedCall(callId, carol.user.token);
    const fresh = await newRecords(before, 1);
    expect(fresh, JSON.stringify(fresh)).toHaveLength(1);
    expect(fresh[0]).toMatchObject({ cdr_id: call.cdr_id, type: 'OUTGOING', caller_user_id: carol.user.id, status: 'answered' });
    const receivers = receiversOf(fresh[0]);
    expect(receivers, JSON.stringify(receivers)).toMatchObject([
      { id: carol.user.id, number: mobile, status: 'ANSWERED', via_type: 'TWINNING', via_id: twinningId },
      { id: alice.user.id, number: '2921', status: 'ANSWERED' },
    ]);
  }, 60_000);

  it('records a click-to-call to a busy callee as one call, the callee BUSY among its receivers', async () => {
    const erin = await person('Erin', '2925', 1);
    expect((await pushTo(t, admin, asterisk)).status).toBe('done');
    const busy = await answeringPhone({ asterisk, username: erin.phones[0].username, password: erin.phones[0].secret, busy: true });
    try {
      const before = await known();
      const placed = await api('POST', '/calls/new', alice.user.token, { destination: '2925' });
      expect(placed.statusCode, placed.body).toBe(200);
      await phones[0].waitForCall(10_000);
      const deadline = Date.now() + 10_000;
      while (busy.calls === 0 && Date.now() <= deadline) await sleep(100);
      expect(busy.calls).toBe(1);
      // Erin's busy branch is her mailbox (the pushed dialplan): let it answer, then hang up.
      await sleep(2_000);
      await asterisk.cli('channel request hangup all');
      const call = await endedCall(placed.json().data.call_id as string, alice.user.token);
      const fresh = await newRecords(before, 1);
      expect(fresh, JSON.stringify(fresh)).toHaveLength(1);
      expect(fresh[0].cdr_id).toBe(call.cdr_id);
      expect(receiversOf(fresh[0]), fresh[0].receivers).toContainEqual(expect.objectContaining({ id: erin.user.id, number: '2925', status: 'BUSY' }));
    } finally {
      await busy.stop();
    }
  }, 60_000);

  it('stores true UTC from a host whose clock runs in another zone (Asia/Tokyo), pbx_timezone not set', async () => {
    const tokyo = await startAsterisk({ extraDialplan: TEST_CALLERS, hostZone: 'Asia/Tokyo' });
    const moved: AnsweringPhone[] = [];
    try {
      // The demo tenant moves to that host: pushed there, its phones registered there.
      expect((await pushTo(t, admin, tokyo)).status).toBe('done');
      for (const phone of [alice.phones[0], bob.phones[0]])
        moved.push(await answeringPhone({ asterisk: tokyo, username: phone.username, password: phone.secret }));
      const deadline = Date.now() + 15_000;
      while (!(await tokyo.cli('manager show connected')).includes(tokyo.amiUser)) {
        if (Date.now() > deadline) throw new Error('the event listener did not log in');
        await sleep(100);
      }
      const before = await known();
      const startedAt = Date.now();
      const placed = await api('POST', '/calls/new', alice.user.token, { destination: '2922' });
      expect(placed.statusCode, placed.body).toBe(200);
      await moved[0].waitForCall(10_000);
      await moved[1].waitForCall(10_000);
      await sleep(1_500);
      await tokyo.cli('channel request hangup all');
      const call = await endedCall(placed.json().data.call_id as string, alice.user.token);
      const fresh = await newRecords(before, 1);
      expect(fresh).toHaveLength(1);
      expect(fresh[0].cdr_id).toBe(call.cdr_id);
      // cdr_manager wrote Tokyo's wall clock (UTC+9): read at the offset the Cdr shows, it is stored as it happened.
      const start = DateTime.fromFormat(String(fresh[0].start_time), 'yyyy-MM-dd HH:mm:ss', { zone: 'utc' }).toMillis();
      expect(Math.abs(start - startedAt)).toBeLessThan(60_000);
      expect((await api('GET', '/pbx-engine/settings', admin)).json().data.connection.last_error).toBeNull();
    } finally {
      for (const phone of moved) await phone.stop();
      await tokyo.stop();
    }
  }, 90_000);
});
