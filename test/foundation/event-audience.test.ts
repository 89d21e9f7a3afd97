import { randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemo, type DemoTenant } from '../../src/demo-seed.js';
import { createApiKey } from '../../src/platform/auth/api-keys.js';
import { Authenticator } from '../../src/platform/auth/authenticate.js';
import { INTEGRATION_SCOPES, type Principal } from '../../src/platform/auth/principal.js';
import { issueUserToken } from '../../src/platform/auth/tokens.js';
import { eventKinds, mayReceive, readEvents, type EventKind, type LiveEvent } from '../../src/platform/events/index.js';
import { handleAmiEvent } from '../../src/modules/calls/engine/ami/events.js';
import { AmiMessage } from '../../src/modules/calls/engine/ami/protocol.js';
import { createExtension, createSipDevice } from '../factories.js';
import { buildTestApp, type TestApp } from '../helpers.js';
import { runImport, upload } from '../imports.js';

const DATA_DIR = `/tmp/pbx-api-event-audience-${process.pid}-${randomUUID().slice(0, 8)}`;

/**
 * The subject of each event type, and the REST reads that stand for "may GET it": a principal may
 * receive an event exactly when one of them answers it 2xx. Where the subject has no single GET of
 * its own, the read that shows the same thing is named, with why.
 */
const READS: Record<string, { reads: (id: string, extra: Record<string, string>) => string[]; why?: string }> = {
  call: {
    reads: (id, extra) => [`/calls/${id}`, `/cdrs/detail/${extra.cdr_id}`],
    why: 'GET /calls/{id} is the caller’s and the administrators’ (user tokens only); call-history keys read the same call in the history (its record, GET /cdrs/detail/{cdr_id})',
  },
  sip_device: {
    reads: (_id, extra) => [`/extensions/${extra.extension_id}?include=sipDevice`],
    why: 'presence is the tenant’s: GET /sip-devices/{id} is its owner’s and the administrators’, while every user and the PBX key read the extensions and the device each rings on',
  },
  user: { reads: (id) => [`/users/${id}`] },
  configuration_push: { reads: (id) => [`/pbx/configuration/pushes/${id}`] },
  contact_import: { reads: (id) => [`/contacts/imports/${id}`] },
  call_flow: { reads: (id) => [`/call-flows/${id}`] },
  ivr: { reads: (id) => [`/ivrs/${id}`] },
  queue: { reads: (id) => [`/queues/${id}`] },
  absence_request: { reads: (id, extra) => [`/${extra.pbx_id}/absence-requests/${id}`] },
};

/** Kinds whose data has a read of its own beside the subject's. */
const KIND_READS: Record<string, { reads: (id: string) => string[]; why: string }> = {
  'user.dnd_changed': { reads: (id) => [`/users/${id}/dnds`], why: 'the rules it carries' },
  'user.forward_changed': { reads: (id) => [`/users/${id}/forwards`], why: 'the forwards it carries' },
  'user.in_call_changed': {
    reads: (id) => [`/users/${id}`],
    why: 'the flag’s own read (GET /in-call) answers only the token’s own user; the subject, the user, is read by GET /users/{id}',
  },
};

/**
 * Where who receives differs from who may read, known and why; the test fails when one goes away
 * (remove it here) as when a new one appears.
 */
const KNOWN_GAPS: Record<string, Record<string, string>> = {};

/** The registered kinds but the platform tests' own (`test_*`, registered when those files share this worker). */
const productKinds = () => eventKinds().filter((kind) => !kind.kind.startsWith('test_'));

const knownGap = (kind: string, principal: string) => Object.entries(KNOWN_GAPS).find(([prefix]) => kind.startsWith(prefix))?.[1][principal];

