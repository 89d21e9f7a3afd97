import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toneWav } from '../../src/modules/routing/sound-files/wav.js';
import { STEP_TARGET_TYPES } from '../../src/modules/routing/usages.js';
import { createAdmin, createCallerIdentity, createExtension, createMobileTwinning, createSipDevice, createUser, type TestUser } from '../factories.js';
import { apiCaller, bearer, buildTestApp, type HttpMethod, type TestApp } from '../helpers.js';
import { multipart } from '../imports.js';
import { createCallFlow, createIvr, createSoundFile } from '../routing-factories.js';

/**
 * Every value that reaches the PBX (its configuration files, an AMI action) is refused at write time
 * when it holds a control character: a line break there would end the line, so the push (or the
 * click-to-call) would fail later, for every change of the tenant. 422 on the field, as the contract
 * names it; the same value without the character is taken.
 */

/** Line breaks of every kind, a C0 control (BEL), tab, DEL, a C1 control (NEL), the Unicode separators. */
const CONTROLS = ['\n', '\r', '\u0007', '\t', '\u007f', '\u0085', '\u2028', '\u2029'];
const withControl = (plain: string, control: string) => `${plain.slice(0, 1)}${control}${plain.slice(1)}`;

let serial = 0;
/** A phone number no other test holds (numbers are unique on the platform). */
const freshNumber = () => `+35226${String(100000 + ++serial)}`;

interface Case {
  what: string;
  method: HttpMethod;
  url: () => string;
  body: (value: string) => object;
  /** The field as the 422 names it. */
  field: string;
  plain: () => string;
  secret?: boolean;
}

