import { hostFileName, tenantPrefix } from '../../../platform/pbx-names.js';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { bearer, buildTestApp, type TestApp } from '../../../../test/helpers.js';
import { createAdmin, createExtension, createKey, createSipDevice, createTenant, createUser, type TestTenant } from '../../../../test/factories.js';
import { AmiTestPeer, renderPeerConfig } from '../../../../test/ami-test-peer.js';
import { withoutTemplates, type DeliveredSection } from '../../calls/engine/ami/config-delivery.js';

/** An Asterisk configuration file read back into sections: `[name](!,template,...)`, `key = value`, `key => value`. */
function parseConfigText(text: string): DeliveredSection[] {
  const sections: DeliveredSection[] = [];
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (!line || line.startsWith(';')) continue;
    const head = /^\[([^\]]+)\](?:\(([^)]*)\))?$/.exec(line);
    if (head) {
      const options = head[2] ? head[2].split(',').map((o) => o.trim()) : [];
      sections.push({ name: head[1], template: options.includes('!'), inherits: options.filter((o) => o !== '!'), lines: [] });
      continue;
    }
    const pair = /^([^=>\s]+)\s*(=>|=)\s?(.*)$/.exec(line)!;
    sections[sections.length - 1].lines.push({ key: pair[1], value: pair[3], object: pair[2] === '=>' });
  }
  return sections;
}
import { acquireLease } from '../../../platform/leases.js';
import { pushLeaseName } from './push-job.js';

const SECRET = 's3cr3t-ami';