describe('who receives an event is who may GET its subject', () => {
  let t: TestApp;
  let a: DemoTenant;
  let b: DemoTenant;
  /** One real event per subject type, produced by the change that owns it in tenant A, and what its reads need. */
  const samples = new Map<string, { event: LiveEvent; extra: Record<string, string> }>();
  const tokens: Record<string, string> = {};

  const call = (method: 'GET' | 'POST' | 'PATCH', url: string, token: string, payload?: object) =>
    t.app.inject({ method, url: `/api/v1${url}`, headers: { authorization: `Bearer ${token}` }, ...(payload ? { payload } : {}) });
  const ok = async (method: 'POST' | 'PATCH', url: string, token: string, payload?: object) => {
    const response = await call(method, url, token, payload);
    expect(response.statusCode, `${method} ${url}: ${response.body}`).toBeLessThan(300);
    return response.json<{ data: { id: string } }>().data;
  };

  beforeAll(async () => {
    t = await buildTestApp({
      env: { RATE_LIMIT_PER_MINUTE: '1000000', CDR_DETAIL_RATE_LIMIT_PER_MINUTE: '1000000', DATA_DIR, JOB_WORKER: 'false', AMI_EVENTS: 'false' },
    });
    [a, b] = (await seedDemo(t.ctx)).seed.tenants;
    const { db, secrets } = t.ctx;
    const clock = t.clock;
    const issue = (id: string, pbx_id: string) => issueUserToken(db, clock, { id, pbx_id }, { name: 'test', ttlSeconds: 3600 });
    const [admin, user, other] = a.users;
    tokens.admin = await issue(admin.id, a.pbx_id);
    tokens.user = await issue(user.id, a.pbx_id);
    tokens['other user'] = await issue(other.id, a.pbx_id);
    tokens['PBX key'] = a.pbx_api_key;
    tokens['PBX server key'] = a.pbx_server_key;
    tokens['internal key'] = a.internal_api_key;
    tokens["other tenant's admin"] = await issue(b.admin.id, b.pbx_id);
    const key = async (scopes: string[]) =>
      (await createApiKey(db, clock, secrets, { pbxId: a.pbx_id, kind: 'integration', name: scopes.join(' ') || 'none', scopes })).token;
    tokens['integration key (every scope)'] = await key([...INTEGRATION_SCOPES]);
    for (const scope of INTEGRATION_SCOPES) {
      tokens[`integration key (${scope})`] = await key([scope]);
      tokens[`integration key (all but ${scope})`] = await key(INTEGRATION_SCOPES.filter((other) => other !== scope));
    }

    const tenant = { pbxId: a.pbx_id };
    const before = (await readEvents(db, a.pbx_id, 0, 100_000)).length;
    // The user's phone on an extension of its own: a call placed with it, and its presence.
    const extension = await createExtension(t.ctx, tenant, { user_id: user.id, number: '7931' });
    const device = await createSipDevice(t.ctx, tenant, { user_id: user.id, extension_id: extension.id });
    const placed = (await ok('POST', '/calls/new', tokens.user, { destination: '+352621999888' })) as unknown as { call_id: string };
    clock.advance(t.ctx.config.simulatedCdrDelaySeconds + 1);
    await t.app.jobs.drain();
    await handleAmiEvent(
      t.ctx,
      tenant,
      new AmiMessage([
        ['Event', 'ContactStatus'],
        ['URI', `sip:${device.username}@192.0.2.10:5060`],
        ['ContactStatus', 'Reachable'],
        ['AOR', device.username],
        ['RoundtripUsec', '8000'],
      ]),
    );
    await ok('POST', `/users/${user.id}/dnds/bulk`, tokens.admin, { dnds: [{ type: 'internal', status: true }] });
    clock.advance(61);
    await ok('POST', '/pbx/configuration/push', tokens.admin);
    const imported = await upload(t, tokens.user, { name: 'people.csv', content: 'Name,E-mail,Phone\nAnna Weber,anna.events@example.test,621 100 091\n' });
    expect(imported.statusCode, imported.body).toBe(201);
    await runImport(t, tokens.user, imported.json().data.id);
    const s = a.samples as Record<string, string>;
    await ok('PATCH', `/queues/${s.queue}`, tokens.admin, { name: 'Support (events)' });
    await ok('PATCH', `/call-flows/${s.call_flow}`, tokens.admin, { name: 'Office hours (events)' });
    await ok('PATCH', `/ivrs/${s.ivr}`, tokens.admin, { name: 'Main menu (events)' });
    // A Monday and Tuesday the demo's own requests leave free, some weeks ahead.
    const monday = new Date(clock.nowMs());
    monday.setUTCDate(monday.getUTCDate() + ((8 - monday.getUTCDay()) % 7 || 7));
    const day = (weeks: number, offset: number) => new Date(monday.getTime() + (weeks * 7 + offset) * 86_400_000).toISOString().slice(0, 10);
    for (let weeks = 5; ; weeks++) {
      const asked = await call('POST', `/${a.pbx_id}/user/${user.employee_id}/absence-requests`, tokens.user, {
        type: 'legal',
        start: day(weeks, 0),
        end: day(weeks, 1),
      });
      if (asked.statusCode === 201) break;
      expect(weeks, asked.body).toBeLessThan(30);
    }

    const events = (await readEvents(db, a.pbx_id, 0, 100_000)).slice(before);
    for (const event of events) if (!samples.has(event.subject.type)) samples.set(event.subject.type, { event, extra: {} });
    const cdr = await db.selectFrom('placed_calls').select('cdr_id').where('id', '=', placed.call_id).executeTakeFirstOrThrow();
    samples.get('call')!.extra.cdr_id = String(cdr.cdr_id);
    samples.get('sip_device')!.extra.extension_id = extension.id;
    samples.get('absence_request')!.extra.pbx_id = a.pbx_id;
  });
  afterAll(async () => {
    await t?.close();
    rmSync(DATA_DIR, { recursive: true, force: true });
  });

  it('has a subject with a REST read for every registered kind, and a real event of every subject type', () => {
    const subjects = [...new Set(productKinds().map((kind) => kind.subject))];
    expect(subjects.filter((subject) => !READS[subject])).toEqual([]);
    expect(subjects.filter((subject) => !samples.has(subject))).toEqual([]);
  });

  it('gives each kind’s sample event to exactly the principals whose GET of its subject answers 2xx', async () => {
    const authenticator = new Authenticator(t.ctx);
    const principals = new Map<string, Principal>();
    for (const [name, token] of Object.entries(tokens)) principals.set(name, (await authenticator.resolve(token))!);
    const statuses = new Map<string, number>();
    const mayRead = async (name: string, urls: string[]) => {
      for (const url of urls) {
        const cacheKey = `${name} ${url}`;
        if (!statuses.has(cacheKey)) statuses.set(cacheKey, (await call('GET', url, tokens[name])).statusCode);
        if (statuses.get(cacheKey)! < 300) return true;
      }
      return false;
    };
    /** The principals a kind is compared for: the keys that hold its scope, and those that hold every other. */
    const principalsFor = (kind: EventKind) => {
      const scope = kind.integrationScope;
      const integration = scope ? [`integration key (${scope})`, `integration key (all but ${scope})`] : ['integration key (every scope)'];
      return ['admin', 'user', 'other user', 'PBX key', ...integration, 'PBX server key', 'internal key', "other tenant's admin"];
    };

    const kinds = productKinds();
    expect(kinds.length).toBeGreaterThanOrEqual(31);
    const differences: string[] = [];
    const gapsSeen = new Set<string>();
    for (const kind of kinds) {
      const { event, extra } = samples.get(kind.subject)!;
      const reads = KIND_READS[kind.kind]?.reads(event.subject.id) ?? READS[kind.subject].reads(event.subject.id, extra);
      for (const name of principalsFor(kind)) {
        const receives = mayReceive(principals.get(name)!, { pbxId: event.pbxId, audience: event.audience }, kind);
        const reads2xx = await mayRead(name, reads);
        if (receives === reads2xx) continue;
        const gap = knownGap(kind.kind, name);
        if (gap) gapsSeen.add(`${kind.kind} ${name}`);
        else
          differences.push(
            `${kind.kind} (${JSON.stringify(event.audience)}) ${name}: receives ${receives}, GET ${reads.join(' | ')} ${reads2xx ? '2xx' : 'refused'}`,
          );
      }
    }
    expect(differences).toEqual([]);
    // Every known gap is still there (else remove it from KNOWN_GAPS), for every kind it names.
    for (const [prefix, gaps] of Object.entries(KNOWN_GAPS))
      for (const principal of Object.keys(gaps))
        for (const kind of kinds.filter((k) => k.kind.startsWith(prefix))) expect(gapsSeen, `${kind.kind} ${principal}`).toContain(`${kind.kind} ${principal}`);
  });
});
