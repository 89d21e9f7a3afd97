import { tenantPrefix } from '../../../platform/pbx-names.js';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { bearer, buildTestApp, type TestApp } from '../../../../test/helpers.js';
import {
  createAdmin,
  createCallerIdentity,
  createExtension,
  createKey,
  createMobileTwinning,
  createSipDevice,
  createTenant,
  createUser,
  type TestTenant,
  type TestUser,
} from '../../../../test/factories.js';
import { AmiTestPeer } from '../../../../test/ami-test-peer.js';
import { AmiEventListener, cdrIdOf, handleAmiEvent } from './ami/events.js';
import { AmiMessage } from './ami/protocol.js';
import { AmiEventHub } from './ami/event-hub.js';
import { saveAmiSettings } from './pbx-engine.queries.js';
import { acquireLease } from '../../../platform/leases.js';

const SECRET = 's3cr3t-ami';

describe('PBX engine settings and calls over AMI', () => {
  let t: TestApp;
  const peer = new AmiTestPeer();
  let port = 0;

  beforeAll(async () => {
    port = await peer.start();
    t = await buildTestApp({ env: { JOB_WORKER: 'false', AMI_ACTION_TIMEOUT_MS: '400', AMI_CONNECT_TIMEOUT_MS: '400', AMI_ALLOWED_HOSTS: '*.example.com' } });
  });
  afterAll(async () => {
    await t.close();
    await peer.stop();
  });

  const settings = (token: string, method: 'GET' | 'PUT' | 'DELETE', payload?: object) =>
    t.app.inject({ method, url: '/api/v1/pbx-engine/settings', headers: bearer(token), ...(payload ? { payload } : {}) });
  const testConnection = (token: string, query = '') =>
    t.app.inject({ method: 'POST', url: `/api/v1/pbx-engine/settings/test${query}`, headers: bearer(token) });

  async function tenantOnPeer(overrides: Record<string, unknown> = {}) {
    const tenant = await createTenant(t.ctx);
    const admin = await createAdmin(t.ctx, tenant);
    const saved = await settings(admin.token, 'PUT', { host: '127.0.0.1', port, username: 'admin', secret: SECRET, ...overrides });
    expect(saved.statusCode).toBe(200);
    return { tenant, admin };
  }

  describe('settings', () => {
    it('stores the settings with the secret sealed and never returned', async () => {
      const tenant = await createTenant(t.ctx);
      const admin = await createAdmin(t.ctx, tenant);
      expect((await settings(admin.token, 'GET')).statusCode).toBe(404);
      const saved = await settings(admin.token, 'PUT', { host: 'pbx.example.com', username: 'api', secret: 'top-secret', enabled: false });
      expect(saved.statusCode).toBe(200);
      expect(saved.json()).toEqual({
        data: {
          host: 'pbx.example.com',
          port: 5038,
          username: 'api',
          secret_set: true,
          enabled: false,
          // Click-to-call dials in the tenant's own context, which every push defines.
          context: tenantPrefix(tenant.pbxId),
          pbx_timezone: 'Europe/Luxembourg',
          pbx_timezone_set: false,
          connection: { state: 'ok', login_failures: 0, failing_since: null, last_error: null },
          created_at: expect.any(String),
          updated_at: expect.any(String),
        },
      });
      expect(saved.body).not.toContain('top-secret');
      const row = await t.ctx.db.selectFrom('ami_settings').selectAll().where('pbx_id', '=', tenant.pbxId).executeTakeFirstOrThrow();
      expect(row.secret_sealed).not.toContain('top-secret');
      expect(t.ctx.secrets.open(row.secret_sealed)).toBe('top-secret');

      // An update without a secret keeps the stored one.
      const updated = await settings(admin.token, 'PUT', { host: 'pbx2.example.com', port: 5039, username: 'api', context: 'outbound' });
      expect(updated.json().data).toMatchObject({ host: 'pbx2.example.com', port: 5039, enabled: true, context: 'outbound' });
      const after = await t.ctx.db.selectFrom('ami_settings').selectAll().where('pbx_id', '=', tenant.pbxId).executeTakeFirstOrThrow();
      expect(t.ctx.secrets.open(after.secret_sealed)).toBe('top-secret');
      expect((await settings(admin.token, 'GET')).json().data.host).toBe('pbx2.example.com');

      expect((await settings(admin.token, 'DELETE')).statusCode).toBe(204);
      expect((await settings(admin.token, 'DELETE')).statusCode).toBe(404);
    });

    it('validates with 422 and requires a secret the first time', async () => {
      const admin = await createAdmin(t.ctx);
      const noSecret = await settings(admin.token, 'PUT', { host: 'pbx.example.com', username: 'api' });
      expect(noSecret.statusCode).toBe(422);
      expect(noSecret.json().errors).toHaveProperty('secret');
      for (const payload of [
        { host: 'pbx.example.com', username: 'api', secret: 'x', port: 70000 },
        { host: 'bad host\r\n', username: 'api', secret: 'x' },
        { username: 'api', secret: 'x' },
        { host: 'h', username: 'u', secret: 'line\r\nbreak' },
      ]) {
        expect((await settings(admin.token, 'PUT', payload)).statusCode).toBe(422);
      }
    });

    it("is for the PBX's administrators only, and each PBX sees its own", async () => {
      const { tenant } = await tenantOnPeer({ enabled: false });
      const user = await createUser(t.ctx, { tenant });
      expect((await settings(user.token, 'GET')).statusCode).toBe(403);
      expect((await settings(await createKey(t.ctx, tenant, 'pbx'), 'GET')).statusCode).toBe(403);
      expect((await testConnection(user.token)).statusCode).toBe(403);
      const otherAdmin = await createAdmin(t.ctx);
      expect((await settings(otherAdmin.token, 'GET')).statusCode).toBe(404);
      expect((await testConnection(otherAdmin.token)).statusCode).toBe(404);
    });
  });

  describe('connection test', () => {
    it('logs in and reads the version, with the exchange masked on request', async () => {
      const { admin } = await tenantOnPeer({ enabled: false });
      const plain = await testConnection(admin.token);
      expect(plain.statusCode).toBe(200);
      expect(plain.json()).toMatchObject({ status: 'success', data: { ami_version: '9.0.0', asterisk_version: expect.stringMatching(/^Asterisk 20\.5\.0/) } });
      expect(plain.json().data.checks.map((check: { name: string; status: string }) => `${check.name}:${check.status}`)).toEqual([
        'connect:passed',
        'login:passed',
        'originate:passed',
        'config:passed',
        'system:passed',
        'read_call:passed',
        'read_cdr:passed',
        'version:passed',
      ]);
      expect(plain.json().data).not.toHaveProperty('ami_trace');

      peer.behaviour = { ...peer.behaviour, legacyCommand: true };
      const traced = await testConnection(admin.token, '?debugAmiTrace=true');
      peer.behaviour = { ...peer.behaviour, legacyCommand: false };
      expect(traced.json().data.asterisk_version).toMatch(/^Asterisk 18\.20\.0/);
      const trace = traced.json().data.ami_trace as Array<{ direction: string; message: string }>;
      expect(trace[0]).toMatchObject({ direction: 'received', message: 'Asterisk Call Manager/9.0.0' });
      expect(trace.find((e) => e.message.startsWith('Action: Login'))?.message).toContain('Secret: ********');
      expect(traced.body).not.toContain(SECRET);
      expect(trace.some((e) => e.message.includes('Action: Logoff'))).toBe(true);
    });

    it('answers {status: error} with 502 for a refused login or unreachable PBX and 504 for a silent one', async () => {
      const { admin } = await tenantOnPeer({ secret: 'wrong-secret', enabled: false });
      const refused = await testConnection(admin.token, '?debugAmiTrace=true');
      expect(refused.statusCode).toBe(502);
      expect(refused.json()).toMatchObject({ status: 'error', message: expect.stringMatching(/refused the AMI login/) });
      expect(refused.body).not.toContain('wrong-secret');
      expect(refused.json().data.ami_trace.length).toBeGreaterThan(1);

      await settings(admin.token, 'PUT', { host: '127.0.0.1', port: 1, username: 'admin', secret: SECRET, enabled: false });
      const unreachable = await testConnection(admin.token);
      expect(unreachable.statusCode).toBe(502);
      expect(unreachable.json()).toEqual({
        status: 'error',
        message: `The PBX at 127.0.0.1:1 is unreachable: it refused the connection.`,
        data: { checks: [{ name: 'connect', status: 'failed', message: 'The PBX at 127.0.0.1:1 is unreachable: it refused the connection.' }] },
      });

      await settings(admin.token, 'PUT', { host: '127.0.0.1', port, username: 'admin', secret: SECRET, enabled: false });
      peer.behaviour = { ...peer.behaviour, noBanner: true };
      const notAmi = await testConnection(admin.token);
      peer.behaviour = { ...peer.behaviour, noBanner: false };
      expect(notAmi.statusCode).toBe(502);
    });
  });

  describe('POST /calls/new over AMI', () => {
    let tenant: TestTenant;
    let user: TestUser;
    let device: Awaited<ReturnType<typeof createSipDevice>>;
    let identityNumber = '';

    beforeAll(async () => {
      ({ tenant } = await tenantOnPeer());
      user = await createUser(t.ctx, { tenant });
      device = await createSipDevice(t.ctx, tenant, { user_id: user.id });
      identityNumber = (await createCallerIdentity(t.ctx, tenant, { user_id: user.id })).identity.external_caller_number;
      await createExtension(t.ctx, tenant, { number: '101', user_id: user.id });
    });

    const call = (payload: object, query = '', headers: Record<string, string> = {}) =>
      t.app.inject({ method: 'POST', url: `/api/v1/calls/new${query}`, headers: { ...bearer(user.token), ...headers }, payload });

    it('sends Originate with an ActionID and returns the masked exchange', async () => {
      const before = peer.actions('Originate').length;
      const response = await call({ destination: '+352621000777' }, '?debugAmiTrace=true&autoAnswer=true');
      expect(response.statusCode).toBe(200);
      const { data } = response.json();
      expect(data).toMatchObject({ engine: 'asterisk', engine_message: 'Originate successfully queued', ringing: [{ type: 'sip_device', id: device.id }] });
      const originate = peer.actions('Originate')[before];
      expect(originate.get('ActionID')).toBe(`pbxapi-${data.call_id}`);
      expect(originate.get('ChannelId')).toBe(`pbxapi-${data.call_id}`);
      expect(originate.get('Channel')).toBe(`PJSIP/${device.username}`);
      expect(originate.get('Exten')).toBe('+352621000777');
      expect(originate.get('Context')).toBe(tenantPrefix(user.pbxId));
      expect(originate.get('CallerID')).toContain(`<${identityNumber}>`);
      expect(originate.all('Variable')).toEqual([`PBXAPI_CALL_ID=${data.call_id}`, 'PBXAPI_AUTO_ANSWER=1']);
      const trace = data.ami_trace as Array<{ direction: string; message: string }>;
      expect(trace.map((e) => e.message.split('\r\n')[0])).toEqual(
        expect.arrayContaining(['Asterisk Call Manager/9.0.0', 'Action: Login', 'Action: Originate', 'Response: Success', 'Action: Logoff']),
      );
      expect(response.body).not.toContain(SECRET);
      expect(response.body).toContain('Secret: ********');
    });

    it('rings several endpoints through the ring context', async () => {
      await createMobileTwinning(t.ctx, user.id);
      const before = peer.actions('Originate').length;
      const response = await call({ destination: '102', targets: { twinning: true, teams: true } }, '?anonymous=false');
      expect(response.json().data.skipped_targets).toEqual([{ target: 'teams', id: null, reason: expect.any(String) }]);
      const originate = peer.actions('Originate')[before];
      const prefix = tenantPrefix(user.pbxId);
      expect(originate.get('Channel')).toBe(`Local/ring@${prefix}-ring`);
      expect(originate.all('Variable')).toContain(`PBXAPI_RING=PJSIP/${device.username}&Local/+352691222333@${prefix}-ring-external`);
    });

    it('answers 502 {status: error} when the PBX refuses the call or drops the connection, 504 when it is silent', async () => {
      peer.behaviour = { ...peer.behaviour, originate: 'error' };
      const refused = await call({ destination: '102' });
      expect(refused.statusCode).toBe(502);
      expect(refused.json()).toEqual({ status: 'error', message: 'The PBX refused the call: Extension does not exist.' });

      peer.behaviour = { ...peer.behaviour, originate: 'disconnect' };
      const dropped = await call({ destination: '102' });
      expect(dropped.statusCode).toBe(502);
      expect(dropped.json().status).toBe('error');

      peer.behaviour = { ...peer.behaviour, originate: 'silent' };
      const silent = await call({ destination: '102' }, '?debugAmiTrace=true');
      expect(silent.statusCode).toBe(504);
      expect(silent.json()).toMatchObject({ status: 'error', message: expect.stringMatching(/did not answer the Originate action/) });
      expect(silent.json().data.ami_trace.at(-1).message).toContain('Action: Originate');

      // A time-out may have placed the call: the retry with the same key replays it and sends nothing.
      const key = { 'idempotency-key': randomUUID() };
      const first = await call({ destination: '103' }, '', key);
      expect(first.statusCode).toBe(504);
      const count = peer.actions('Originate').length;
      peer.behaviour = { ...peer.behaviour, originate: 'success' };
      const retry = await call({ destination: '103' }, '', key);
      expect(retry.statusCode).toBe(504);
      expect(retry.headers['idempotent-replayed']).toBe('true');
      expect(peer.actions('Originate').length).toBe(count);

      // A refusal placed nothing: its key is free again.
      peer.behaviour = { ...peer.behaviour, originate: 'error' };
      const refusedKey = { 'idempotency-key': randomUUID() };
      expect((await call({ destination: '104' }, '', refusedKey)).statusCode).toBe(502);
      peer.behaviour = { ...peer.behaviour, originate: 'success' };
      expect((await call({ destination: '104' }, '', refusedKey)).statusCode).toBe(200);
    });

    it('listens to the call events: OriginateResponse, Newchannel, Hangup and the Cdr into the history', async () => {
      // The hub connected a listener when the settings were saved.
      await vi.waitFor(() => expect(peer.sockets.size).toBeGreaterThan(0), { timeout: 3000 });
      const response = await call({ destination: '+352621000888' });
      const callId = response.json().data.call_id;
      const cdrId = cdrIdOf(`pbxapi-${callId}`);
      const admin = await createAdmin(t.ctx, tenant);
      await vi.waitFor(
        async () => {
          const detail = await t.app.inject({ method: 'GET', url: `/api/v1/cdrs/detail/${cdrId}`, headers: bearer(admin.token) });
          expect(detail.statusCode).toBe(200);
        },
        { timeout: 3000 },
      );
      const userDetail = await t.app.inject({ method: 'GET', url: `/api/v1/cdrs/detail/${cdrId}`, headers: bearer(user.token) });
      expect(userDetail.statusCode, userDetail.body).toBe(200);
      const detail = userDetail.json().data;
      expect(detail).toMatchObject({
        type: 'OUTGOING',
        status: 'answered',
        // The peer writes Luxembourg local time (CET), as cdr_manager on a host in the PBX's zone does.
        start_time: '2026-01-15 08:00:00',
        answer_time: '2026-01-15 08:00:07',
        end_time: '2026-01-15 08:01:07',
        duration: 67,
        billsec: 60,
        caller: { id: user.id, number: identityNumber },
        receivers: [{ status: 'ANSWERED', number: '+352621000888' }],
      });
      await vi.waitFor(
        async () => {
          const placed = await t.ctx.db.selectFrom('placed_calls').selectAll().where('id', '=', callId).executeTakeFirstOrThrow();
          expect(placed).toMatchObject({ status: 'ended', reason: 'Normal Clearing', uniqueid: `pbxapi-${callId}` });
        },
        { timeout: 3000 },
      );
    });
  });

  it('turns a Cdr event of an incoming call into a history record once, naming the extension user', async () => {
    const tenant = await createTenant(t.ctx);
    const agent = await createUser(t.ctx, { tenant });
    await createExtension(t.ctx, tenant, { number: '205', user_id: agent.id });
    const event = new AmiMessage([
      ['Event', 'Cdr'],
      ['Source', '+352691777888'],
      ['Destination', '205'],
      ['CallerID', '"Client Corp" <+352691777888>'],
      ['Channel', 'PJSIP/trunk-0001'],
      ['DestinationChannel', 'PJSIP/agent-0002'],
      ['StartTime', '2026-01-15 10:00:00'],
      ['AnswerTime', ''],
      ['EndTime', '2026-01-15 10:00:20'],
      ['Duration', '20'],
      ['BillableSeconds', '0'],
      ['Disposition', 'NO ANSWER'],
      ['UniqueID', '1768471200.7'],
    ]);
    await handleAmiEvent(t.ctx, tenant, event);
    await handleAmiEvent(t.ctx, tenant, event);
    const rows = await t.ctx.db.selectFrom('cdrs').selectAll().where('pbx_id', '=', tenant.pbxId).execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      type: 'INCOMING',
      status: 'missed',
      caller_name: 'Client Corp',
      caller_number: '+352691777888',
      answer_time: null,
      source: 'ami',
    });
    expect(Number(rows[0].cdr_id)).toBe(1768471200000007);
    expect(JSON.parse(rows[0].receivers)[0]).toMatchObject({ id: agent.id, status: 'MISSED', number: '205' });
    // An event without times is ignored rather than stored half-empty.
    await handleAmiEvent(
      t.ctx,
      tenant,
      new AmiMessage([
        ['Event', 'Cdr'],
        ['UniqueID', '1768471200.8'],
      ]),
    );
    expect(await t.ctx.db.selectFrom('cdrs').select('cdr_id').where('pbx_id', '=', tenant.pbxId).execute()).toHaveLength(1);
  });

  it('reconnects the event listener with exponential back-off', async () => {
    const tenant = await createTenant(t.ctx);
    const listener = new AmiEventListener(
      t.ctx,
      tenant,
      { host: '127.0.0.1', port, username: 'admin', secret: SECRET, context: 'from-internal', prefix: 'tpeer' },
      { backoffBaseMs: 20, backoffMaxMs: 80, loginFailureLimit: 1000 },
    );
    listener.start();
    await vi.waitFor(() => expect(listener.connections).toBe(1), { timeout: 2000 });
    peer.dropAll();
    await vi.waitFor(() => expect(listener.connections).toBe(2), { timeout: 2000 });
    // While the PBX refuses the login, the delay doubles up to its cap.
    peer.users.set('admin', 'rotated');
    peer.dropAll();
    await vi.waitFor(() => expect(listener.failures).toBeGreaterThanOrEqual(3), { timeout: 3000 });
    expect(listener.nextDelayMs()).toBe(80);
    peer.users.set('admin', SECRET);
    await vi.waitFor(() => expect(listener.connections).toBe(3), { timeout: 3000 });
    expect(listener.failures).toBe(0);
    expect(listener.nextDelayMs()).toBe(20);
    await listener.stop();
  });
});

