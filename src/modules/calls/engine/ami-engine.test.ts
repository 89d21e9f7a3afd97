/**
 * The AMI engine against what a real Asterisk 22 sent (issue #20), replayed by the protocol-level
 * test peer: early originate failures, one record per call from its legs, PBX-local times, the
 * connection test's named checks, Logoff after refusals, and failing settings.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { bearer, buildTestApp, type TestApp } from '../../../../test/helpers.js';
import {
  createAdmin,
  createCallerIdentity,
  createMobileTwinning,
  createExtension,
  createSipDevice,
  createTenant,
  createUser,
} from '../../../../test/factories.js';
import { AmiTestPeer } from '../../../../test/ami-test-peer.js';
import { AmiEventListener, cdrIdOf, handleAmiEvent, hostOffsetMinutes, offsetZone, pbxLocalToUtc, zoneMismatch } from './ami/events.js';
import { AmiMessage } from './ami/protocol.js';

const SECRET = 's3cr3t-ami';

describe('the AMI engine against Asterisk exchanges', () => {
  let t: TestApp;
  const peer = new AmiTestPeer();

  beforeAll(async () => {
    await peer.start();
    t = await buildTestApp({ env: { JOB_WORKER: 'false', AMI_ACTION_TIMEOUT_MS: '400', AMI_CONNECT_TIMEOUT_MS: '400', AMI_ORIGINATE_WAIT_MS: '300' } });
  });
  afterAll(async () => {
    await t.close();
    await peer.stop();
  });

  const settings = (token: string, method: 'GET' | 'PUT', payload?: object) =>
    t.app.inject({ method, url: '/api/v1/pbx-engine/settings', headers: bearer(token), ...(payload ? { payload } : {}) });

  /** A PBX on the peer with an AMI user of its own, a user with a SIP device and extension 101. */
  async function pbx(options: { enabled?: boolean; pbx_timezone?: string | null } = {}) {
    const tenant = await createTenant(t.ctx);
    const admin = await createAdmin(t.ctx, tenant);
    const username = `ami-${tenant.pbxId.slice(0, 8)}`;
    peer.users.set(username, SECRET);
    const saved = await settings(admin.token, 'PUT', {
      host: '127.0.0.1',
      port: peer.port,
      username,
      secret: SECRET,
      enabled: options.enabled ?? true,
      ...(options.pbx_timezone !== undefined ? { pbx_timezone: options.pbx_timezone } : {}),
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const user = await createUser(t.ctx, { tenant });
    const device = await createSipDevice(t.ctx, tenant, { user_id: user.id });
    await createExtension(t.ctx, tenant, { number: '101', user_id: user.id });
    const identity = (await createCallerIdentity(t.ctx, tenant, { user_id: user.id })).identity.external_caller_number;
    const call = (payload: object, query = '') => t.app.inject({ method: 'POST', url: `/api/v1/calls/new${query}`, headers: bearer(user.token), payload });
    const getCall = (id: string, token = user.token) => t.app.inject({ method: 'GET', url: `/api/v1/calls/${id}`, headers: bearer(token) });
    const sessions = () => peer.received.filter((m) => m.get('Action')?.toLowerCase() === 'login' && m.get('Username') === username).length;
    return { tenant, admin, user, device, identity, username, call, getCall, sessions };
  }
  const logoffs = () => peer.actions('Logoff').length;

  describe('1. a call Asterisk cannot place', () => {
    it('answers 502 with the reason when OriginateResponse: Failure follows the queued answer, and GET /calls/{id} shows it failed', async () => {
      const { call, getCall, user } = await pbx({ enabled: true });
      peer.behaviour = { ...peer.behaviour, originate: 'fail' };
      try {
        const before = logoffs();
        const response = await call({ destination: '+352621000555' }, '?debugAmiTrace=true');
        expect(response.statusCode, response.body).toBe(502);
        expect(response.json()).toMatchObject({
          status: 'error',
          message: 'The PBX could not place the call: the call failed: the channel could not be created or the PBX gave up on it (OriginateResponse reason 0).',
        });
        const trace = response.json().data.ami_trace.map((e: { message: string }) => e.message.split('\r\n')[0]);
        expect(trace).toEqual(expect.arrayContaining(['Action: Originate', 'Event: OriginateResponse', 'Action: Logoff']));
        // The refused call still says goodbye (7).
        expect(logoffs()).toBe(before + 1);
        const placed = await t.ctx.db.selectFrom('placed_calls').selectAll().where('user_id', '=', user.id).executeTakeFirstOrThrow();
        const read = await getCall(placed.id);
        expect(read.statusCode).toBe(200);
        expect(read.json().data).toMatchObject({
          id: placed.id,
          status: 'failed',
          reason: expect.stringMatching(/could not be created/),
          cdr_id: null,
          ended_at: expect.any(String),
        });
      } finally {
        peer.behaviour = { ...peer.behaviour, originate: 'success' };
      }
    });

    it('logs off after a refused Originate instead of dropping the connection', async () => {
      const { call } = await pbx({ enabled: true });
      peer.behaviour = { ...peer.behaviour, originate: 'error' };
      try {
        const before = logoffs();
        expect((await call({ destination: '102' })).statusCode).toBe(502);
        expect(logoffs()).toBe(before + 1);
      } finally {
        peer.behaviour = { ...peer.behaviour, originate: 'success' };
      }
    });

    it('answers the call id, follows the call to its end and history record, and signs a webhook when it ends', async () => {
      const { call, getCall, user, tenant, admin } = await pbx({ enabled: true });
      await vi.waitFor(() => expect(peer.sockets.size).toBeGreaterThan(0), { timeout: 3000 });
      const response = await call({ destination: '101', webhook_url: 'https://93.184.215.14/calls' });
      expect(response.statusCode, response.body).toBe(200);
      const callId = response.json().data.call_id as string;
      await vi.waitFor(
        async () => {
          const read = await getCall(callId);
          expect(read.json().data).toMatchObject({ status: 'ended', reason: 'Normal Clearing', cdr_id: cdrIdOf(`pbxapi-${callId}`) });
        },
        { timeout: 3000 },
      );
      const read = (await getCall(callId)).json().data;
      expect(read).toMatchObject({ id: callId, user_id: user.id, engine: 'asterisk', destination: '101' });
      // An administrator reads it too; another user of the PBX may not (403), another PBX's admin sees nothing (404).
      expect((await getCall(callId, admin.token)).statusCode).toBe(200);
      const colleague = await createUser(t.ctx, { tenant });
      expect((await getCall(callId, colleague.token)).statusCode).toBe(403);
      expect((await getCall(callId, (await createAdmin(t.ctx)).token)).statusCode).toBe(404);
      expect((await getCall(randomUUID())).statusCode).toBe(404);
      expect((await getCall('not-a-uuid')).statusCode).toBe(422);
      const deliveries = await t.ctx.db.selectFrom('webhook_deliveries').selectAll().where('subject_id', '=', callId).execute();
      expect(deliveries).toHaveLength(1);
      expect(deliveries[0]).toMatchObject({ event: 'call.ended', url: 'https://93.184.215.14/calls', user_id: user.id });
      expect(JSON.parse(deliveries[0].payload)).toMatchObject({ type: 'call.ended', data: { id: callId, status: 'ended' } });
      // 4. Both parties are the tenant's (a user calls extension 101): internal, whatever number it presented.
      const detail = await t.app.inject({ method: 'GET', url: `/api/v1/cdrs/detail/${read.cdr_id}`, headers: bearer(admin.token) });
      expect(detail.json().data).toMatchObject({ is_internal: true, type: 'OUTGOING', caller: { id: user.id } });
    });

    it('refuses a private webhook_url with 422', async () => {
      const { call } = await pbx({ enabled: false });
      const response = await call({ destination: '102', webhook_url: 'http://127.0.0.1:9/hook' });
      expect(response.statusCode).toBe(422);
      expect(response.json().errors).toHaveProperty('webhook_url');
    });
  });

  describe('3. one call, one history record', () => {
    for (const linkedId of [false, true]) {
      it(`merges the Local helper legs into the placed call's record (${linkedId ? 'with' : 'without'} LinkedID)`, async () => {
        const { call, tenant, user, device } = await pbx({ enabled: true });
        await vi.waitFor(() => expect(peer.sockets.size).toBeGreaterThan(0), { timeout: 3000 });
        await createMobileTwinning(t.ctx, user.id);
        peer.behaviour = { ...peer.behaviour, linkedId };
        try {
          const response = await call({ destination: '+352621000999', targets: { twinning: true } });
          expect(response.statusCode, response.body).toBe(200);
          const callId = response.json().data.call_id as string;
          await vi.waitFor(
            async () => {
              const placed = await t.ctx.db.selectFrom('placed_calls').select('cdr_id').where('id', '=', callId).executeTakeFirstOrThrow();
              expect(placed.cdr_id).not.toBeNull();
            },
            { timeout: 3000 },
          );
          const rows = await t.ctx.db.selectFrom('cdrs').selectAll().where('pbx_id', '=', tenant.pbxId).execute();
          expect(rows).toHaveLength(1);
          expect(rows[0]).toMatchObject({ type: 'OUTGOING', caller_user_id: user.id, is_internal: 0 });
          const receivers = JSON.parse(rows[0].receivers) as Array<Record<string, unknown>>;
          const expected = [
            { id: user.id, number: device.username, name: device.name, status: 'ANSWERED', via_type: null },
            ...(linkedId ? [{ id: user.id, number: '+352691222333', name: 'Mobile twinning', via_type: 'TWINNING', via_number: '+352691222333' }] : []),
            { id: null, number: '+352621000999', status: 'ANSWERED' },
          ];
          expect(receivers).toHaveLength(expected.length);
          expected.forEach((leg, index) => expect(receivers[index]).toMatchObject(leg));
          // No helper leg shows up as a call of its own, to the admin or anyone.
          expect(rows.some((row) => row.caller_number === 'ring' || row.type === 'INCOMING')).toBe(false);
        } finally {
          peer.behaviour = { ...peer.behaviour, linkedId: false };
        }
      });
    }
    for (const linkedId of [false, true]) {
      it(`records a call through the twinning alone, whose own leg is the Local/…;1 half (${linkedId ? 'with' : 'without'} LinkedID)`, async () => {
        const { call, tenant, user } = await pbx({ enabled: true });
        await vi.waitFor(() => expect(peer.sockets.size).toBeGreaterThan(0), { timeout: 3000 });
        await createMobileTwinning(t.ctx, user.id);
        peer.behaviour = { ...peer.behaviour, linkedId };
        try {
          const response = await call({ destination: '+352621000998', targets: { sip_devices: [], twinning: true } });
          expect(response.statusCode, response.body).toBe(200);
          const callId = response.json().data.call_id as string;
          const originate = peer.actions('Originate').find((action) => action.get('ActionID') === `pbxapi-${callId}`);
          expect(originate?.get('Channel')).toMatch(/^Local\/\+352691222333@t[0-9a-f]{32}-ring-external$/);
          await vi.waitFor(
            async () => {
              const placed = await t.ctx.db.selectFrom('placed_calls').select('cdr_id').where('id', '=', callId).executeTakeFirstOrThrow();
              expect(placed.cdr_id).not.toBeNull();
            },
            { timeout: 3000 },
          );
          const rows = await t.ctx.db.selectFrom('cdrs').selectAll().where('pbx_id', '=', tenant.pbxId).execute();
          expect(rows).toHaveLength(1);
          expect(rows[0]).toMatchObject({ type: 'OUTGOING', caller_user_id: user.id });
          expect(JSON.parse(rows[0].receivers)).toMatchObject([{ number: '+352621000998', status: 'ANSWERED' }]);
        } finally {
          peer.behaviour = { ...peer.behaviour, linkedId: false };
        }
      });
    }

    it('merges the forks of one Dial (one Cdr each, the same uniqueid) and leaves a helper leg cut at 80 characters out', async () => {
      const { tenant } = await pbx({ enabled: false });
      const prefix = `t${tenant.pbxId.replace(/-/g, '')}`;
      const queue = `${prefix}-queue-${'ab'.repeat(16)}`;
      const leg = (fields: Record<string, string>) =>
        new AmiMessage(
          Object.entries({
            Event: 'Cdr',
            Source: '+352691777888',
            Destination: 's',
            CallerID: '"Client" <+352691777888>',
            StartTime: '2026-07-01 14:29:19',
            AnswerTime: '2026-07-01 14:29:20',
            EndTime: '2026-07-01 14:30:19',
            Duration: '60',
            BillableSeconds: '59',
            Disposition: 'ANSWERED',
            LinkedID: '1782908959.7',
            ...fields,
          }),
        );
      // As Asterisk 22 sent them: the call's channel, then the queue's Local member (its name cut, the ;N gone), then the phones.
      await handleAmiEvent(
        t.ctx,
        tenant,
        leg({
          Channel: `Local/s@${queue}-00000001;2`.slice(0, 80),
          DestinationChannel: `Local/e1@${prefix}-agents-00000002;1`,
          LastApplication: 'Queue',
          LastData: `${queue},,,,60`,
          UniqueID: '1782908959.8',
        }),
      );
      await handleAmiEvent(
        t.ctx,
        tenant,
        leg({ Channel: `Local/e1@${prefix}-agents-00000002;2`, DestinationChannel: 'PJSIP/sipaaa-00000003', UniqueID: '1782908960.10' }),
      );
      await handleAmiEvent(
        t.ctx,
        tenant,
        leg({
          Channel: `Local/e1@${prefix}-agents-00000002;2`,
          DestinationChannel: 'PJSIP/sipbbb-00000004',
          UniqueID: '1782908960.10',
          Disposition: 'NO ANSWER',
          AnswerTime: '',
          BillableSeconds: '0',
        }),
      );
      expect(await t.ctx.db.selectFrom('cdrs').selectAll().where('pbx_id', '=', tenant.pbxId).execute()).toHaveLength(0);
      await handleAmiEvent(
        t.ctx,
        tenant,
        leg({
          Channel: 'PJSIP/pbxapi-trunk-00000000',
          DestinationChannel: `Local/s@${queue}-00000001;1`.slice(0, 80),
          Destination: '+35227123400',
          UniqueID: '1782908959.7',
        }),
      );
      const rows = await t.ctx.db.selectFrom('cdrs').selectAll().where('pbx_id', '=', tenant.pbxId).execute();
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ type: 'INCOMING', caller_number: '+352691777888', status: 'answered' });
      const receivers = JSON.parse(rows[0].receivers) as Array<Record<string, unknown>>;
      expect(receivers.map((r) => [r.number, r.status, r.via_type])).toEqual([
        ['sipaaa', 'ANSWERED', 'QUEUE'],
        ['sipbbb', 'MISSED', 'QUEUE'],
      ]);
      expect(receivers[0].via_id).toBe('abababab-abab-abab-abab-abababababab');
    });
  });

  describe('5. PBX-local times', () => {
    it('converts cdr_manager times from the PBX host zone to UTC, across the spring DST change', () => {
      // Europe/Luxembourg jumps from 02:00 CET to 03:00 CEST on 2026-03-29.
      expect(pbxLocalToUtc('2026-03-29 01:59:30', 'Europe/Luxembourg')).toBe('2026-03-29 00:59:30');
      expect(pbxLocalToUtc('2026-03-29 03:00:30', 'Europe/Luxembourg')).toBe('2026-03-29 01:00:30');
      expect(pbxLocalToUtc('2026-07-01 14:29:19', 'Europe/Luxembourg')).toBe('2026-07-01 12:29:19');
      expect(pbxLocalToUtc('2026-01-15 14:29:19', 'UTC')).toBe('2026-01-15 14:29:19');
    });

    it("stores a call across the DST change in UTC, in the settings' pbx_timezone or else the PBX's", async () => {
      const { tenant, admin } = await pbx({ enabled: false });
      const cdr = (uniqueid: string) =>
        new AmiMessage([
          ['Event', 'Cdr'],
          ['Source', '+352691777888'],
          ['Destination', '101'],
          ['CallerID', '"Client" <+352691777888>'],
          ['Channel', 'PJSIP/trunk-0001'],
          ['DestinationChannel', 'PJSIP/agent-0002'],
          ['StartTime', '2026-03-29 01:59:30'],
          ['AnswerTime', '2026-03-29 03:00:00'],
          ['EndTime', '2026-03-29 03:00:30'],
          ['Duration', '60'],
          ['BillableSeconds', '30'],
          ['Disposition', 'ANSWERED'],
          ['UniqueID', uniqueid],
        ]);
      await handleAmiEvent(t.ctx, tenant, cdr('1774745970.1'));
      const stored = await t.ctx.db.selectFrom('cdrs').selectAll().where('pbx_id', '=', tenant.pbxId).executeTakeFirstOrThrow();
      expect(stored).toMatchObject({ start_time: '2026-03-29 00:59:30', answer_time: '2026-03-29 01:00:00', end_time: '2026-03-29 01:00:30' });
      // A host on UTC whatever the PBX's zone: the times are kept as written.
      const saved = await settings(admin.token, 'PUT', { host: '127.0.0.1', port: peer.port, username: 'admin', pbx_timezone: 'UTC', enabled: false });
      expect(saved.json().data).toMatchObject({ pbx_timezone: 'UTC', pbx_timezone_set: true });
      await handleAmiEvent(t.ctx, tenant, cdr('1774745970.2'));
      const utc = await t.ctx.db.selectFrom('cdrs').selectAll().where('pbx_id', '=', tenant.pbxId).where('start_time', '=', '2026-03-29 01:59:30').execute();
      expect(utc).toHaveLength(1);
      const bad = await settings(admin.token, 'PUT', { host: '127.0.0.1', port: peer.port, username: 'admin', pbx_timezone: 'Mars/Olympus' });
      expect(bad.statusCode).toBe(422);
      expect(bad.json().errors).toHaveProperty('pbx_timezone');
    });
    it("tells when the Asterisk host's clock and pbx_timezone disagree, from a fresh Cdr's end time", () => {
      const now = Date.parse('2026-07-01T12:30:00Z');
      // A host on UTC, a host on Luxembourg summer time, a Cdr written a few seconds ago; a stale one tells nothing.
      expect(hostOffsetMinutes('2026-07-01 12:29:55', now)).toBe(0);
      expect(hostOffsetMinutes('2026-07-01 14:29:55', now)).toBe(120);
      expect(hostOffsetMinutes('2026-07-01 14:20:00', now)).toBeNull();
      expect(hostOffsetMinutes('2026-01-15 14:29:19', now)).toBeNull();
      expect(zoneMismatch(120, 'Europe/Luxembourg', now)).toBeNull();
      expect(zoneMismatch(0, 'Europe/Luxembourg', now)).toBe(
        "The Asterisk host's clock runs at UTC+00:00 but pbx_timezone Europe/Luxembourg is UTC+02:00 now: call times are stored 02:00 off. Set pbx_timezone to the Asterisk host's zone.",
      );
      // While pbx_timezone is not set, a Cdr is read at the offset the host's Cdrs show.
      expect([offsetZone(0), offsetZone(120), offsetZone(-210)]).toEqual(['UTC', 'UTC+2', 'UTC-3:30']);
      expect(pbxLocalToUtc('2026-07-01 14:29:19', offsetZone(120))).toBe('2026-07-01 12:29:19');
      expect(pbxLocalToUtc('2026-07-01 09:00:00', offsetZone(-210))).toBe('2026-07-01 12:30:00');
    });
  });

  describe('6. the connection test checks what the engine needs', () => {
    const test = (token: string) => t.app.inject({ method: 'POST', url: '/api/v1/pbx-engine/settings/test', headers: bearer(token) });
    const summary = (body: { data: { checks: Array<{ name: string; status: string }> } }) => body.data.checks.map((c) => `${c.name}:${c.status}`);

    it('fails with 502 and names the check when the AMI user may not originate', async () => {
      const { admin, username } = await pbx({ enabled: false });
      peer.permissions.set(username, { read: ['call', 'cdr'], write: ['command', 'config', 'system'] });
      const response = await test(admin.token);
      expect(response.statusCode).toBe(502);
      expect(response.json().message).toBe('The AMI user lacks what the engine needs: originate.');
      expect(summary(response.json())).toEqual([
        'connect:passed',
        'login:passed',
        'originate:failed',
        'config:passed',
        'system:passed',
        'read_call:passed',
        'read_cdr:passed',
        'version:passed',
      ]);
    });

    it('fails for a user that may originate but not push the configuration (write = originate,command)', async () => {
      const { admin, username } = await pbx({ enabled: false });
      peer.permissions.set(username, { read: ['call', 'cdr'], write: ['originate', 'command'] });
      const response = await test(admin.token);
      expect(response.statusCode).toBe(502);
      expect(response.json().message).toBe('The AMI user lacks what the engine needs: config, system.');
      const check = (name: string) => response.json().data.checks.find((c: { name: string }) => c.name === name).message;
      expect(check('config')).toMatch(/add `config` to its `write =` line in manager.conf/);
      expect(check('system')).toMatch(/add `system` to its `write =` line in manager.conf/);
    });

    it('fails when the user does not read call or cdr events', async () => {
      const { admin, username } = await pbx({ enabled: false });
      peer.permissions.set(username, { read: ['system'], write: ['originate', 'command', 'config', 'system'] });
      const response = await test(admin.token);
      expect(response.statusCode).toBe(502);
      expect(response.json().message).toBe('The AMI user lacks what the engine needs: read_call, read_cdr.');
      expect(response.json().data.checks.find((c: { name: string }) => c.name === 'read_cdr').message).toMatch(/add `cdr` to its `read =` line/);
    });

    it('passes with unverified read classes when the user may not run CLI commands', async () => {
      const { admin, username } = await pbx({ enabled: false });
      peer.permissions.set(username, { read: ['call', 'cdr'], write: ['originate', 'config', 'system'] });
      const response = await test(admin.token);
      expect(response.statusCode, response.body).toBe(200);
      expect(summary(response.json())).toEqual([
        'connect:passed',
        'login:passed',
        'originate:passed',
        'config:passed',
        'system:passed',
        'read_call:unverified',
        'read_cdr:unverified',
        'version:unverified',
      ]);
      expect(response.json().data.asterisk_version).toBeNull();
    });

    it('names the failed login, and logs off after it', async () => {
      const { admin } = await pbx({ enabled: false });
      await settings(admin.token, 'PUT', { host: '127.0.0.1', port: peer.port, username: 'nobody', secret: 'wrong', enabled: false });
      const before = logoffs();
      const response = await test(admin.token);
      expect(response.statusCode).toBe(502);
      expect(summary(response.json())).toEqual(['connect:passed', 'login:failed']);
      expect(logoffs()).toBe(before + 1);
    });
  });

  describe('7. a listener whose login keeps being refused', () => {
    it('marks the settings failing after the limit, shows it in the settings and /metrics, retries slowly, and starts afresh when they change', async () => {
      const { tenant, admin, username, sessions } = await pbx({ enabled: false });
      peer.users.set(username, 'rotated-elsewhere');
      const listener = new AmiEventListener(
        t.ctx,
        tenant,
        { host: '127.0.0.1', port: peer.port, username, secret: SECRET, context: 'from-internal', prefix: 'tpeer' },
        { backoffBaseMs: 10, backoffMaxMs: 20, loginFailureLimit: 3, failingRetryMs: 60_000 },
      );
      listener.start();
      try {
        await vi.waitFor(() => expect(listener.failing).toBe(true), { timeout: 3000 });
        const attempts = sessions();
        expect(attempts).toBe(3);
        expect(listener.nextDelayMs()).toBe(60_000);
        await new Promise((resolve) => setTimeout(resolve, 150));
        expect(sessions()).toBe(attempts);
        const read = await settings(admin.token, 'GET');
        expect(read.json().data.connection).toEqual({
          state: 'failing',
          login_failures: 3,
          failing_since: expect.any(String),
          last_error: 'The PBX refused the AMI login: Authentication failed.',
        });
        // enabled: false is not counted; switch it on to see it in /metrics.
        await t.ctx.db.updateTable('ami_settings').set({ enabled: 1 }).where('pbx_id', '=', tenant.pbxId).execute();
        const metrics = await t.app.inject({ method: 'GET', url: '/metrics' });
        expect(metrics.body).toMatch(/^pbx_ami_settings_failing [1-9]/m);
        await t.ctx.db.updateTable('ami_settings').set({ enabled: 0 }).where('pbx_id', '=', tenant.pbxId).execute();
      } finally {
        await listener.stop();
      }
      // Saving the settings (a new secret) starts afresh.
      peer.users.set(username, SECRET);
      const saved = await settings(admin.token, 'PUT', { host: '127.0.0.1', port: peer.port, username, secret: SECRET, enabled: false });
      expect(saved.json().data.connection).toEqual({ state: 'ok', login_failures: 0, failing_since: null, last_error: null });
    });
  });
});