describe('values that reach the PBX refuse control characters', () => {
  let t: TestApp;
  let admin: TestUser;
  let user: string;
  let extension: string;
  let device: string;
  let phoneNumber: string;
  let identity: string;
  let twinning: string;
  let group: string;
  let sound: string;
  let ivr: string;
  let queue: string;
  let flow: string;
  const call = apiCaller(() => t);

  beforeAll(async () => {
    t = await buildTestApp({ env: { RATE_LIMIT_PER_MINUTE: '100000', JOB_WORKER: 'false', AMI_EVENTS: 'false' } });
    admin = await createAdmin(t.ctx);
    const tenant = { pbxId: admin.pbxId };
    user = (await createUser(t.ctx, { tenant })).id;
    extension = (await createExtension(t.ctx, tenant)).id;
    device = (await createSipDevice(t.ctx, tenant)).id;
    const created = await createCallerIdentity(t.ctx, tenant);
    phoneNumber = created.number.id;
    identity = created.identity.id;
    twinning = await createMobileTwinning(t.ctx, user, freshNumber());
    sound = await createSoundFile(t.ctx, tenant, 'announcement');
    ivr = await createIvr(t.ctx, tenant, { announcementId: sound });
    flow = await createCallFlow(t.ctx, tenant);
    const madeGroup = await call('POST', `/users/${user}/user-groups`, admin.token, { name: 'Sales' });
    expect(madeGroup.statusCode).toBe(201);
    group = madeGroup.json().data.id;
    const madeQueue = await call('POST', '/queues', admin.token, { name: 'Support' });
    expect(madeQueue.statusCode).toBe(201);
    queue = madeQueue.json().data.id;
  });
  afterAll(() => t.close());

  const name = (plain: string) => () => plain;

  const CASES: Case[] = [
    // The directory.
    {
      what: 'a new user',
      method: 'POST',
      url: () => '/users',
      body: (v) => ({ email: `pbx-${++serial}@example.test`, first_name: v }),
      field: 'first_name',
      plain: name('Claire'),
    },
    { what: 'a user', method: 'PATCH', url: () => `/users/${user}`, body: (v) => ({ first_name: v }), field: 'first_name', plain: name('Claire') },
    { what: 'a user', method: 'PATCH', url: () => `/users/${user}`, body: (v) => ({ last_name: v }), field: 'last_name', plain: name('Schmit') },
    {
      what: 'a new extension',
      method: 'POST',
      url: () => '/extensions',
      body: (v) => ({ number: String(3000 + ++serial), name: v }),
      field: 'name',
      plain: name('Reception'),
    },
    { what: 'an extension', method: 'PATCH', url: () => `/extensions/${extension}`, body: (v) => ({ name: v }), field: 'name', plain: name('Reception') },
    { what: 'a new SIP device', method: 'POST', url: () => '/sip-devices', body: (v) => ({ name: v }), field: 'name', plain: name('Desk phone') },
    {
      what: 'a new SIP device',
      method: 'POST',
      url: () => '/sip-devices',
      body: (v) => ({ name: 'Desk phone', secret: v }),
      field: 'secret',
      plain: name('a-long-sip-secret;7'),
      secret: true,
    },
    { what: 'a SIP device', method: 'PATCH', url: () => `/sip-devices/${device}`, body: (v) => ({ name: v }), field: 'name', plain: name('Desk phone') },
    {
      what: 'a SIP device',
      method: 'PATCH',
      url: () => `/sip-devices/${device}`,
      body: (v) => ({ secret: v }),
      field: 'secret',
      plain: name('another-sip-secret'),
      secret: true,
    },
    {
      what: 'a WebRTC account',
      method: 'PUT',
      url: () => `/users/${user}/webrtc-account`,
      body: (v) => ({ hostname: 'webrtc.pbx.example.lu', port: 8089, password: v }),
      field: 'password',
      plain: name('Wb7!kQ2m-Remich9'),
      secret: true,
    },
    { what: 'a new phone number', method: 'POST', url: () => '/phone-numbers', body: (v) => ({ number: v }), field: 'number', plain: freshNumber },
    {
      what: 'a new phone number',
      method: 'POST',
      url: () => '/phone-numbers',
      body: (v) => ({ number: freshNumber(), label: v }),
      field: 'label',
      plain: name('Main line'),
    },
    {
      what: 'a phone number',
      method: 'PATCH',
      url: () => `/phone-numbers/${phoneNumber}`,
      body: (v) => ({ label: v }),
      field: 'label',
      plain: name('Main line'),
    },
    {
      what: 'a new caller identity',
      method: 'POST',
      url: () => '/caller-identities',
      body: (v) => ({ phone_number_id: phoneNumber, name: v }),
      field: 'name',
      plain: name('Support Luxembourg'),
    },
    {
      what: 'a caller identity',
      method: 'PATCH',
      url: () => `/caller-identities/${identity}`,
      body: (v) => ({ name: v }),
      field: 'name',
      plain: name('Support'),
    },
    {
      what: 'a caller identity',
      method: 'PATCH',
      url: () => `/caller-identities/${identity}`,
      body: (v) => ({ external_caller_number: v }),
      field: 'external_caller_number',
      plain: name('+352621123456'),
    },
    {
      what: 'a twinning',
      method: 'PATCH',
      url: () => `/users/${user}/twinnings/${twinning}`,
      body: (v) => ({ phone_number: v }),
      field: 'phone_number',
      plain: freshNumber,
    },
    {
      what: 'a twinning',
      method: 'PATCH',
      url: () => `/users/${user}/twinnings/${twinning}`,
      body: (v) => ({ backup_phone_number: v }),
      field: 'backup_phone_number',
      plain: freshNumber,
    },
    { what: 'a new user group', method: 'POST', url: () => `/users/${user}/user-groups`, body: (v) => ({ name: v }), field: 'name', plain: name('Support') },
    {
      what: 'a user group',
      method: 'PATCH',
      url: () => `/users/${user}/user-groups/${group}`,
      body: (v) => ({ name: v }),
      field: 'name',
      plain: name('Sales team'),
    },
    {
      what: 'a new forward',
      method: 'POST',
      url: () => `/users/${user}/forwards`,
      body: (v) => ({ type: 'busy', destination_type: 'number', destination: v }),
      field: 'destination',
      plain: name('+352621987654'),
    },
    // Routing.
    { what: 'a sound file', method: 'PATCH', url: () => `/sound-files/${sound}`, body: (v) => ({ name: v }), field: 'name', plain: name('Welcome') },
    {
      what: 'a new IVR',
      method: 'POST',
      url: () => '/ivrs',
      body: (v) => ({ pbx_id: admin.pbxId, name: v, announcement: sound }),
      field: 'name',
      plain: name('Main menu'),
    },
    { what: 'an IVR', method: 'PATCH', url: () => `/ivrs/${ivr}`, body: (v) => ({ name: v }), field: 'name', plain: name('Main menu') },
    {
      what: 'a new IVR step',
      method: 'POST',
      url: () => `/ivrs/${ivr}/steps`,
      body: (v) => ({ option: '1', target_type: STEP_TARGET_TYPES.call_flow, target_id: flow, name: v }),
      field: 'name',
      plain: name('Sales'),
    },
    { what: 'a new queue', method: 'POST', url: () => '/queues', body: (v) => ({ name: v }), field: 'name', plain: name('Sales') },
    { what: 'a queue', method: 'PATCH', url: () => `/queues/${queue}`, body: (v) => ({ name: v }), field: 'name', plain: name('Support') },
    {
      what: 'a queue',
      method: 'PATCH',
      url: () => `/queues/${queue}`,
      body: (v) => ({ overflow: { type: 'external', number: v } }),
      field: 'overflow.number',
      plain: name('+352621987654'),
    },
    {
      what: 'a new call flow',
      method: 'POST',
      url: () => '/call-flows',
      body: (v) => ({ name: v, entry: 'start', nodes: [{ key: 'start', type: 'hangup' }] }),
      field: 'name',
      plain: name('Office hours'),
    },
    { what: 'a call flow', method: 'PATCH', url: () => `/call-flows/${flow}`, body: (v) => ({ name: v }), field: 'name', plain: name('Office hours') },
    {
      what: 'a call flow',
      method: 'PATCH',
      url: () => `/call-flows/${flow}`,
      body: (v) => ({ entry: 'out', nodes: [{ key: 'out', type: 'forward', number: v }] }),
      field: 'nodes.0.number',
      plain: name('+352621987654'),
    },
  ];

  const message = (field: string, secret?: boolean) =>
    secret
      ? `The ${field.replace(/_/g, ' ')} field must not contain control characters such as line breaks, begin or end with white space, or begin with a backslash.`
      : `The ${field.replace(/_/g, ' ')} field must not contain control characters such as line breaks.`;

  it.each(CASES.map((c) => [`${c.method} ${c.what}: ${c.field}`, c] as const))('%s', async (_, c) => {
    for (const control of CONTROLS) {
      const value = withControl(c.plain(), control);
      const refused = await call(c.method, c.url(), admin.token, c.body(value));
      expect(refused.statusCode, JSON.stringify(value)).toBe(422);
      expect(refused.json(), JSON.stringify(value)).toEqual({ message: message(c.field, c.secret), errors: { [c.field]: [message(c.field, c.secret)] } });
    }
    const taken = await call(c.method, c.url(), admin.token, c.body(c.plain()));
    expect(taken.statusCode, taken.body).toBeLessThan(300);
  });

  it('refuses a secret the PBX would read back otherwise: white space around it, a leading backslash', async () => {
    for (const secret of [' a-long-sip-secret', 'a-long-sip-secret ', '\\a-long-sip-secret', 'a-long-sip-secret\u00a0']) {
      const refused = await call('PATCH', `/sip-devices/${device}`, admin.token, { secret });
      expect(refused.statusCode, JSON.stringify(secret)).toBe(422);
      expect(refused.json().errors).toEqual({ secret: [message('secret', true)] });
    }
    // Inside the secret, a space, a `;` or a backslash are kept as they are.
    expect((await call('PATCH', `/sip-devices/${device}`, admin.token, { secret: 'a long; sip\\secret' })).statusCode).toBe(200);
  });

  it("refuses a sound file's name with a line break in the multipart upload too", async () => {
    const upload = (fields: Record<string, string>) => {
      const body = multipart({ name: 'welcome.wav', content: toneWav({ seconds: 0.5, frequencyHz: 440 }), type: 'audio/wav' }, fields);
      return t.app.inject({ method: 'POST', url: '/api/v1/sound-files', headers: { ...bearer(admin.token), ...body.headers }, payload: body.payload });
    };
    for (const control of CONTROLS) {
      const refused = await upload({ name: `Wel${control}come`, type: 'announcement' });
      expect(refused.statusCode, JSON.stringify(control)).toBe(422);
      expect(refused.json().errors).toEqual({ name: [message('name')] });
    }
    expect((await upload({ name: 'Welcome', type: 'announcement' })).statusCode).toBe(201);
  });

  it('keeps line breaks in free text the PBX never reads as a line: descriptions and comments', async () => {
    const described = await call('PATCH', `/call-flows/${flow}`, admin.token, { description: 'Business hours\nLuxembourg holidays closed' });
    expect(described.statusCode).toBe(200);
    expect(described.json().data.description).toBe('Business hours\nLuxembourg holidays closed');
    const commented = await call('PATCH', `/ivrs/${ivr}`, admin.token, { comment: '1 sales\n2 support' });
    expect(commented.statusCode).toBe(200);
    expect(commented.json().data.comment).toBe('1 sales\n2 support');
  });

  it('shows the rule in the OpenAPI document: the pattern on each such field', async () => {
    const document = (await t.app.inject({ url: '/api/v1/openapi.json' })).json<{ paths: Record<string, Record<string, unknown>> }>();
    const body = (path: string, method: string) =>
      (document.paths[path][method] as { requestBody: { content: { 'application/json': { schema: { properties: Record<string, { pattern?: string }> } } } } })
        .requestBody.content['application/json'].schema.properties;
    expect(body('/users', 'post').first_name.pattern).toBe('^[^\\u0000-\\u001F\\u007F-\\u009F\\u2028\\u2029]*$');
    expect(body('/sip-devices', 'post').secret.pattern).toMatch(/^\^\(\?!/);
  });
});
