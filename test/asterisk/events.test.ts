/**
 * Live events from a real Asterisk 22 (#37): the app listens to AMI (the event hub, AMI_EVENTS on)
 * with the AMI user of docs/asterisk/manager.conf, whose `system` read class brings ContactStatus.
 * A SIPp phone registering is `device.registered`; a call placed through the API with it, answered
 * on its phone and at the destination, then hung up, is call.placed, ringing, answered and ended
 * (with its record), in that order, once each, on open Server-Sent Events streams: the
 * administrator's and the caller's.
 */
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createAdmin, createExtension, createSipDevice, createTenant, createUser, type TestTenant } from '../factories.js';
import { bearer, buildTestApp, type TestApp } from '../helpers.js';
import { openSse, type SseClient } from '../event-stream-clients.js';
import { asteriskSuite, sleep, startAsterisk, type AsteriskInstance } from './harness.js';
import { answeringPhone, type AnsweringPhone } from './sipp.js';
import { asteriskApi, pushTo } from './tenant.js';

interface Envelope {
  id: string;
  kind: string;
  subject: { type: string; id: string };
  data: Record<string, unknown>;
}

asteriskSuite('live events from a real Asterisk', () => {
  let asterisk: AsteriskInstance;
  let t: TestApp;
  let base: string;
  let tenant: TestTenant;
  let admin: string;
  const phones: AnsweringPhone[] = [];
  const streams: SseClient[] = [];
  const api = asteriskApi(() => t);

  /** A user with an extension and one SIP device (UDP, a known secret). */
  async function person(first: string, number: string) {
    const user = await createUser(t.ctx, { tenant, fields: { first_name: first, last_name: 'Tester' } });
    const extension = await createExtension(t.ctx, tenant, { number, user_id: user.id });
    const device = await createSipDevice(t.ctx, tenant, { user_id: user.id, extension_id: extension.id });
    const secret = `events-secret-${number}`;
    const changed = await api('PATCH', `/sip-devices/${device.id}`, admin, { secret, transport: 'udp' });
    expect(changed.statusCode, changed.body).toBe(200);
    return { user, device: { id: device.id, username: device.username, secret } };
  }
  let alice: Awaited<ReturnType<typeof person>>;
  let bob: Awaited<ReturnType<typeof person>>;

  /** The envelopes a stream received, in order. */
  const envelopes = (stream: SseClient) => stream.data<Envelope>().filter((envelope) => envelope?.kind);

  beforeAll(async () => {
    asterisk = await startAsterisk();
    t = await buildTestApp({ env: { JOB_WORKER: 'false', AMI_EVENTS: 'true' } });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}/api/v1`;
    tenant = await createTenant(t.ctx);
    admin = (await createAdmin(t.ctx, tenant)).token;
    alice = await person('Alice', '2931');
    bob = await person('Bob', '2932');
    const pushed = await pushTo(t, admin, asterisk);
    expect(pushed.status, JSON.stringify(pushed)).toBe('done');
    // The event listener is logged in before anything happens on the PBX.
    const deadline = Date.now() + 15_000;
    while (!(await asterisk.cli('manager show connected')).includes(asterisk.amiUser)) {
      if (Date.now() > deadline) throw new Error('the event listener did not log in');
      await sleep(100);
    }
  }, 120_000);
  afterAll(async () => {
    for (const stream of streams) stream.close();
    for (const phone of phones) await phone.stop();
    await t?.close();
    await asterisk?.stop();
  });

  it('streams a phone registering, then a call placed with it: placed, ringing, answered, ended, in order, once each', async () => {
    const open = async (token: string) => {
      const stream = await openSse(`${base}/events/stream?kinds=call.*,device.*`, bearer(token));
      expect(stream.status, stream.body).toBe(200);
      streams.push(stream);
      return stream;
    };
    const adminStream = await open(admin);
    const aliceStream = await open(alice.user.token);

    phones.push(await answeringPhone({ asterisk, username: alice.device.username, password: alice.device.secret }));
    phones.push(await answeringPhone({ asterisk, username: bob.device.username, password: bob.device.secret }));
    const registered = (stream: SseClient, deviceId: string) =>
      envelopes(stream).some((envelope) => envelope.kind === 'device.registered' && envelope.subject.id === deviceId);
    await adminStream.until((stream) => registered(stream, alice.device.id) && registered(stream, bob.device.id), 15_000);

    const placed = await api('POST', '/calls/new', alice.user.token, { destination: '2932' });
    expect(placed.statusCode, placed.body).toBe(200);
    const callId = placed.json().data.call_id as string;
    await phones[0].waitForCall(10_000);
    await phones[1].waitForCall(10_000);
    await sleep(2_000);
    await asterisk.cli('channel request hangup all');
    const ended = (stream: SseClient) => envelopes(stream).some((envelope) => envelope.kind === 'call.ended' && envelope.subject.id === callId);
    await adminStream.until(ended, 15_000);
    await aliceStream.until(ended, 5_000);
    // Anything that would come twice comes at once: give it a moment.
    await sleep(1_000);

    const call = (await api('GET', `/calls/${callId}`, alice.user.token)).json().data;
    expect(call).toMatchObject({ status: 'ended', engine: 'asterisk' });
    for (const stream of [adminStream, aliceStream]) {
      const seen = envelopes(stream);
      const ids = seen.map((envelope) => Number(envelope.id));
      expect(ids, 'ids increase').toEqual([...ids].sort((x, y) => x - y));
      const ofCall = seen.filter((envelope) => envelope.subject.id === callId);
      expect(ofCall.map((envelope) => envelope.kind)).toEqual(['call.placed', 'call.ringing', 'call.answered', 'call.ended']);
      expect(ofCall[1].data.receivers).toEqual([{ type: 'sip_device', id: alice.device.id, name: expect.any(String) }]);
      expect(ofCall[3].data).toEqual(call);
      const presence = seen.filter((envelope) => envelope.subject.id === alice.device.id);
      expect(presence.map((envelope) => envelope.kind)).toEqual(['device.registered']);
      expect(presence[0].data).toMatchObject({ user_id: alice.user.id, pbx_status: expect.stringMatching(/^(NonQualified|Reachable)$/) });
      expect(Number(presence[0].id)).toBeLessThan(Number(ofCall[0].id));
    }
    // The record the event names is in the call history.
    const record = await api('GET', `/cdrs/detail/${call.cdr_id}`, alice.user.token);
    expect(record.statusCode, record.body).toBe(200);
  }, 90_000);
});
