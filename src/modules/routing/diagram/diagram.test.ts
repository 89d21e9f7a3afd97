import { randomUUID } from 'node:crypto';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { beforeAll, describe, expect, it } from 'vitest';
import { seedDemo, type DemoTenant } from '../../../demo-seed.js';
import { issueUserToken } from '../../../platform/auth/tokens.js';
import { createKey, createUser } from '../../../../test/factories.js';
import { useTestApp } from '../../../../test/helpers.js';

/** Every text of an SVG document, as its parser reads it (entities decoded). */
export function svgTexts(svg: string): string[] {
  const texts: string[] = [];
  const walk = (value: unknown, inText: boolean): void => {
    if (typeof value === 'string' || typeof value === 'number') {
      if (inText) texts.push(String(value));
    } else if (Array.isArray(value)) for (const item of value) walk(item, inText);
    else if (value && typeof value === 'object')
      for (const [name, child] of Object.entries(value)) if (!name.startsWith('@_')) walk(child, inText || name === 'text' || name === 'title');
  };
  walk(new XMLParser({ ignoreAttributes: false, processEntities: true, htmlEntities: true }).parse(svg), false);
  return texts;
}

/** The element names of an SVG document. */
function elementNames(svg: string): Set<string> {
  const names = new Set<string>();
  const walk = (value: unknown): void => {
    if (Array.isArray(value)) for (const item of value) walk(item);
    else if (value && typeof value === 'object')
      for (const [name, child] of Object.entries(value)) {
        if (name.startsWith('@_') || name === '#text') continue;
        names.add(name);
        walk(child);
      }
  };
  walk(new XMLParser({ ignoreAttributes: false }).parse(svg));
  return names;
}

