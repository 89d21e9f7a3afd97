import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { bearer, useTestApp } from '../../../../test/helpers.js';
import {
  createAdmin,
  createCallerIdentity,
  createExtension,
  createKey,
  createSipDevice,
  createTenant,
  createUser,
  type TestTenant,
} from '../../../../test/factories.js';
import { insertTwinning } from '../../directory/twinnings/twinnings.queries.js';
import { saveWebrtc } from '../../directory/webrtc/webrtc.queries.js';
import { matchesSchema } from '../cdrs/cdrs.fixtures.js';
import { CallDetailRecord } from '../cdrs/cdrs.schemas.js';
import { NewCallResponse } from './calls.schemas.js';
import { issueUserToken } from '../../../platform/auth/tokens.js';

describe('POST /calls/new on the simulated engine', () => {
  let tenant: TestTenant;

  const t = useTestApp({ env: { JOB_WORKER: 'false' } });
  beforeAll(async () => {
    tenant = await createTenant(t.ctx);
  });

  const call = (token: string, payload: unknown, query = '', headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'POST', url: `/api/v1/calls/new${query}`, headers: { ...bearer(token), ...headers }, payload: payload as object });

  /** A user with one enabled SIP device. */
  async function caller(fields: Record<string, unknown> = {}) {
    const user = await createUser(t.ctx, { tenant, fields });
    const device = await createSipDevice(t.ctx, tenant, { user_id: user.id });
    return { user, device };
  }

  async function twinning(userId: string, fields: { type: 'mobile' | 'teams'; status?: 'enabled' | 'disabled'; phone_number?: string | null }) {
    const now = new Date().toISOString();
    await insertTwinning(t.ctx.db, {
      id: randomUUID(),
      user_id: userId,
      status: fields.status ?? 'enabled',
      phone_number: fields.phone_number === undefined ? '+352691000001' : fields.phone_number,
      delay: 0,
      sync_source: 'manual',
      type: fields.type,
      dial_strategy: 'gsm_only',
      fmc_enabled: 0,
      backup_phone_number: null,
      created_at: now,
      updated_at: now,
    });
  }

  it('dials a number pasted with spaces, dashes and parentheses as digits, and refuses letters', async () => {
    // A tenant of its own, so the call record it produces stays out of the other tests' history.
    const user = await createUser(t.ctx);
    await createSipDevice(t.ctx, user.tenant, { user_id: user.id });
    const response = await call(user.token, { destination: '+352 (621) 12-34.56' });
    expect(response.statusCode).toBe(200);
    expect(response.json().data.destination).toBe('+352621123456');
    const letters = await call(user.token, { destination: 'call mum' });
    expect(letters.statusCode).toBe(422);
    expect(letters.json().errors).toHaveProperty('destination');
    // Let the simulated engine record this call now, so the next test's job count starts clean.
    t.clock.advance(t.ctx.config.simulatedCdrDelaySeconds + 1);
    expect(await t.app.jobs.drain()).toBe(1);
  });

  it('places a call with only a destination: default identity, all own devices, and the record appears in the history', async () => {
    const { user, device } = await caller();
    const shared = await createCallerIdentity(t.ctx, tenant);
    const own = await createCallerIdentity(t.ctx, tenant, { user_id: user.id });
    await t.ctx.db.updateTable('caller_identities').set({ is_default: 1 }).where('id', 'in', [shared.identity.id, own.identity.id]).execute();
    const response = await call(user.token, { destination: '+352621123456' });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(matchesSchema(NewCallResponse, body)).toBe(true);
    expect(body).toMatchObject({
      status: 'success',
      data: {
        engine: 'simulated',
        destination: '+352621123456',
        caller_identity: { id: own.identity.id, number: own.identity.external_caller_number },
        anonymous: false,
        auto_answer: false,
        force_dial_back: false,
        ringing: [{ type: 'sip_device', id: device.id, name: device.name }],
        skipped_targets: [],
      },
    });
    expect(body.data).not.toHaveProperty('ami_trace');

    // Nothing yet; a few seconds later the simulated PBX has recorded the call.
    const before = await t.app.inject({ method: 'GET', url: '/api/v1/cdrs', headers: bearer(user.token) });
    expect(before.json().data).toEqual([]);
    t.clock.advance(t.ctx.config.simulatedCdrDelaySeconds + 1);
    expect(await t.app.jobs.drain()).toBe(1);
    const history = await t.app.inject({ method: 'GET', url: '/api/v1/cdrs', headers: bearer(user.token) });
    const [entry] = history.json().data;
    expect(entry).toMatchObject({ type: 'OUTGOING', caller: { id: user.id, number: own.identity.external_caller_number }, is_internal: false });
    expect(entry.receivers.map((leg: { number: string }) => leg.number)).toEqual([device.username, '+352621123456']);
    const detail = await t.app.inject({ method: 'GET', url: `/api/v1/cdrs/detail/${entry.id}`, headers: bearer(user.token) });
    expect(matchesSchema(CallDetailRecord, detail.json().data)).toBe(true);
    expect(detail.json().data.call_flow[0]).toMatchObject({ color: 'info', text: 'Call placed through the API' });
    expect(detail.json().data.call_flow.length).toBeGreaterThanOrEqual(5);
    const placed = await t.ctx.db.selectFrom('placed_calls').selectAll().where('id', '=', body.data.call_id).executeTakeFirstOrThrow();
    expect(placed.status).toBe('ended');
    // GET /calls/{id} names the history record the simulated engine wrote.
    const read = await t.app.inject({ method: 'GET', url: `/api/v1/calls/${body.data.call_id}`, headers: bearer(user.token) });
    expect(read.json().data).toMatchObject({ id: body.data.call_id, engine: 'simulated', status: 'ended', cdr_id: entry.id, ended_at: expect.any(String) });
  });

  it('falls back to a shared default identity, and calls an internal extension as an internal call', async () => {
    const { user } = await caller();
    const callee = await createUser(t.ctx, { tenant });
    const extension = await createExtension(t.ctx, tenant, { number: '4711', user_id: callee.id });
    const sharedTenant = tenant;
    const shared = await createCallerIdentity(t.ctx, sharedTenant);
    await t.ctx.db.updateTable('caller_identities').set({ is_default: 0 }).where('pbx_id', '=', tenant.pbxId).execute();
    await t.ctx.db.updateTable('caller_identities').set({ is_default: 1 }).where('id', '=', shared.identity.id).execute();
    const response = await call(user.token, { destination: extension.number });
    expect(response.json().data.caller_identity.id).toBe(shared.identity.id);
    t.clock.advance(60);
    await t.app.jobs.drain();
    const history = await t.app.inject({
      method: 'GET',
      url: `/api/v1/cdrs?filter[user_id]=${callee.id}`,
      headers: bearer((await createAdmin(t.ctx, tenant)).token),
    });
    const entry = history.json().data[0];
    expect(entry.is_internal).toBe(true);
    expect(entry.receivers.at(-1)).toMatchObject({ id: callee.id, number: '4711' });
  });

  it('accepts only caller identities the user may present (422 otherwise)', async () => {
    const { user } = await caller();
    const colleague = await createUser(t.ctx, { tenant });
    const theirs = await createCallerIdentity(t.ctx, tenant, { user_id: colleague.id });
    const foreign = await createCallerIdentity(t.ctx, await createTenant(t.ctx));
    const deleted = await createCallerIdentity(t.ctx, tenant, { user_id: user.id });
    await t.ctx.db.updateTable('caller_identities').set({ deleted_at: new Date().toISOString() }).where('id', '=', deleted.identity.id).execute();
    for (const id of [theirs.identity.id, foreign.identity.id, deleted.identity.id, randomUUID()]) {
      const response = await call(user.token, { destination: '102', caller_identity: id });
      expect(response.statusCode).toBe(422);
      expect(response.json().errors).toHaveProperty('caller_identity');
    }
    const mine = await createCallerIdentity(t.ctx, tenant, { user_id: user.id });
    const ok = await call(user.token, { destination: '102', caller_identity: mine.identity.id });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().data.caller_identity.id).toBe(mine.identity.id);
  });

  it('rings only the SIP devices asked for, which must be the user own (422 otherwise)', async () => {
    const { user, device } = await caller();
    const second = await createSipDevice(t.ctx, tenant, { user_id: user.id });
    const disabled = await createSipDevice(t.ctx, tenant, { user_id: user.id });
    await t.ctx.db.updateTable('sip_devices').set({ enabled: 0 }).where('id', '=', disabled.id).execute();
    const colleagues = await createSipDevice(t.ctx, tenant, { user_id: (await createUser(t.ctx, { tenant })).id });
    const foreign = await createSipDevice(t.ctx, await createTenant(t.ctx));

    const all = await call(user.token, { destination: '102', targets: { sip_devices: null } });
    expect(
      all
        .json()
        .data.ringing.map((e: { id: string }) => e.id)
        .sort(),
    ).toEqual([device.id, second.id].sort());
    const chosen = await call(user.token, { destination: '102', targets: { sip_devices: [second.id, disabled.id] } });
    expect(chosen.json().data.ringing.map((e: { id: string }) => e.id)).toEqual([second.id]);
    expect(chosen.json().data.skipped_targets).toEqual([{ target: 'sip_device', id: disabled.id, reason: 'The SIP device is disabled.' }]);
    for (const id of [colleagues.id, foreign.id, 'nope']) {
      const refused = await call(user.token, { destination: '102', targets: { sip_devices: [device.id, id] } });
      expect(refused.statusCode).toBe(422);
      expect(refused.json().errors).toHaveProperty(['targets.sip_devices.1']);
    }
  });

  it('rings WebRTC, twinning and teams only when configured, skipping the others while the rest ring', async () => {
    const { user, device } = await caller();
    const targets = { webrtc: true, twinning: true, teams: true };
    const skippedAll = await call(user.token, { destination: '102', targets });
    expect(skippedAll.statusCode).toBe(200);
    expect(skippedAll.json().data.ringing).toEqual([{ type: 'sip_device', id: device.id, name: device.name }]);
    expect(skippedAll.json().data.skipped_targets.map((s: { target: string }) => s.target)).toEqual(['webrtc', 'twinning', 'teams']);

    // A disabled mobile twinning, or one without a number, does not ring; nor does a disabled teams one.
    await twinning(user.id, { type: 'mobile', status: 'disabled' });
    await twinning(user.id, { type: 'mobile', phone_number: null });
    await twinning(user.id, { type: 'teams', status: 'disabled', phone_number: null });
    const stillSkipped = await call(user.token, { destination: '102', targets });
    expect(stillSkipped.json().data.skipped_targets.map((s: { target: string }) => s.target)).toEqual(['webrtc', 'twinning', 'teams']);

    const now = new Date().toISOString();
    await saveWebrtc(t.ctx.db, {
      user_id: user.id,
      pbx_id: tenant.pbxId,
      hostname: 'webrtc.example',
      port: 443,
      username: 'webrtc-user',
      password_sealed: t.ctx.secrets.seal('pw'),
      voicemail_pin_sealed: null,
      call_pickup_restrictions: 'no',
      created_at: now,
      updated_at: now,
    });
    await twinning(user.id, { type: 'mobile', phone_number: '+352691555000' });
    await twinning(user.id, { type: 'teams', phone_number: null });
    const ringing = await call(user.token, { destination: '102', targets });
    expect(ringing.json().data.ringing.map((e: { type: string }) => e.type)).toEqual(['sip_device', 'webrtc', 'twinning', 'teams']);
    expect(ringing.json().data.skipped_targets).toEqual([]);

    // Flags left false ring nothing extra.
    const plain = await call(user.token, { destination: '102', targets: { webrtc: false } });
    expect(plain.json().data.ringing.map((e: { type: string }) => e.type)).toEqual(['sip_device']);
  });

  it('refuses with 422 when nothing of the user can ring', async () => {
    const user = await createUser(t.ctx, { tenant });
    const response = await call(user.token, { destination: '102', targets: { webrtc: true } });
    expect(response.statusCode).toBe(422);
    expect(response.json().errors).toHaveProperty('targets');
    expect(response.json().skipped_targets).toEqual([{ target: 'webrtc', id: null, reason: 'No WebRTC account is configured for you.' }]);
  });

  it('answers 403 without telephony, and for anonymous calls unless allowed', async () => {
    const { user: noTelephony } = await caller({ allow_telephony: 0 });
    const refused = await call(noTelephony.token, { destination: '102' });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ message: 'Telephony is not allowed for this user.' });

    const { user } = await caller();
    const anonymousRefused = await call(user.token, { destination: '102' }, '?anonymous=true');
    expect(anonymousRefused.statusCode).toBe(403);
    expect(anonymousRefused.json().message).toMatch(/Anonymous/);

    const { user: allowed } = await caller({ allow_anonymous_calls: 1 });
    await createCallerIdentity(t.ctx, tenant, { user_id: allowed.id });
    const anonymous = await call(allowed.token, { destination: '+352621000000' }, '?anonymous=true&autoAnswer=true&forceDialBack=true');
    expect(anonymous.statusCode).toBe(200);
    expect(anonymous.json().data).toMatchObject({ anonymous: true, caller_identity: null, auto_answer: true, force_dial_back: true });
    t.clock.advance(60);
    await t.app.jobs.drain();
    const history = await t.app.inject({ method: 'GET', url: '/api/v1/cdrs', headers: bearer(allowed.token) });
    expect(history.json().data[0].caller.number).toBe('anonymous');
  });

  it('returns the simulated AMI exchange with debugAmiTrace', async () => {
    const { user, device } = await caller();
    const response = await call(user.token, { destination: '102' }, '?debugAmiTrace=true');
    const trace = response.json().data.ami_trace;
    expect(trace).toHaveLength(2);
    expect(trace[0]).toMatchObject({ direction: 'sent' });
    expect(trace[0].message).toContain('Action: Originate');
    expect(trace[0].message).toContain(`Channel: PJSIP/${device.username}`);
    expect(trace[0].message).toContain('Exten: 102');
    expect(trace[1].message).toContain('Response: Success');
    // The flags take 1/0 as well, as PHP and form encoders send them.
    const asDigits = await call(user.token, { destination: '102' }, '?debugAmiTrace=1&autoAnswer=0');
    expect(asDigits.statusCode, asDigits.body).toBe(200);
    expect(asDigits.json().data.ami_trace).toHaveLength(2);
    expect(asDigits.json().data.auto_answer).toBe(false);
    const untraced = await call(user.token, { destination: '102' }, '?debugAmiTrace=0');
    expect(untraced.json().data).not.toHaveProperty('ami_trace');
  });

  it('validates the body and query with 422', async () => {
    const { user } = await caller();
    for (const [payload, query, field] of [
      [{}, '', 'destination'],
      [{ destination: 'call me maybe' }, '', 'destination'],
      [{ destination: '102', caller_identity: 'not-a-uuid' }, '', 'caller_identity'],
      [{ destination: '102', targets: { sip_devices: 'all' } }, '', 'targets.sip_devices'],
      [{ destination: '102', surprise: true }, '', 'surprise'],
      [{ destination: '102' }, '?anonymous=perhaps', 'anonymous'],
    ] as const) {
      const response = await call(user.token, payload, query);
      expect(response.statusCode, JSON.stringify(payload)).toBe(422);
      expect(response.json().errors).toHaveProperty([field]);
    }
  });

  it('accepts user tokens only', async () => {
    const key = await createKey(t.ctx, tenant, 'integration', ['call-history']);
    expect((await call(key, { destination: '102' })).statusCode).toBe(403);
    expect((await call(await createKey(t.ctx, tenant, 'pbx'), { destination: '102' })).statusCode).toBe(403);
    const anonymous = await t.app.inject({ method: 'POST', url: '/api/v1/calls/new', payload: { destination: '102' } });
    expect(anonymous.statusCode).toBe(401);
  });

  describe('Idempotency-Key', () => {
    it('replays the first answer for 24 hours and places no second call', async () => {
      const { user } = await caller();
      const key = { 'idempotency-key': `retry-${randomUUID()}` };
      const first = await call(user.token, { destination: '+352621999000', targets: { webrtc: true } }, '?autoAnswer=true', key);
      expect(first.statusCode).toBe(200);
      expect(first.headers['idempotent-replayed']).toBeUndefined();
      // Same request, keys in another order: the same answer, replayed.
      const again = await call(user.token, { targets: { webrtc: true }, destination: '+352621999000' }, '?autoAnswer=true', key);
      expect(again.statusCode).toBe(200);
      expect(again.headers['idempotent-replayed']).toBe('true');
      expect(again.json()).toEqual(first.json());
      const placed = await t.ctx.db.selectFrom('placed_calls').select('id').where('user_id', '=', user.id).execute();
      expect(placed).toHaveLength(1);
      const jobs = await t.ctx.db.selectFrom('jobs').select('id').where('kind', '=', 'calls.simulated_cdr').where('payload', 'like', `%${user.id}%`).execute();
      expect(jobs).toHaveLength(1);

      const otherBody = await call(user.token, { destination: '+352621999001' }, '?autoAnswer=true', key);
      expect(otherBody.statusCode).toBe(422);
      expect(otherBody.json().errors).toHaveProperty('Idempotency-Key');
      const otherFlags = await call(user.token, { destination: '+352621999000', targets: { webrtc: true } }, '', key);
      expect(otherFlags.statusCode).toBe(422);

      // Another user's identical key is its own.
      const { user: other } = await caller();
      expect(
        (await call(other.token, { destination: '+352621999000', targets: { webrtc: true } }, '?autoAnswer=true', key)).headers['idempotent-replayed'],
      ).toBeUndefined();

      t.clock.advance(24 * 3600 + 1);
      // The test token lives an hour: a fresh one for the day after.
      const token = await issueUserToken(t.ctx.db, t.ctx.clock, { id: user.id, pbx_id: tenant.pbxId }, { name: 'test', ttlSeconds: 3600 });
      const later = await call(token, { destination: '+352621999000', targets: { webrtc: true } }, '?autoAnswer=true', key);
      expect(later.statusCode).toBe(200);
      expect(later.headers['idempotent-replayed']).toBeUndefined();
      expect(later.json().data.call_id).not.toBe(first.json().data.call_id);
    });

    it('does not keep the key of a refused request, so a corrected retry places the call', async () => {
      const user = await createUser(t.ctx, { tenant });
      const key = { 'idempotency-key': `fix-${randomUUID()}` };
      expect((await call(user.token, { destination: '102' }, '', key)).statusCode).toBe(422);
      await createSipDevice(t.ctx, tenant, { user_id: user.id });
      expect((await call(user.token, { destination: '102' }, '', key)).statusCode).toBe(200);
    });

    it('refuses a malformed key with 422', async () => {
      const { user } = await caller();
      const response = await call(user.token, { destination: '102' }, '', { 'idempotency-key': 'x'.repeat(300) });
      expect(response.statusCode).toBe(422);
    });
  });
});

describe('POST /calls/new without an engine', () => {
  const t = useTestApp({ env: { PBX_ENGINE: 'none', JOB_WORKER: 'false' } });

  it('answers 503 {status: error} when the PBX has no engine', async () => {
    const tenant = await createTenant(t.ctx);
    const user = await createUser(t.ctx, { tenant });
    await createSipDevice(t.ctx, tenant, { user_id: user.id });
    const response = await t.app.inject({ method: 'POST', url: '/api/v1/calls/new', headers: bearer(user.token), payload: { destination: '102' } });
    expect(response.statusCode).toBe(503);
    expect(response.json()).toEqual({ status: 'error', message: 'No PBX engine is configured for this PBX.' });
  });
});