describe('AMI hosts the allow-list does not admit', () => {
  let t: TestApp;
  const peer = new AmiTestPeer();

  beforeAll(async () => {
    await peer.start();
    // As in production: loopback not admitted, only the operator's networks and names.
    t = await buildTestApp({
      env: { JOB_WORKER: 'false', AMI_EVENTS: 'false', AMI_ALLOWED_HOSTS: '10.20.0.0/16,*.pbx.example.net', AMI_ALLOW_LOOPBACK: 'false' },
    });
  });
  afterAll(async () => {
    await t.close();
    await peer.stop();
  });

  const settings = (token: string, method: 'GET' | 'PUT', payload?: object) =>
    t.app.inject({ method, url: '/api/v1/pbx-engine/settings', headers: bearer(token), ...(payload ? { payload } : {}) });
  const testConnection = (token: string) => t.app.inject({ method: 'POST', url: '/api/v1/pbx-engine/settings/test', headers: bearer(token) });

  /** Settings stored before the allow-list was narrowed: pointing at the local peer, which is loopback. */
  async function storedOnPeer(enabled: boolean) {
    const tenant = await createTenant(t.ctx);
    const now = t.clock.now().toISOString();
    await saveAmiSettings(t.ctx.db, {
      pbx_id: tenant.pbxId,
      host: '127.0.0.1',
      port: peer.port,
      username: 'admin',
      secret_sealed: t.ctx.secrets.seal(SECRET),
      enabled: enabled ? 1 : 0,
      created_at: now,
      updated_at: now,
    });
    return tenant;
  }

  it('refuses to save a host outside the allow-list with a 422 on host, before any connection', async () => {
    const admin = await createAdmin(t.ctx);
    const before = peer.accepted;
    for (const host of [
      '127.0.0.1',
      'localhost',
      '[::1]',
      '::ffff:127.0.0.1',
      '192.168.1.10',
      '10.21.0.1',
      '169.254.169.254',
      'pbx.example.net',
      'evil.example.org',
    ]) {
      const refused = await settings(admin.token, 'PUT', { host, port: peer.port, username: 'admin', secret: SECRET });
      expect(refused.statusCode, host).toBe(422);
      expect(refused.json(), host).toEqual({ message: expect.stringContaining(host), errors: { host: [expect.stringContaining(host)] } });
      expect(refused.body).not.toContain(SECRET);
    }
    expect(peer.accepted).toBe(before);
    expect((await settings(admin.token, 'GET')).statusCode).toBe(404);

    for (const host of ['10.20.3.4', 'east.pbx.example.net']) {
      const saved = await settings(admin.token, 'PUT', { host, username: 'admin', secret: SECRET, enabled: false });
      expect(saved.statusCode, host).toBe(200);
      expect(saved.json().data.host).toBe(host);
    }
  });

  it('no longer tells open from closed ports: the test answers 422 for a refused host and connects nowhere', async () => {
    const admin = await createAdmin(t.ctx);
    const closedPort = await settings(admin.token, 'PUT', { host: '127.0.0.1', port: 1, username: 'admin', secret: SECRET });
    const openPort = await settings(admin.token, 'PUT', { host: '127.0.0.1', port: peer.port, username: 'admin', secret: SECRET });
    expect([closedPort.statusCode, openPort.statusCode]).toEqual([422, 422]);
    expect(closedPort.json().errors.host).toEqual(openPort.json().errors.host);

    const stored = await storedOnPeer(false);
    const storedAdmin = await createAdmin(t.ctx, stored);
    const before = peer.accepted;
    const tested = await testConnection(storedAdmin.token);
    expect(tested.statusCode).toBe(422);
    expect(tested.json()).toEqual({
      message: 'The host 127.0.0.1 is a loopback address, which this server does not admit as an AMI host.',
      errors: { host: ['The host 127.0.0.1 is a loopback address, which this server does not admit as an AMI host.'] },
    });
    expect(peer.accepted).toBe(before);
  });

  it('places no call through stored settings the allow-list no longer admits: 503 {status: error}', async () => {
    const tenant = await storedOnPeer(true);
    const user = await createUser(t.ctx, { tenant });
    await createSipDevice(t.ctx, tenant, { user_id: user.id });
    const before = peer.accepted;
    const response = await t.app.inject({ method: 'POST', url: '/api/v1/calls/new', headers: bearer(user.token), payload: { destination: '+352621000999' } });
    expect(response.statusCode).toBe(503);
    expect(response.json()).toEqual({ status: 'error', message: 'The host 127.0.0.1 is a loopback address, which this server does not admit as an AMI host.' });
    expect(peer.accepted).toBe(before);
    expect(peer.actions('Originate')).toEqual([]);
  });

  it('skips such settings in the event hub and logs why, once per settings version', async () => {
    const tenant = await storedOnPeer(true);
    const warnings: Array<{ obj: object; msg: string }> = [];
    const hub = new AmiEventHub(t.ctx, { leaseSeconds: 30, log: { warn: (obj, msg) => warnings.push({ obj, msg }) } });
    try {
      const before = peer.accepted;
      await hub.reconcile();
      await hub.reconcile();
      expect(hub.listening()).toEqual([]);
      expect(peer.accepted).toBe(before);
      const mine = warnings.filter(({ obj }) => (obj as { pbx_id?: string }).pbx_id === tenant.pbxId);
      expect(mine).toEqual([
        {
          obj: { pbx_id: tenant.pbxId, reason: '127.0.0.1 (127.0.0.1) is loopback' },
          msg: 'AMI event listener skipped: its host is not admitted by AMI_ALLOWED_HOSTS',
        },
      ]);
      expect(await t.ctx.db.selectFrom('leases').selectAll().where('name', '=', `ami-events:${tenant.pbxId}`).execute()).toEqual([]);
    } finally {
      await hub.stop();
    }
  });
});