describe('configuration push', () => {
  let t: TestApp;
  const peer = new AmiTestPeer();
  let port = 0;

  beforeAll(async () => {
    port = await peer.start();
    t = await buildTestApp({ env: { JOB_WORKER: 'false', AMI_EVENTS: 'false', AMI_ACTION_TIMEOUT_MS: '400', AMI_CONNECT_TIMEOUT_MS: '400' } });
  });
  afterAll(async () => {
    await t.close();
    await peer.stop();
  });
  beforeEach(() => {
    peer.configFiles.clear();
    peer.reloads.length = 0;
    peer.configBehaviour = { createConfig: 'success', updateConfigRefuses: null, reloadRefuses: null, silentOn: null };
  });

  const request = (method: 'GET' | 'POST', url: string, authorization: string) =>
    t.app.inject({ method, url: `/api/v1${url}`, headers: bearer(authorization) });
  const push = (token: string, query = '') => request('POST', `/pbx/configuration/push${query}`, token);
  const getPush = (token: string, id: string) => request('GET', `/pbx/configuration/pushes/${id}`, token);
  const status = (token: string) => request('GET', '/pbx/configuration/status', token);

  async function tenantWithAdmin() {
    const tenant = await createTenant(t.ctx);
    const admin = await createAdmin(t.ctx, tenant);
    return { tenant, admin };
  }

  async function onPeer(tenant: TestTenant, token: string) {
    const saved = await t.app.inject({
      method: 'PUT',
      url: '/api/v1/pbx-engine/settings',
      headers: bearer(token),
      payload: { host: '127.0.0.1', port, username: 'admin', secret: SECRET },
    });
    expect(saved.statusCode).toBe(200);
    return tenant;
  }

  it('previews with dry_run=1 without pushing, then pushes as a durable job the simulated engine takes', async () => {
    const { tenant, admin } = await tenantWithAdmin();
    const dry = await push(admin.token, '?dry_run=1');
    expect(dry.statusCode).toBe(200);
    const preview = dry.json().data;
    expect(preview.has_changes).toBe(true);
    expect(preview.diff_summary.base_version).toBeNull();
    expect(preview.files.map((f: { name: string }) => f.name)).toEqual(['extensions.conf', 'musiconhold.conf', 'pjsip.conf', 'queues.conf', 'voicemail.conf']);
    expect(preview.files.every((f: { status: string }) => f.status === 'added')).toBe(true);
    expect(JSON.parse(preview.manifest)).toMatchObject({ version: 1, pbx_id: tenant.pbxId, hash: preview.hash });
    expect(await t.ctx.db.selectFrom('config_versions').select('id').where('pbx_id', '=', tenant.pbxId).execute()).toEqual([]);
    expect((await status(admin.token)).json().data).toMatchObject({ last_pushed_version: null, has_unpushed_changes: true, current_hash: preview.hash });

    const pushed = await push(admin.token);
    expect(pushed.statusCode).toBe(202);
    const job = pushed.json().data;
    expect(job).toMatchObject({ version: 1, status: 'queued', reason: null, engine: null, hash: preview.hash, rollback_of: null });
    expect(job.pushed_by).toEqual({ kind: 'user', id: expect.any(String), user_id: admin.id });
    expect((await status(admin.token)).json().data.pending_push).toEqual({ id: job.id, version: 1, status: 'queued' });

    await t.app.jobs.drain();
    const done = (await getPush(admin.token, job.id)).json().data;
    expect(done).toMatchObject({ id: job.id, version: 1, status: 'done', engine: 'simulated', reason: null });
    expect(done.finished_at).toEqual(expect.any(String));
    const active = await t.ctx.db.selectFrom('simulated_configurations').selectAll().where('pbx_id', '=', tenant.pbxId).executeTakeFirstOrThrow();
    expect(active).toMatchObject({ version: 1, hash: preview.hash });
    expect(JSON.parse(active.files).map((f: { content: string }) => f.content)).toEqual(preview.files.map((f: { content: string }) => f.content));

    expect((await status(admin.token)).json().data).toMatchObject({
      last_pushed_version: 1,
      pushed_hash: preview.hash,
      has_unpushed_changes: false,
      pending_push: null,
    });
    const audit = await t.ctx.db
      .selectFrom('audit_events')
      .selectAll()
      .where('pbx_id', '=', tenant.pbxId)
      .where('action', '=', 'configuration.pushed')
      .execute();
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ subject_type: 'configuration_push', subject_id: job.id, user_id: admin.id });
    expect(JSON.parse(audit[0].details)).toMatchObject({ version: 1, rollback_of: null });

    // After a push, the dry run compares with it: nothing changed.
    const again = (await push(admin.token, '?dry_run=1')).json().data;
    expect(again).toMatchObject({ has_changes: false, diff: '', diff_summary: { base_version: 1, additions: 0, deletions: 0 } });
  });

  it('routes a simulated call to one of the PBX numbers the way the pushed configuration does, not by later changes', async () => {
    const { tenant, admin } = await tenantWithAdmin();
    const reception = await createUser(t.ctx, { tenant, fields: { first_name: 'Rita', last_name: 'Reception' } });
    const other = await createUser(t.ctx, { tenant, fields: { first_name: 'Otto', last_name: 'Other' } });
    const caller = await createUser(t.ctx, { tenant });
    await createSipDevice(t.ctx, tenant, { user_id: caller.id });
    const api = (method: 'POST' | 'PATCH' | 'GET', url: string, payload?: object) =>
      t.app.inject({ method, url: `/api/v1${url}`, headers: bearer(admin.token), ...(payload ? { payload } : {}) });
    const flow = (
      await api('POST', '/call-flows', {
        name: 'Front desk',
        entry: 'ring',
        nodes: [
          { key: 'ring', type: 'ring_user', user_id: reception.id, no_answer: 'box' },
          { key: 'box', type: 'voicemail', user_id: reception.id },
        ],
      })
    ).json().data;
    expect((await api('POST', '/phone-numbers', { number: '+35227700100', destination_type: 'call_flow', destination_id: flow.id })).statusCode).toBe(201);
    expect((await push(admin.token)).statusCode).toBe(202);
    await t.app.jobs.drain();
    // Changed after the push: the simulated PBX does not know it yet.
    expect((await api('PATCH', `/call-flows/${flow.id}`, { nodes: [{ key: 'ring', type: 'ring_user', user_id: other.id }] })).statusCode).toBe(200);

    const placed = await t.app.inject({ method: 'POST', url: '/api/v1/calls/new', headers: bearer(caller.token), payload: { destination: '27700100' } });
    expect(placed.statusCode).toBe(200);
    t.clock.advance(t.ctx.config.simulatedCdrDelaySeconds + 1);
    await t.app.jobs.drain();
    const history = await t.app.inject({ method: 'GET', url: '/api/v1/cdrs', headers: bearer(admin.token) });
    const record = history.json().data[0];
    const detail = (await t.app.inject({ method: 'GET', url: `/api/v1/cdrs/detail/${record.cdr_id ?? record.id}`, headers: bearer(admin.token) })).json();
    const legs = (detail.data ?? detail).receivers as Array<{ name: string; via_type: string | null; via_name: string | null }>;
    const destination = legs[legs.length - 1];
    expect(destination.via_type).toBe('CALL_FLOW');
    expect(destination.via_name).toBe('Front desk');
    expect(['Rita Reception', 'Voicemail of Rita Reception']).toContain(destination.name);
    const timeline = ((detail.data ?? detail).call_flow as Array<{ text: string }>).map((item) => item.text).join('\n');
    expect(timeline).toContain('Front desk');
    expect(timeline).not.toContain('Otto Other');
  });

  it('marks a data change as unpushed, and the dry run shows it as a unified diff', async () => {
    const { tenant, admin } = await tenantWithAdmin();
    expect((await push(admin.token)).statusCode).toBe(202);
    await t.app.jobs.drain();
    const user = await createUser(t.ctx, { tenant, fields: { first_name: 'Ada', last_name: 'Lovelace' } });
    await createExtension(t.ctx, tenant, { number: '2042', user_id: user.id });
    const now = (await status(admin.token)).json().data;
    expect(now.has_unpushed_changes).toBe(true);
    expect(now.current_hash).not.toBe(now.pushed_hash);
    const dry = (await push(admin.token, '?dry_run=1')).json().data;
    expect(dry.has_changes).toBe(true);
    expect(dry.diff).toMatch(/^--- a\/\S+\.conf\n\+\+\+ b\/\S+\.conf\n@@ /m);
    expect(dry.diff).toContain('2042');
    expect(dry.diff_summary.additions).toBeGreaterThan(0);
  });

  it('allows one push a minute per PBX: its own 429 with Retry-After; dry runs are not counted', async () => {
    const { tenant, admin } = await tenantWithAdmin();
    const other = await createAdmin(t.ctx, tenant);
    expect((await push(admin.token)).statusCode).toBe(202);
    const refused = await push(other.token);
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['retry-after']).toBe('60');
    expect(refused.json()).toEqual({ message: 'The configuration of this PBX may be pushed once a minute. Please retry later.' });
    expect((await push(admin.token, '?dry_run=1')).statusCode).toBe(200);
    t.clock.advance(45);
    const later = await push(admin.token);
    expect(later.statusCode).toBe(429);
    expect(later.headers['retry-after']).toBe('15');
    // Another PBX has its own minute.
    const elsewhere = await tenantWithAdmin();
    expect((await push(elsewhere.admin.token)).statusCode).toBe(202);
    t.clock.advance(15);
    const next = await push(other.token);
    expect(next.statusCode).toBe(202);
    expect(next.json().data.version).toBe(2);
    const rows = await t.ctx.db.selectFrom('config_versions').select('version').where('pbx_id', '=', tenant.pbxId).orderBy('version').execute();
    expect(rows.map((row) => row.version)).toEqual([1, 2]);
    await t.app.jobs.drain();
  });

  it('answers a push and its 429 with the push limit’s own rate-limit headers, not the general budget’s', async () => {
    const { admin } = await tenantWithAdmin();
    const limitOf = (answer: { headers: Record<string, unknown> }) =>
      ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset', 'retry-after'].map((name) => answer.headers[name]);
    // A dry run is not counted by the push limit: the general budget's headers.
    const dry = await push(admin.token, '?dry_run=1');
    expect(dry.headers['x-ratelimit-limit']).toBe('120');
    const pushed = await push(admin.token);
    expect(pushed.statusCode).toBe(202);
    expect(limitOf(pushed)).toEqual(['1', '0', '60', undefined]);
    expect(pushed.headers['ratelimit-policy']).toBe('"default";q=1;w=60');
    t.clock.advance(20);
    const refused = await push(admin.token);
    expect(refused.statusCode).toBe(429);
    expect(limitOf(refused)).toEqual(['1', '0', '40', '40']);
    expect(refused.headers.ratelimit).toBe('"default";r=0;t=40');
    // A rollback is a push: the same limit, the same headers.
    const rollback = await request('POST', '/pbx/configuration/versions/1/rollback', admin.token);
    expect(rollback.statusCode).toBe(429);
    expect(limitOf(rollback)).toEqual(['1', '0', '40', '40']);
    t.clock.advance(40);
    const again = await request('POST', '/pbx/configuration/versions/1/rollback', admin.token);
    expect(again.statusCode).toBe(202);
    expect(limitOf(again)).toEqual(['1', '0', '60', undefined]);
    await t.app.jobs.drain();
  });

  it('documents the push limit’s own 429 and its headers', async () => {
    const document = (await t.app.inject('/api/v1/openapi.json')).json();
    for (const [path, operation] of [
      ['/pbx/configuration/push', 'pushConfiguration'],
      ['/pbx/configuration/versions/{version}/rollback', 'rollbackConfiguration'],
    ]) {
      const answer = document.paths[path].post;
      expect(answer.operationId).toBe(operation);
      const tooMany = answer.responses['429'];
      expect(tooMany.description).toMatch(/one push a minute per PBX/i);
      expect(tooMany.description).toContain('X-RateLimit-Limit 1, X-RateLimit-Remaining 0, X-RateLimit-Reset and Retry-After the seconds');
      expect(Object.keys(tooMany.headers)).toEqual(expect.arrayContaining(['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset', 'Retry-After']));
      expect(answer.responses['202'].description).toContain('X-RateLimit-Limit 1, X-RateLimit-Remaining 0, X-RateLimit-Reset 60');
    }
  });

  it('lets exactly one of two simultaneous pushes through', async () => {
    const { tenant, admin } = await tenantWithAdmin();
    const key = await createKey(t.ctx, tenant, 'integration', ['push-configuration']);
    const answers = await Promise.all([push(admin.token), push(key), push(admin.token)]);
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([202, 429, 429]);
    expect(await t.ctx.db.selectFrom('config_versions').select('id').where('pbx_id', '=', tenant.pbxId).execute()).toHaveLength(1);
    expect(
      await t.ctx.db.selectFrom('audit_events').select('id').where('pbx_id', '=', tenant.pbxId).where('action', '=', 'configuration.pushed').execute(),
    ).toHaveLength(1);
    await t.app.jobs.drain();
  });

  it('never delivers two pushes of a PBX at once: a delivery waits for the lease, and an overtaken push is not delivered', async () => {
    const { tenant, admin } = await tenantWithAdmin();
    const first = (await push(admin.token)).json().data;
    const now = t.ctx.clock.now();
    // Another instance is delivering to this PBX.
    expect(
      await acquireLease(t.ctx.db, pushLeaseName(tenant.pbxId), 'another-instance', now.toISOString(), new Date(now.getTime() + 30_000).toISOString()),
    ).toBe(true);
    await t.app.jobs.drain();
    expect((await getPush(admin.token, first.id)).json().data).toMatchObject({ status: 'queued', engine: null });
    const job = await t.ctx.db
      .selectFrom('jobs')
      .selectAll()
      .where('id', '=', (await t.ctx.db.selectFrom('config_versions').select('job_id').where('id', '=', first.id).executeTakeFirstOrThrow()).job_id!)
      .executeTakeFirstOrThrow();
    expect(job).toMatchObject({ status: 'pending', last_error: 'Another push of this PBX was being delivered; this one waits for its turn.' });

    // Meanwhile a newer version is pushed and delivered (the lease lapsed) before the older one's next
    // attempt: that attempt must not undo it.
    t.clock.advance(61);
    await t.ctx.db
      .updateTable('jobs')
      .set({ run_at: new Date(t.ctx.clock.nowMs() + 600_000).toISOString() })
      .where('id', '=', job.id)
      .execute();
    const second = (await push(admin.token)).json().data;
    await t.app.jobs.drain();
    expect((await getPush(admin.token, second.id)).json().data.status).toBe('done');
    expect((await getPush(admin.token, first.id)).json().data.status).toBe('queued');
    t.clock.advance(600);
    await t.app.jobs.drain();
    expect((await getPush(admin.token, first.id)).json().data).toMatchObject({ status: 'failed', reason: 'Superseded by version 2, pushed meanwhile.' });
    const active = await t.ctx.db.selectFrom('simulated_configurations').select('version').where('pbx_id', '=', tenant.pbxId).executeTakeFirstOrThrow();
    expect(active.version).toBe(2);
  });

  it('delivers over AMI: UpdateConfig per file, a reload per changed module, each answer checked', async () => {
    const { tenant, admin } = await tenantWithAdmin();
    await onPeer(tenant, admin.token);
    const user = await createUser(t.ctx, { tenant, fields: { first_name: 'Grace', last_name: 'Hopper' } });
    const extension = await createExtension(t.ctx, tenant, { number: '2101', user_id: user.id });
    const device = await createSipDevice(t.ctx, tenant, { user_id: user.id, extension_id: extension.id });
    // Sent plain: Asterisk's config writer escapes the `;` itself (an escape here would reach the phone's password).
    const secret = 'Pa;ss#w\\ord "q" 7';
    await t.ctx.db
      .updateTable('sip_devices')
      .set({ secret_sealed: t.ctx.secrets.seal(secret) })
      .where('id', '=', device.id)
      .execute();
    const onPbx = (name: string) => peer.configFiles.get(hostFileName(name, tenantPrefix(tenant.pbxId)))!;
    const pushed = (await push(admin.token)).json().data;
    await t.app.jobs.drain();
    const done = (await getPush(admin.token, pushed.id)).json().data;
    expect(done).toMatchObject({
      status: 'done',
      engine: 'asterisk',
      reloaded: ['pbx_config.so', 'res_musiconhold.so', 'res_pjsip.so', 'app_queue.so', 'app_voicemail.so'],
    });
    const version = (await request('GET', '/pbx/configuration/versions/1', admin.token)).json().data;
    // The secret reaches the PBX only: the version keeps a token in its place.
    expect(JSON.stringify(version)).not.toContain(secret);
    expect(onPbx('pjsip.conf').flatMap((section) => section.lines)).toContainEqual({ key: 'password', value: secret, object: false });
    // Only the tenant's own files: the host's pjsip.conf (its transports and trunk) is never written.
    expect(peer.configFiles.has('pjsip.conf')).toBe(false);
    const token = /pbxapi-sealed-[0-9a-f]{24}/.exec(version.files.find((f: { name: string }) => f.name === 'pjsip.conf').content)![0];
    for (const file of version.files as Array<{ name: string; content: string }>) {
      // What Asterisk saved is the compiled file with its templates written out (UpdateConfig cannot
      // fill a template), without comments, the secret in place of its token.
      const written = withoutTemplates(parseConfigText(file.content));
      const expected = renderPeerConfig(
        written.map((section) => ({
          name: section.name,
          template: false,
          inherits: [],
          lines: section.lines.map((line) => ({ ...line, value: line.value.split(token).join(secret), object: !!line.object })),
        })),
      );
      expect(renderPeerConfig(onPbx(file.name)), file.name).toBe(expected);
    }

    // Nothing changed since: the files are written again, no module is reloaded.
    peer.reloads.length = 0;
    t.clock.advance(60);
    const unchanged = (await push(admin.token)).json().data;
    await t.app.jobs.drain();
    expect((await getPush(admin.token, unchanged.id)).json().data).toMatchObject({ status: 'done', reloaded: [] });
    expect(peer.reloads).toEqual([]);
  });

  it('fails a push the PBX refuses, with the PBX answer as the reason, and retries one it cannot reach', async () => {
    const { tenant, admin } = await tenantWithAdmin();
    await onPeer(tenant, admin.token);
    const queues = hostFileName('queues.conf', tenantPrefix(tenant.pbxId));
    peer.configBehaviour.updateConfigRefuses = `pbxapi-staging-${queues.slice('pbxapi-'.length)}`;
    const refused = (await push(admin.token)).json().data;
    await t.app.jobs.drain();
    expect((await getPush(admin.token, refused.id)).json().data).toMatchObject({
      status: 'failed',
      engine: 'asterisk',
      reason: `Staging ${queues}: the PBX answered Given category does not exist.`,
    });

    peer.configBehaviour.updateConfigRefuses = null;
    peer.configBehaviour.reloadRefuses = 'app_queue.so';
    t.clock.advance(60);
    const reload = (await push(admin.token)).json().data;
    await t.app.jobs.drain();
    expect((await getPush(admin.token, reload.id)).json().data).toMatchObject({
      status: 'failed',
      reason: 'Reloading app_queue.so: the PBX answered Module does not support reload. The previous configuration was restored and runs.',
    });
    expect((await status(admin.token)).json().data).toMatchObject({ last_pushed_version: null, has_unpushed_changes: true });

    // The PBX does not answer at all: queued again with the reason, failed once the attempts run out.
    peer.configBehaviour.reloadRefuses = null;
    peer.configBehaviour.silentOn = 'createconfig';
    t.clock.advance(60);
    const silent = (await push(admin.token)).json().data;
    await t.app.jobs.drain();
    expect((await getPush(admin.token, silent.id)).json().data).toMatchObject({
      status: 'queued',
      reason: 'The PBX did not answer the CreateConfig action within 400 ms.',
    });
    for (let attempt = 0; attempt < 2; attempt++) {
      t.clock.advance(60);
      await t.app.jobs.drain();
    }
    expect((await getPush(admin.token, silent.id)).json().data).toMatchObject({
      status: 'failed',
      reason: 'The PBX did not answer the CreateConfig action within 400 ms.',
    });
  });

  it('names in the dry run each stored secret the PBX could not be given, and refuses to push it with the same words', async () => {
    const { tenant, admin } = await tenantWithAdmin();
    const user = await createUser(t.ctx, { tenant, fields: { first_name: 'Grace', last_name: 'Hopper' } });
    const device = await createSipDevice(t.ctx, tenant, { user_id: user.id });
    const saved = await t.app.inject({
      method: 'PUT',
      url: `/api/v1/users/${user.id}/webrtc-account`,
      headers: bearer(admin.token),
      payload: { hostname: 'webrtc.pbx.example.lu', port: 8089, password: 'Wb7!kQ2m-Remich9' },
    });
    expect(saved.statusCode).toBe(200);
    expect((await push(admin.token, '?dry_run=1')).json().data.problems).toEqual([]);

    // Stored before the API refused them (sealed, so no migration could clean them).
    await t.ctx.db
      .updateTable('sip_devices')
      .set({ secret_sealed: t.ctx.secrets.seal('line one\nline two') })
      .where('id', '=', device.id)
      .execute();
    await t.ctx.db
      .updateTable('webrtc_configurations')
      .set({ password_sealed: t.ctx.secrets.seal(' padded-password') })
      .where('user_id', '=', user.id)
      .execute();
    const deviceProblem = {
      resource: 'sip_device',
      id: device.id,
      name: device.name,
      field: 'secret',
      problem: 'contains a line break',
      message: `The secret of the SIP device "${device.name}" (${device.id}) contains a line break: set a new one.`,
    };
    const webrtcProblem = {
      resource: 'webrtc_account',
      id: user.id,
      name: 'Grace Hopper',
      field: 'password',
      problem: 'begins or ends with white space',
      message: `The password of the WebRTC account of Grace Hopper (user ${user.id}) begins or ends with white space: set a new one.`,
    };
    const dry = await push(admin.token, '?dry_run=1');
    expect(dry.statusCode).toBe(200);
    const problems = dry.json().data.problems as Array<typeof deviceProblem>;
    expect([...problems].sort((a, b) => (a.resource < b.resource ? -1 : 1))).toEqual([deviceProblem, webrtcProblem]);
    // The files themselves show tokens only: neither secret is in the answer.
    expect(dry.body).not.toContain('line one');
    expect(dry.body).not.toContain('padded-password');

    // A push is refused before any version is made (and before the one-a-minute gate), naming both.
    const refused = await push(admin.token);
    expect(refused.statusCode).toBe(422);
    expect(refused.json()).toEqual({
      message: `${problems[0].message} (and 1 more error)`,
      errors: { configuration: problems.map((p) => p.message) },
      problems,
    });
    expect(await t.ctx.db.selectFrom('config_versions').select('id').where('pbx_id', '=', tenant.pbxId).execute()).toEqual([]);

    // Set anew through the API, both are delivered.
    const secret = await t.app.inject({
      method: 'PATCH',
      url: `/api/v1/sip-devices/${device.id}`,
      headers: bearer(admin.token),
      payload: { secret: 'a-new-sip-secret' },
    });
    expect(secret.statusCode).toBe(200);
    const password = await t.app.inject({
      method: 'PUT',
      url: `/api/v1/users/${user.id}/webrtc-account`,
      headers: bearer(admin.token),
      payload: { hostname: 'webrtc.pbx.example.lu', port: 8089, password: 'Wb7!kQ2m-Remich9' },
    });
    expect(password.statusCode).toBe(200);
    expect((await push(admin.token, '?dry_run=1')).json().data.problems).toEqual([]);
    const pushed = await push(admin.token);
    expect(pushed.statusCode).toBe(202);
    await t.app.jobs.drain();
    expect((await getPush(admin.token, pushed.json().data.id)).json().data).toMatchObject({ status: 'done' });

    // A rollback to files whose sealed secret cannot be given (the version's own copy) is refused the same way.
    const version = await t.ctx.db.selectFrom('config_versions').select(['id', 'files']).where('pbx_id', '=', tenant.pbxId).executeTakeFirstOrThrow();
    const files = JSON.parse(version.files) as Array<{ name: string; secrets?: Array<{ token: string; sealed: string; kind: string }> }>;
    const current = await t.ctx.db.selectFrom('sip_devices').select('secret_sealed').where('id', '=', device.id).executeTakeFirstOrThrow();
    for (const file of files)
      for (const sealed of file.secrets ?? []) if (sealed.sealed === current.secret_sealed) sealed.sealed = t.ctx.secrets.seal('tab\there');
    await t.ctx.db
      .updateTable('config_versions')
      .set({ files: JSON.stringify(files) })
      .where('id', '=', version.id)
      .execute();
    const rollback = await request('POST', '/pbx/configuration/versions/1/rollback', admin.token);
    expect(rollback.statusCode).toBe(422);
    expect(rollback.json().errors).toEqual({
      configuration: [`The secret of the SIP device "${device.name}" (${device.id}) contains a control character: set a new one.`],
    });
  });

  it('refuses users who are not administrators, keys without push-configuration, and another tenant’s pushes', async () => {
    const { tenant, admin } = await tenantWithAdmin();
    const member = await createUser(t.ctx, { tenant });
    const pbxKey = await createKey(t.ctx, tenant, 'pbx');
    const wrongScope = await createKey(t.ctx, tenant, 'integration', ['call-history']);
    const rightScope = await createKey(t.ctx, tenant, 'integration', ['push-configuration']);
    for (const token of [member.token, pbxKey, wrongScope]) {
      expect((await push(token)).statusCode).toBe(403);
      expect((await push(token, '?dry_run=1')).statusCode).toBe(403);
      expect((await status(token)).statusCode).toBe(403);
      expect((await request('GET', '/pbx/configuration/versions', token)).statusCode).toBe(403);
    }
    expect((await push(rightScope, '?dry_run=1')).statusCode).toBe(200);
    const byKey = await push(rightScope);
    expect(byKey.statusCode).toBe(202);
    expect(byKey.json().data.pushed_by).toMatchObject({ kind: 'integration', user_id: null });

    const stranger = await tenantWithAdmin();
    const foreign = await getPush(stranger.admin.token, byKey.json().data.id);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json()).toEqual({ message: ['No such configuration push.'] });
    expect((await request('GET', '/pbx/configuration/versions/1', stranger.admin.token)).statusCode).toBe(404);
    expect((await request('POST', '/pbx/configuration/versions/1/rollback', stranger.admin.token)).statusCode).toBe(404);
    expect((await request('GET', '/pbx/configuration/versions', stranger.admin.token)).json().data).toEqual([]);

    expect((await push(admin.token, '?dry_run=maybe')).statusCode).toBe(422);
    expect((await getPush(admin.token, 'not-a-uuid')).statusCode).toBe(422);
    expect((await request('GET', '/pbx/configuration/versions/0', admin.token)).statusCode).toBe(422);
    expect((await request('GET', '/pbx/configuration/versions?filter[status]=lost', admin.token)).statusCode).toBe(422);
    await t.app.jobs.drain();
  });
});