/** Mermaid's labels by node id, entity codes decoded, and the ids drawn as the path. */
function mermaidNodes(text: string): { labels: Map<string, string>; path: string[]; pathEdges: string[] } {
  const labels = new Map<string, string>();
  for (const match of text.matchAll(/^\s+(n\d+)[([{>/\\]+"(.*)"[)\]}/\\]+$/gm)) {
    labels.set(
      match[1],
      match[2].replace(/<br>/g, ' / ').replace(/#(quot|lt|gt|amp|35|96|124);/g, (_, code: string) => MERMAID_DECODED[code]),
    );
  }
  const path = /^\s+class (\S+) path$/m.exec(text)?.[1].split(',') ?? [];
  const edges = [...text.matchAll(/^\s+(n\d+) -->(?:\|"(.*)"\|)? (n\d+)$/gm)].map(([, from, label, to]) => ({ from, label: label ?? null, to }));
  const drawn = /^\s+linkStyle (\S+) stroke/m.exec(text)?.[1].split(',').map(Number) ?? [];
  /** The highlighted arrows as `from -label-> to`, by the boxes' first two lines. */
  const name = (id: string) => labels.get(id)!.split(' / ').slice(0, 2).join(' ');
  const pathEdges = drawn.map((index) => edges[index]).map((edge) => `${name(edge.from)} -${edge.label ?? ''}-> ${name(edge.to)}`);
  return { labels, path, pathEdges };
}
const MERMAID_DECODED: Record<string, string> = { quot: '"', lt: '<', gt: '>', amp: '&', '35': '#', '96': '`', '124': '|' };

describe('routing diagrams', () => {
  const t = useTestApp({ env: { RATE_LIMIT_PER_MINUTE: '1000000', JOB_WORKER: 'false', AMI_EVENTS: 'false' } });
  let acme: DemoTenant;
  let other: DemoTenant;
  let admin: string;
  let member: string;
  let stranger: string;
  let mainLine: string;
  const get = (url: string, token: string, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'GET', url: `/api/v1${url}`, headers: { authorization: `Bearer ${token}`, ...headers } });

  beforeAll(async () => {
    const { seed } = await seedDemo(t.ctx);
    [acme, other] = seed.tenants;
    const token = (tenant: DemoTenant, id: string) => issueUserToken(t.ctx.db, t.ctx.clock, { id, pbx_id: tenant.pbx_id }, { name: 'test', ttlSeconds: 3600 });
    admin = await token(acme, acme.admin.id);
    member = await token(acme, acme.users.find((user) => user.id !== acme.admin.id)!.id);
    stranger = await token(other, other.admin.id);
    mainLine = String(acme.samples.routed_number);
  }, 120_000);

  it("draws the demo's main number as SVG that parses and names every node of its route", async () => {
    const response = await get(`/phone-numbers/${mainLine}/route-diagram`, admin);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('image/svg+xml; charset=utf-8');
    const svg = response.body;
    expect(XMLValidator.validate(svg)).toBe(true);
    const text = svgTexts(svg).join('\n');

    const db = t.ctx.db;
    const number = await db.selectFrom('phone_numbers').select(['number', 'label']).where('id', '=', mainLine).executeTakeFirstOrThrow();
    const flows = await db.selectFrom('call_flows').select(['name', 'nodes']).where('pbx_id', '=', acme.pbx_id).execute();
    const ivrs = await db.selectFrom('ivrs').select('name').where('pbx_id', '=', acme.pbx_id).execute();
    const queues = await db.selectFrom('queues').select('name').where('pbx_id', '=', acme.pbx_id).execute();
    const steps = await db.selectFrom('ivr_steps').select(['option', 'name']).where('pbx_id', '=', acme.pbx_id).execute();
    const users = await db.selectFrom('users').select(['id', 'first_name', 'last_name']).where('pbx_id', '=', acme.pbx_id).execute();
    const queueMembers = await db.selectFrom('queue_members').select('member_id').where('pbx_id', '=', acme.pbx_id).execute();
    // The users the main line can ring: the sales ring group's, the support queue's, the voicemail's (the admin).
    const rung = new Set([...queueMembers.map((m) => m.member_id), acme.admin.id]);
    for (const flow of flows)
      for (const node of JSON.parse(flow.nodes) as Array<{ members?: Array<{ user_id: string }> }>) for (const m of node.members ?? []) rung.add(m.user_id);
    const devices = await db
      .selectFrom('sip_devices')
      .select('name')
      .where('user_id', 'in', [...rung])
      .where('deleted_at', 'is', null)
      .where('enabled', '=', 1)
      .execute();

    const expected = [
      number.number,
      number.label!,
      ...flows.map((flow) => `Call flow: ${flow.name}`),
      ...flows.flatMap((flow) => (JSON.parse(flow.nodes) as Array<{ key: string }>).map((node) => node.key)),
      ...ivrs.map((ivr) => ivr.name),
      ...queues.map((queue) => queue.name),
      ...steps.filter((step) => step.option !== 'default').map((step) => `${step.option} ${step.name}`),
      'no key: default step Support (no key)',
      'Closed: office hours',
      'Closed: public holiday',
      'open Mon–Fri 08:00–18:00',
      "holidays: LU and the PBX's",
      ...users.filter((user) => rung.has(user.id)).map((user) => `${user.first_name} ${user.last_name}`),
      ...devices.map((device) => device.name),
    ];
    expect(devices.length).toBeGreaterThan(0);
    for (const name of expected) expect(text, name).toContain(name);
  });

  it('answers Mermaid by format or Accept, and refuses what the Accept header rules out', async () => {
    const mermaid = await get(`/phone-numbers/${mainLine}/route-diagram?format=mermaid`, admin);
    expect(mermaid.statusCode).toBe(200);
    expect(mermaid.headers['content-type']).toBe('text/vnd.mermaid; charset=utf-8');
    expect(mermaid.body.startsWith('flowchart TD\n')).toBe(true);
    expect(mermaidNodes(mermaid.body).labels.size).toBeGreaterThan(10);

    const byAccept = await get(`/phone-numbers/${mainLine}/route-diagram`, admin, { accept: 'text/vnd.mermaid' });
    expect(byAccept.headers['content-type']).toBe('text/vnd.mermaid; charset=utf-8');
    expect(byAccept.body).toBe(mermaid.body);
    const preferred = await get(`/phone-numbers/${mainLine}/route-diagram`, admin, { accept: 'image/svg+xml;q=0.5, text/vnd.mermaid' });
    expect(preferred.headers['content-type']).toContain('text/vnd.mermaid');
    const browser = await get(`/phone-numbers/${mainLine}/route-diagram`, admin, { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' });
    expect(browser.headers['content-type']).toContain('image/svg+xml');

    const refused = await get(`/phone-numbers/${mainLine}/route-diagram?format=mermaid`, admin, { accept: 'image/svg+xml' });
    expect(refused.statusCode).toBe(406);
    expect(refused.json().message).toContain('format=mermaid');
    expect((await get(`/phone-numbers/${mainLine}/route-diagram`, admin, { accept: 'application/json' })).statusCode).toBe(406);
    expect((await get(`/phone-numbers/${mainLine}/route-diagram?format=png`, admin)).statusCode).toBe(422);
    expect((await get(`/phone-numbers/${mainLine}/route-diagram?colour=red`, admin)).statusCode).toBe(422);
    expect((await get('/phone-numbers/not-a-uuid/route-diagram', admin)).statusCode).toBe(422);
    expect((await get('/call-flows/not-a-uuid/diagram', admin)).statusCode).toBe(422);
  });

  it("draws a call flow and an IVR for whoever reads routing, and nothing of another tenant's", async () => {
    const flow = String(acme.samples.call_flow);
    const ivr = String(acme.samples.ivr);
    for (const token of [admin, member, await createKey(t.ctx, { pbxId: acme.pbx_id }, 'integration', ['call-routing'])]) {
      const flowPicture = await get(`/call-flows/${flow}/diagram?format=mermaid`, token);
      expect(flowPicture.statusCode).toBe(200);
      expect(flowPicture.body).toContain('Call flow: Main number');
      const ivrPicture = await get(`/ivrs/${ivr}/diagram`, token);
      expect(ivrPicture.statusCode).toBe(200);
      expect(svgTexts(ivrPicture.body).join('\n')).toContain('Main menu');
      // The menu's picture starts at the menu: the main number's flow is not drawn.
      expect(svgTexts(ivrPicture.body).join('\n')).not.toContain('Call flow: Main number');
    }
    const tenant = { pbxId: acme.pbx_id };
    expect((await get(`/phone-numbers/${mainLine}/route-diagram`, await createKey(t.ctx, tenant, 'integration', ['call-routing']))).statusCode).toBe(403);
    expect((await get(`/phone-numbers/${mainLine}/route-diagram`, await createKey(t.ctx, tenant, 'integration', ['phone-numbers']))).statusCode).toBe(403);
    expect(
      (await get(`/phone-numbers/${mainLine}/route-diagram`, await createKey(t.ctx, tenant, 'integration', ['phone-numbers', 'call-routing']))).statusCode,
    ).toBe(200);
    expect((await get(`/call-flows/${flow}/diagram`, await createKey(t.ctx, tenant, 'integration', ['contacts']))).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: `/api/v1/call-flows/${flow}/diagram` })).statusCode).toBe(401);

    for (const url of [`/phone-numbers/${mainLine}/route-diagram`, `/call-flows/${flow}/diagram`, `/ivrs/${ivr}/diagram`]) {
      const theirs = await get(url, stranger);
      const nowhere = await get(url.replace(/[0-9a-f-]{36}/, randomUUID()), admin);
      expect(theirs.statusCode, url).toBe(404);
      expect(theirs.json()).toEqual(nowhere.json());
    }
  });

  it('draws hostile names as text: quotes, brackets, newlines, backslashes and markup', async () => {
    const hostile = 'Evil "flow" [x] {y} |z| #1; `code`\n<script>alert(1)</script> & \\N \\G';
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/v1/call-flows',
      headers: { authorization: `Bearer ${admin}` },
      payload: { name: hostile.replace('\n', ' '), entry: 'bye', nodes: [{ key: 'bye', type: 'hangup', label: '"><img src=x onerror=alert(2)>' }] },
    });
    expect(created.statusCode).toBe(201);
    const id = created.json().data.id as string;
    // The API refuses a newline in a name; an older row may hold one.
    await t.ctx.db.updateTable('call_flows').set({ name: hostile }).where('id', '=', id).execute();
    const flat = hostile.replace(/\s+/g, ' ');

    const svg = (await get(`/call-flows/${id}/diagram?format=svg`, admin)).body;
    expect(XMLValidator.validate(svg)).toBe(true);
    expect(elementNames(svg).has('script')).toBe(false);
    expect(elementNames(svg).has('img')).toBe(false);
    expect(svgTexts(svg)).toContain(`Call flow: ${flat}`);
    expect(svgTexts(svg).join('\n')).toContain('"><img src=x onerror=alert(2)> (bye)');

    const mermaid = (await get(`/call-flows/${id}/diagram?format=mermaid`, admin)).body;
    expect(mermaid).not.toMatch(/<script|<img/);
    expect(mermaid.split('\n').find((line) => line.includes('subgraph'))).toBe(
      '  subgraph c1["Call flow: Evil #quot;flow#quot; [x] {y} #124;z#124; #35;1; #96;code#96; #lt;script#gt;alert(1)#lt;/script#gt; #amp; \\N \\G"]',
    );
    expect([...mermaidNodes(mermaid).labels.values()]).toContain('Hang up: "><img src=x onerror=alert(2)> (bye)');
  });

  it('adds the picture to a simulation when asked, with the path highlighted, and leaves the answer alone otherwise', async () => {
    const number = (await t.ctx.db.selectFrom('phone_numbers').select('number').where('id', '=', mainLine).executeTakeFirstOrThrow()).number;
    const simulate = (body: object) =>
      t.app.inject({ method: 'POST', url: '/api/v1/call-routing/simulate', headers: { authorization: `Bearer ${admin}` }, payload: { number, ...body } });
    // Tuesday 24 November 2026, 10:00 in Luxembourg: open; key 1 is sales.
    const call = { at: '2026-11-24T09:00:00Z', keys: ['1'] };
    const plain = await simulate(call);
    expect(plain.statusCode).toBe(200);
    expect(Object.keys(plain.json().data)).toEqual(['number', 'caller', 'at', 'local_time', 'result', 'answered_by', 'steps', 'problems']);

    const pictured = await simulate({ ...call, diagram: 'mermaid' });
    expect(pictured.statusCode).toBe(200);
    const { diagram, ...rest } = pictured.json().data;
    expect(rest).toEqual(plain.json().data);
    expect(diagram).toMatchObject({ format: 'mermaid', media_type: 'text/vnd.mermaid' });
    const { labels, path } = mermaidNodes(diagram.content as string);
    const onPath = path.map((id) => labels.get(id));
    expect(onPath).toEqual([
      expect.stringContaining('Phone number'),
      expect.stringContaining('Time condition: hours'),
      'Menu: menu',
      expect.stringContaining('Main menu'),
      expect.stringContaining('Ring group: team'),
      `User / ${plain.json().data.answered_by.name}`,
    ]);
    expect(diagram.content).toMatch(/linkStyle [\d,]+ stroke:#d9480f/);

    const closed = (await simulate({ at: '2026-11-24T20:00:00Z', diagram: 'svg' })).json().data;
    expect(closed.diagram.media_type).toBe('image/svg+xml');
    expect(XMLValidator.validate(closed.diagram.content)).toBe(true);
    expect(closed.diagram.content).toContain('stroke="#d9480f"');
    expect((await simulate({ ...call, diagram: 'png' })).statusCode).toBe(422);
  });

  it('follows the path through branches, menus played again, queues and a known caller’s own routing', async () => {
    const number = (await t.ctx.db.selectFrom('phone_numbers').select('number').where('id', '=', mainLine).executeTakeFirstOrThrow()).number;
    const simulate = async (body: object) => {
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/v1/call-routing/simulate',
        headers: { authorization: `Bearer ${admin}` },
        payload: { number, diagram: 'mermaid', ...body },
      });
      expect(response.statusCode, response.body).toBe(200);
      return mermaidNodes(response.json().data.diagram.content as string).pathEdges;
    };
    const adminMailbox = 'Voicemail Anna Schmit';
    expect(await simulate({ at: '2026-11-24T20:00:00Z' })).toEqual([
      `Phone number +35227123400 --> Time condition: hours open Mon–Fri 08:00–18:00`,
      `Time condition: hours open Mon–Fri 08:00–18:00 -closed-> Play: closed-message Closed: office hours`,
      `Play: closed-message Closed: office hours --> Voicemail: mailbox`,
      `Voicemail: mailbox --> ${adminMailbox}`,
    ]);
    // Christmas: the holiday branch.
    expect((await simulate({ at: '2026-12-25T09:00:00Z' }))[1]).toContain('-holiday-> Play: holiday-message');

    // 9 (language), 2 (French) back to the main menu, then 2 (support): the queue's first member answers.
    const support = await simulate({ at: '2026-11-24T09:00:00Z', keys: ['9', '2', '2'] });
    expect(support).toEqual(
      expect.arrayContaining([
        'IVR menu Main menu -9 Language-> IVR menu Language menu',
        'IVR menu Language menu -2 Français-> IVR menu Main menu',
        'IVR menu Main menu -2 Support-> Queue: queue',
        'Queue: queue --> Queue Support',
        'Queue Support -member, penalty 0-> User Anna Schmit',
      ]),
    );
    // Nobody answers: the overflow, not a member.
    const overflow = await simulate({ at: '2026-11-24T09:00:00Z', keys: ['2'], answer: 'nobody' });
    expect(overflow.at(-1)).toBe(`Queue Support -overflow-> ${adminMailbox}`);
    expect(overflow.join('\n')).not.toContain('member');

    // A caller who is a global contact routed to the sales flow goes there first.
    const sales = await t.ctx.db.selectFrom('call_flows').select('id').where('pbx_id', '=', acme.pbx_id).where('name', '=', 'Sales').executeTakeFirstOrThrow();
    const manager = await createUser(t.ctx, { tenant: { pbxId: acme.pbx_id }, role: 'admin', fields: { allow_manage_global_contacts: 1 } });
    const contact = await t.app.inject({
      method: 'POST',
      url: '/api/v1/contacts',
      headers: { authorization: `Bearer ${manager.token}` },
      payload: {
        name1: 'Very',
        name2: 'Important',
        contactPhoneNumbers: [{ phone_number: '+352691000777', type: 'mobile' }],
        handling_strategy: { type: 'call_flow', call_flow_id: sales.id },
      },
    });
    expect(contact.statusCode, contact.body).toBe(201);
    const known = await simulate({ at: '2026-11-24T09:00:00Z', caller: '+352691000777' });
    expect(known[0]).toBe('Phone number +35227123400 -known caller-> Caller routed by contact Very Important');
    expect(known[1]).toBe('Caller routed by contact Very Important --> Ring group: team simultaneous');
    expect(known.join('\n')).not.toContain('Time condition');
  });
});