describe('AMI event listeners across instances', () => {
  let t: TestApp;
  const peer = new AmiTestPeer();
  const log = { warn: () => undefined };
  const hubs: AmiEventHub[] = [];
  const hub = () => {
    const created = new AmiEventHub(t.ctx, { leaseSeconds: 30, log, listener: { backoffBaseMs: 20, backoffMaxMs: 80 } });
    hubs.push(created);
    return created;
  };

  beforeAll(async () => {
    await peer.start();
    // The app's own hub stays off: the test plays several instances sharing one database.
    t = await buildTestApp({ env: { JOB_WORKER: 'false', AMI_EVENTS: 'false' } });
  });
  afterAll(async () => {
    for (const created of hubs) await created.stop();
    await t.close();
    await peer.stop();
  });

  /** A PBX on the peer with an AMI user of its own, so each test counts the logins of its PBX only. */
  async function pbxOnPeer(enabled = true) {
    const tenant = await createTenant(t.ctx);
    const username = `ami-${tenant.pbxId.slice(0, 8)}`;
    peer.users.set(username, SECRET);
    const now = t.clock.now().toISOString();
    await saveAmiSettings(t.ctx.db, {
      pbx_id: tenant.pbxId,
      host: '127.0.0.1',
      port: peer.port,
      username,
      secret_sealed: t.ctx.secrets.seal(SECRET),
      enabled: enabled ? 1 : 0,
      created_at: now,
      updated_at: now,
    });
    return { ...tenant, username, logins: () => peer.actions('login').filter((m) => m.get('Username') === username).length };
  }
  // Each test's PBX is switched off at its end, so the hubs of later tests leave it alone.
  const switchOff = (tenant: { pbxId: string }) => t.ctx.db.updateTable('ami_settings').set({ enabled: 0 }).where('pbx_id', '=', tenant.pbxId).execute();

  it('listens to each PBX from exactly one instance, and another takes over when it stops', async () => {
    const tenant = await pbxOnPeer();
    const [a, b] = [hub(), hub()];
    await a.reconcile();
    await b.reconcile();
    await a.reconcile();
    expect(a.listening()).toEqual([tenant.pbxId]);
    expect(b.listening()).toEqual([]);
    await vi.waitFor(() => expect(tenant.logins()).toBe(1), { timeout: 2000 });

    // A stopping instance gives its leases up: the next round of another one picks the PBX up.
    await a.stop();
    await b.reconcile();
    expect(b.listening()).toEqual([tenant.pbxId]);
    await vi.waitFor(() => expect(tenant.logins()).toBe(2), { timeout: 2000 });
    await b.stop();
    await switchOff(tenant);
  });

  it('takes over the PBXs of an instance that died once its lease lapses', async () => {
    const tenant = await pbxOnPeer();
    const [dead, alive] = [hub(), hub()];
    await dead.reconcile();
    expect(dead.listening()).toEqual([tenant.pbxId]);
    // `dead` renews no more; before the lease lapses nobody else listens.
    t.clock.advance(29);
    await alive.reconcile();
    expect(alive.listening()).toEqual([]);
    t.clock.advance(2);
    await alive.reconcile();
    expect(alive.listening()).toEqual([tenant.pbxId]);
    // If the dead instance comes back, its next round finds the lease taken and stops its listener.
    await dead.reconcile();
    expect(dead.listening()).toEqual([]);
    await alive.stop();
    await switchOff(tenant);
  });

  it('follows settings saved through any instance: new, changed, disabled', async () => {
    const tenant = await pbxOnPeer(false);
    const [a, b] = [hub(), hub()];
    await a.reconcile();
    expect(a.listening()).toEqual([]);
    // Enabled elsewhere (another instance saved it): picked up on the next round.
    const enable = async (enabled: number, username = tenant.username) => {
      t.clock.advance(1);
      await t.ctx.db
        .updateTable('ami_settings')
        .set({ enabled, username, updated_at: t.clock.now().toISOString() })
        .where('pbx_id', '=', tenant.pbxId)
        .execute();
    };
    await enable(1);
    await a.reconcile();
    await b.reconcile();
    expect(a.listening()).toEqual([tenant.pbxId]);
    expect(b.listening()).toEqual([]);
    await vi.waitFor(() => expect(tenant.logins()).toBe(1), { timeout: 2000 });
    // Changed settings restart the listener with them: an unknown user is refused, and retried.
    await enable(1, 'someone-else');
    await a.reconcile();
    await vi.waitFor(() => expect(peer.actions('login').filter((m) => m.get('Username') === 'someone-else').length).toBeGreaterThanOrEqual(2), {
      timeout: 2000,
    });
    expect(tenant.logins()).toBe(1);
    await enable(1);
    await a.reconcile();
    await vi.waitFor(() => expect(tenant.logins()).toBe(2), { timeout: 2000 });
    // Disabled: the listener stops and the lease is given up.
    await enable(0);
    await a.reconcile();
    expect(a.listening()).toEqual([]);
    expect(await t.ctx.db.selectFrom('leases').selectAll().where('name', '=', `ami-events:${tenant.pbxId}`).execute()).toEqual([]);
  });

  it('keeps listening to the other PBXs when the settings of one cannot be used', async () => {
    const broken = await pbxOnPeer();
    await t.ctx.db.updateTable('ami_settings').set({ secret_sealed: 'not-a-sealed-secret' }).where('pbx_id', '=', broken.pbxId).execute();
    const healthy = await pbxOnPeer();
    const warnings: unknown[] = [];
    const instance = new AmiEventHub(t.ctx, { leaseSeconds: 30, log: { warn: (obj) => warnings.push(obj) } });
    hubs.push(instance);
    await instance.reconcile();
    expect(instance.listening()).toEqual([healthy.pbxId]);
    expect(warnings).toEqual([expect.objectContaining({ pbx_id: broken.pbxId })]);
    await vi.waitFor(() => expect(healthy.logins()).toBe(1), { timeout: 2000 });
    await instance.stop();
    await switchOff(broken);
    await switchOff(healthy);
  });

  it('grants a free lease to exactly one of several instances racing for it', async () => {
    const name = `race-${randomUUID()}`;
    const now = t.clock.now().toISOString();
    const until = new Date(t.clock.nowMs() + 30_000).toISOString();
    const granted = await Promise.all(['i1', 'i2', 'i3', 'i4'].map((holder) => acquireLease(t.ctx.db, name, holder, now, until)));
    expect(granted.filter(Boolean)).toHaveLength(1);
  });
});
