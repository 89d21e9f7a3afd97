import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { bearer, useTestApp } from '../../../../test/helpers.js';
import { createExtension, createSipDevice, createTenant, createUser, type TestTenant } from '../../../../test/factories.js';
import { failAfterNextPublish, storedEvents, WRITE_AFTER_PUBLISH_FAILED } from '../../../../test/live-events.js';
import { cdrIdOf, handleAmiEvent } from '../engine/ami/events.js';
import { ContactPresence } from '../engine/ami/presence.js';
import { AmiMessage } from '../engine/ami/protocol.js';
import { recordPlacedCall } from './placed-calls.js';

const message = (fields: Record<string, string>) => new AmiMessage(Object.entries(fields));

describe('live events of placed calls and device presence', () => {
  const t = useTestApp({ env: { JOB_WORKER: 'false' } });

  const place = (token: string, payload: object) => t.app.inject({ method: 'POST', url: '/api/v1/calls/new', headers: bearer(token), payload });
  const statusOf = async (id: string) => (await t.ctx.db.selectFrom('placed_calls').select('status').where('id', '=', id).executeTakeFirst())?.status;

  it('tells a simulated call’s story to its caller: placed, ringing on its device, answered, ended with its record', async () => {
    const user = await createUser(t.ctx);
    const device = await createSipDevice(t.ctx, user.tenant, { user_id: user.id });
    const placed = await place(user.token, { destination: '+352621123456' });
    expect(placed.statusCode, placed.body).toBe(200);
    const callId = placed.json().data.call_id as string;

    const early = await storedEvents(t.ctx, user.pbxId, 'call.');
    expect(early.map((event) => [event.kind, event.data])).toMatchObject([
      ['call.placed', { id: callId, user_id: user.id, status: 'queued', destination: '+352621123456', cdr_id: null }],
      ['call.ringing', { id: callId, status: 'ringing', receivers: [{ type: 'sip_device', id: device.id, name: device.name }] }],
    ]);

    t.clock.advance(t.ctx.config.simulatedCdrDelaySeconds + 1);
    expect(await t.app.jobs.drain()).toBe(1);
    const events = await storedEvents(t.ctx, user.pbxId, 'call.');
    expect(events.map((event) => event.kind)).toEqual(['call.placed', 'call.ringing', 'call.answered', 'call.ended']);
    expect(events.map((event) => event.seq)).toEqual([...events.map((event) => event.seq)].sort((a, b) => a - b));
    for (const event of events) {
      expect(event.subject).toEqual({ type: 'call', id: callId });
      expect(event.audience).toEqual({ scope: 'users', userIds: [user.id] });
    }
    // call.ended names the record, and the call reads as the event says.
    const read = (await t.app.inject({ method: 'GET', url: `/api/v1/calls/${callId}`, headers: bearer(user.token) })).json().data;
    expect(events[3].data).toEqual(read);
    const record = await t.app.inject({ method: 'GET', url: `/api/v1/cdrs/detail/${read.cdr_id}`, headers: bearer(user.token) });
    expect(record.statusCode).toBe(200);
  });

  it('publishes nothing for a call whose recording fails after the publish: neither the call nor its event exist', async () => {
    const user = await createUser(t.ctx);
    await createSipDevice(t.ctx, user.tenant, { user_id: user.id });
    const spy = failAfterNextPublish(t.ctx);
    try {
      const refused = await place(user.token, { destination: '102' });
      expect(refused.statusCode).toBe(500);
    } finally {
      spy.mockRestore();
    }
    expect(await t.ctx.db.selectFrom('placed_calls').select('id').where('user_id', '=', user.id).execute()).toEqual([]);
    expect(await storedEvents(t.ctx, user.pbxId)).toEqual([]);
  });

  describe('from Asterisk’s AMI events', () => {
    /** A call recorded as the API places it on an Asterisk engine (call.placed), as the listener then finds it. */
    async function asteriskCall(tenant: TestTenant, userId: string, endpoints = [{ type: 'sip_device', id: randomUUID(), name: 'Desk', address: 'sipdesk' }]) {
      const id = randomUUID();
      const now = t.clock.now().toISOString();
      await recordPlacedCall(t.ctx, {
        id,
        pbx_id: tenant.pbxId,
        user_id: userId,
        engine: 'asterisk',
        destination: '+352621000111',
        caller_identity_id: null,
        action_id: `pbxapi-${id}`,
        uniqueid: `pbxapi-${id}`,
        status: 'queued',
        endpoints: JSON.stringify({ ringing: endpoints, skipped: [] }),
        reason: null,
        webhook_url: null,
        created_at: now,
        updated_at: now,
      });
      return { id, uniqueid: `pbxapi-${id}` };
    }

    it('moves the call on Newchannel, OriginateResponse and Hangup, once each, and ends it once the Cdr is in', async () => {
      const user = await createUser(t.ctx);
      const call = await asteriskCall(user.tenant, user.id);
      const apply = (fields: Record<string, string>) => handleAmiEvent(t.ctx, user.tenant, message(fields));
      await apply({ Event: 'Newchannel', Channel: 'PJSIP/sipdesk-00000001', Uniqueid: call.uniqueid });
      await apply({ Event: 'Newchannel', Channel: 'PJSIP/sipdesk-00000001', Uniqueid: call.uniqueid });
      await apply({ Event: 'OriginateResponse', ActionID: call.uniqueid, Response: 'Success', Reason: '4' });
      await apply({ Event: 'Hangup', Channel: 'PJSIP/sipdesk-00000001', Uniqueid: call.uniqueid, Cause: '16' });
      expect(await statusOf(call.id)).toBe('ended');
      // Hung up, but not in the history yet: call.ended waits for the record.
      expect((await storedEvents(t.ctx, user.pbxId)).map((event) => event.kind)).toEqual(['call.placed', 'call.ringing', 'call.answered']);

      await apply({
        Event: 'Cdr',
        Source: '+35227123400',
        Destination: '+352621000111',
        CallerID: '"Desk" <+35227123400>',
        Channel: 'PJSIP/sipdesk-00000001',
        DestinationChannel: 'PJSIP/pbxapi-trunk-00000002',
        StartTime: '2026-07-01 14:29:19',
        AnswerTime: '2026-07-01 14:29:22',
        EndTime: '2026-07-01 14:30:19',
        Duration: '60',
        BillableSeconds: '57',
        Disposition: 'ANSWERED',
        UniqueID: call.uniqueid,
        LinkedID: call.uniqueid,
      });
      const events = await storedEvents(t.ctx, user.pbxId);
      expect(events.map((event) => [event.kind, (event.data as { status: string }).status])).toEqual([
        ['call.placed', 'queued'],
        ['call.ringing', 'ringing'],
        ['call.answered', 'answered'],
        ['call.ended', 'ended'],
      ]);
      expect(events[1].data).toMatchObject({ receivers: [{ type: 'sip_device', name: 'Desk' }] });
      expect(events[2].data).toMatchObject({ reason: expect.any(String) });
      expect(events[3].data).toMatchObject({ cdr_id: cdrIdOf(call.uniqueid), reason: 'Normal Clearing' });
      expect(events.every((event) => event.audience.scope === 'users' && event.audience.userIds[0] === user.id)).toBe(true);
    });

    it('fails a call the caller’s endpoints never answered, with the reason', async () => {
      const user = await createUser(t.ctx);
      const call = await asteriskCall(user.tenant, user.id);
      await handleAmiEvent(t.ctx, user.tenant, message({ Event: 'Hangup', Uniqueid: call.uniqueid, Cause: '17', 'Cause-txt': 'User busy' }));
      const [, failed] = await storedEvents(t.ctx, user.pbxId);
      expect(failed).toMatchObject({ kind: 'call.failed', subject: { type: 'call', id: call.id }, data: { status: 'failed', reason: 'User busy' } });
    });

    it('leaves the call as it was, without an event, when its change fails after the publish', async () => {
      const user = await createUser(t.ctx);
      const call = await asteriskCall(user.tenant, user.id);
      const spy = failAfterNextPublish(t.ctx);
      try {
        await expect(handleAmiEvent(t.ctx, user.tenant, message({ Event: 'Newchannel', Uniqueid: call.uniqueid }))).rejects.toThrow(WRITE_AFTER_PUBLISH_FAILED);
      } finally {
        spy.mockRestore();
      }
      expect(await statusOf(call.id)).toBe('queued');
      expect((await storedEvents(t.ctx, user.pbxId)).map((event) => event.kind)).toEqual(['call.placed']);
    });
  });

  describe('device presence from ContactStatus', () => {
    it('tells the tenant when a device registers and when it is gone, not each check in between', async () => {
      const tenant = await createTenant(t.ctx);
      const user = await createUser(t.ctx, { tenant });
      const extension = await createExtension(t.ctx, tenant, { user_id: user.id });
      const device = await createSipDevice(t.ctx, tenant, { user_id: user.id, extension_id: extension.id });
      const other = await createTenant(t.ctx);
      const stranger = await createSipDevice(t.ctx, other);
      const presence = new ContactPresence();
      const status = (aor: string, contactStatus: string, uri = `sip:${aor}@127.0.0.1:5070`, rtt = '0') =>
        handleAmiEvent(
          t.ctx,
          tenant,
          message({ Event: 'ContactStatus', URI: uri, ContactStatus: contactStatus, AOR: aor, EndpointName: aor, RoundtripUsec: rtt }),
          {
            presence,
          },
        );

      await status(device.username, 'NonQualified');
      await status(device.username, 'Reachable', undefined, '12500');
      // A new contact reported before the old one's removal: still registered throughout.
      await status(device.username, 'NonQualified', `sip:${device.username}@127.0.0.1:5080`);
      await status(device.username, 'Removed');
      await status(device.username, 'Unknown', `sip:${device.username}@127.0.0.1:5080`);
      await status(device.username, 'Unreachable', `sip:${device.username}@127.0.0.1:5080`);
      // Another tenant's device on the same host, and an AOR that is no device (a WebRTC client).
      await status(stranger.username, 'NonQualified');
      await status('webrtc-someone', 'Reachable');

      const events = await storedEvents(t.ctx, tenant.pbxId);
      expect(events.map((event) => [event.kind, event.subject, event.audience])).toEqual([
        ['device.registered', { type: 'sip_device', id: device.id }, { scope: 'tenant' }],
        ['device.unregistered', { type: 'sip_device', id: device.id }, { scope: 'tenant' }],
      ]);
      expect(events[0].data).toEqual({ name: device.name, user_id: user.id, extension_id: extension.id, pbx_status: 'NonQualified', roundtrip_ms: null });
      expect(events[1].data).toMatchObject({ pbx_status: 'Unreachable', roundtrip_ms: null });
      expect(await storedEvents(t.ctx, other.pbxId)).toEqual([]);
    });

    it('measures the round trip of a reachable check', async () => {
      const tenant = await createTenant(t.ctx);
      const device = await createSipDevice(t.ctx, tenant);
      await handleAmiEvent(
        t.ctx,
        tenant,
        message({ Event: 'ContactStatus', URI: `sip:${device.username}@10.0.0.5`, ContactStatus: 'Reachable', AOR: device.username, RoundtripUsec: '12500' }),
      );
      const [event] = await storedEvents(t.ctx, tenant.pbxId);
      expect(event).toMatchObject({ kind: 'device.registered', data: { user_id: null, pbx_status: 'Reachable', roundtrip_ms: 12.5 } });
    });
  });
});
