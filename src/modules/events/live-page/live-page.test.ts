import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Browser, browserSuite, type Page } from '../../../../test/chromium.js';
import { bearer, buildTestApp, type TestApp, useTestApp } from '../../../../test/helpers.js';
import { seedDemo, type DemoTenant } from '../../../demo-seed.js';
import { handleAmiEvent } from '../../calls/engine/ami/events.js';
import { ContactPresence } from '../../calls/engine/ami/presence.js';
import { AmiMessage } from '../../calls/engine/ami/protocol.js';

const PROJECT = process.env.TEST_DB ?? 'sqlite';
/** Looked at after a run: the board with calls and phones on it. */
const SCREENSHOT = `/tmp/live-page${PROJECT === 'sqlite' ? '' : `-${PROJECT}`}.png`;

/** `default-src 'none';…` as a map of directive to its sources. */
const directives = (header: unknown) =>
  Object.fromEntries(
    String(header)
      .split(';')
      .map((directive) => directive.trim().split(/\s+/))
      .map(([name, ...sources]) => [name, sources]),
  );

describe('the live page’s files', () => {
  const t = useTestApp();

  it('are served to anyone, each with its type and the page’s policy: its own script and styles, requests to the API, no inline script', async () => {
    const page = await t.app.inject('/api/v1/live');
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    const csp = directives(page.headers['content-security-policy']);
    expect(csp['default-src']).toEqual(["'none'"]);
    expect(csp['script-src']).toEqual(["'self'"]);
    expect(csp['style-src']).toEqual(["'self'"]);
    expect(csp['connect-src']).toEqual(["'self'", 'http://pbx.test']);
    expect(csp['form-action']).toEqual(["'none'"]);
    expect(csp['frame-ancestors']).toEqual(["'none'"]);
    expect(page.headers['x-frame-options']).toBe('DENY');
    expect(page.headers['referrer-policy']).toBe('no-referrer');
    expect(page.body).not.toMatch(/<script>|<script [^>]*>[^<\s]|<style|style="|\son[a-z]+="/);

    // Its icon is inline (data:), so the browser asks for no /favicon.ico; all else is its own files.
    const assets = [...page.body.matchAll(/(?:src|href)="([^"]+)"/g)].map((match) => match[1]).filter((url) => !url.startsWith('data:'));
    expect(assets).toEqual(['live/app.css', 'live/app.js']);
    const types = { 'live/app.css': 'text/css; charset=utf-8', 'live/app.js': 'text/javascript; charset=utf-8' };
    for (const asset of assets) {
      const response = await t.app.inject(`/api/v1/${asset}`);
      expect(response.statusCode, asset).toBe(200);
      expect(response.headers['content-type'], asset).toBe(types[asset as keyof typeof types]);
      expect(response.headers['content-security-policy'], asset).toBe(page.headers['content-security-policy']);
    }
    // It names its files relative to itself, so `/live/` leads to `/live`.
    const slash = await t.app.inject('/api/v1/live/');
    expect([slash.statusCode, slash.headers.location]).toEqual([302, '../live']);
    // The API's own answers keep the API's policy.
    expect(directives((await t.app.inject('/api/v1/events/tickets')).headers['content-security-policy'])['default-src']).toEqual(["'none'"]);
    expect(directives((await t.app.inject('/api/v1/me')).headers['content-security-policy'])['script-src']).toBeUndefined();
  });

  it('are not in the OpenAPI document', async () => {
    const document = (await t.app.inject('/api/v1/openapi.json')).json<{ paths: Record<string, unknown> }>();
    expect(Object.keys(document.paths).filter((path) => path.startsWith('/live'))).toEqual([]);
  });
});

/** The live page's board read from the DOM: each call row's text, and each phone's. */
interface Board {
  calls: Array<{ id: string; status: string; state: string; from: string; fromDetail: string; to: string; toDetail: string; duration: string }>;
  devices: Array<{ state: string; name: string; detail: string; text: string }>;
}
const READ_BOARD = `(() => {
  const text = (element, selector) => element.querySelector(selector).textContent;
  return {
    calls: [...document.querySelectorAll('#calls .call')].map((row) => ({
      id: row.dataset.callId, status: row.dataset.status, state: text(row, '.state'),
      from: text(row, '.from .name'), fromDetail: text(row, '.from .detail'), to: text(row, '.to .name'), toDetail: text(row, '.to .detail'),
      duration: text(row, '.duration'),
    })),
    devices: [...document.querySelectorAll('#devices .device')].map((tile) => ({
      state: tile.dataset.state, name: text(tile, '.device-name'), detail: text(tile, '.device-detail'), text: text(tile, '.device-state'),
    })),
  };
})()`;

/** The stream's longest life here: the page must come back with a fresh ticket after it. */
const STREAM_LIFETIME_MS = 2500;

browserSuite('the live page in headless Chromium', () => {
  let t: TestApp;
  let base: string;
  let demo: DemoTenant;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    t = await buildTestApp({
      env: { JOB_WORKER: 'false' },
      config: { eventStream: { heartbeatMs: 15_000, maxMs: STREAM_LIFETIME_MS, backlogEvents: 1000, backlogBytes: 1024 * 1024 } },
    });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}/api/v1`;
    demo = (await seedDemo(t.ctx)).seed.tenants[0];
    browser = await Browser.launch();
    page = await browser.newPage(1600, 900);
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  const api = async (method: 'GET' | 'POST', url: string, token: string, payload?: object) => {
    const response = await t.app.inject({ method, url: `/api/v1${url}`, headers: bearer(token), ...(payload ? { payload } : {}) });
    expect(response.statusCode, `${method} ${url}: ${response.body}`).toBeLessThan(300);
    return response.json<{ data: Record<string, unknown> }>().data;
  };
  const signIn = async (email: string, password: string) => {
    const response = await t.app.inject({ method: 'POST', url: '/api/v1/login', payload: { email, password } });
    return response.json<{ data: { token: string } }>().data.token;
  };
  const board = () => page.evaluate<Board>(READ_BOARD);

  it('signs in, shows calls as they are placed and end and phones as they register, and resumes with a fresh ticket', async () => {
    const tenant = { pbxId: demo.pbx_id };
    const [, luc] = demo.users;
    const admin = await signIn(demo.admin.email, demo.admin.password);

    await page.goto(`${base}/live`);
    expect(await page.evaluate('document.getElementById("board").hidden')).toBe(true);
    await page.type('#email', demo.admin.email);
    await page.type('#password', demo.admin.password);
    await page.click('#signin-button');
    await page.waitFor(`document.getElementById('connection').dataset.state === 'live'`);
    const signedInAt = Date.now();
    expect(await page.evaluate('document.getElementById("tenant").textContent')).toBe('Acme Logistics S.à r.l.');
    // The PBX's phones from the API before any presence event: known, not heard of yet.
    await page.waitFor(`document.querySelectorAll('#devices .device').length > 0`);
    expect((await board()).devices).toEqual([{ state: 'unknown', name: 'Front desk phone', detail: 'ext 202 · Luc Weber', text: 'No news' }]);

    // Luc calls Marie's extension on the simulated engine: his desk phone rings first.
    const lucToken = await signIn(luc.email, luc.password);
    const placed = await api('POST', '/calls/new', lucToken, { destination: '203' });
    const lucCall = placed.call_id as string;
    await page.waitFor(`document.querySelector('[data-call-id="${lucCall}"][data-status="ringing"]')`);
    expect((await board()).calls).toEqual([
      expect.objectContaining({
        id: lucCall,
        state: 'Ringing',
        from: 'Luc Weber',
        fromDetail: 'on Front desk phone',
        to: 'Marie Hoffmann',
        toDetail: 'ext 203',
      }),
    ]);

    // Two more phones (one named like markup, which must show as text), and Anna calls out on hers.
    const extensions = await t.app.inject({ url: '/api/v1/extensions?perPage=100', headers: bearer(admin) });
    const annaExtension = extensions.json<{ data: Array<{ id: string; number: string }> }>().data.find((extension) => extension.number === '201')!;
    const reception = await api('POST', '/sip-devices', admin, { name: 'Reception', user_id: demo.admin.id, extension_id: annaExtension.id });
    const lobby = await api('POST', '/sip-devices', admin, { name: '<b>Lobby</b> phone' });
    const annaCall = (await api('POST', '/calls/new', admin, { destination: '+352 621 123 456' })).call_id as string;
    await page.waitFor(`document.querySelector('[data-call-id="${annaCall}"][data-status="ringing"]')`);

    // Presence as the AMI listener reports it, after the stream's longest life: the page is on its second stream by then.
    await sleep(Math.max(0, signedInAt + STREAM_LIFETIME_MS + 500 - Date.now()));
    const desk = (
      await t.ctx.db
        .selectFrom('sip_devices')
        .select('username')
        .where('name', '=', 'Front desk phone')
        .where('pbx_id', '=', tenant.pbxId)
        .executeTakeFirstOrThrow()
    ).username;
    const presence = new ContactPresence();
    const contact = (aor: string, status: string, rtt = '0') =>
      handleAmiEvent(
        t.ctx,
        tenant,
        new AmiMessage(
          Object.entries({ Event: 'ContactStatus', URI: `sip:${aor}@192.0.2.10:5060`, ContactStatus: status, AOR: aor, EndpointName: aor, RoundtripUsec: rtt }),
        ),
        { presence },
      );
    await contact(desk, 'Reachable', '12400');
    await contact(reception.username as string, 'NonQualified');
    await contact(lobby.username as string, 'NonQualified');
    await contact(lobby.username as string, 'Removed');
    await page.waitFor(`document.querySelectorAll('#devices .device[data-state="registered"]').length === 2`);
    await page.waitFor(`document.querySelectorAll('#devices .device[data-state="unregistered"]').length === 1`);
    const shown = await board();
    expect(shown.devices).toEqual([
      { state: 'unregistered', name: '<b>Lobby</b> phone', detail: '', text: 'Offline' },
      { state: 'registered', name: 'Front desk phone', detail: 'ext 202 · Luc Weber', text: 'Registered · 12 ms' },
      { state: 'registered', name: 'Reception', detail: 'ext 201 · Anna Schmit', text: 'Registered' },
    ]);
    expect(await page.evaluate('document.querySelectorAll("#devices b, #calls b").length')).toBe(0);
    expect(shown.calls.map((call) => [call.from, call.to, call.state])).toEqual([
      ['Luc Weber', 'Marie Hoffmann', 'Ringing'],
      ['Anna Schmit', '+352621123456', 'Ringing'],
    ]);
    expect(await page.evaluate('document.getElementById("call-count").textContent')).toBe('2');
    expect(await page.evaluate('document.getElementById("device-count").textContent')).toBe('2 of 3 registered');
    await page.screenshot(SCREENSHOT);

    // A busy morning: a dozen calls fit the screen without scrolling, and those beyond are counted below them.
    for (let i = 0; i < 11; i++) await api('POST', '/calls/new', lucToken, { destination: `+352 26 ${120_000 + i}` });
    await page.waitFor(`document.getElementById('call-count').textContent === '13'`);
    const layout = await page.evaluate<Record<string, number | string>>(`(() => {
      const rows = document.querySelectorAll('#calls .call');
      const more = document.getElementById('more-calls');
      return { rows: rows.length, more: more.textContent, lastRow: rows[rows.length - 1].getBoundingClientRect().bottom,
        moreLine: more.getBoundingClientRect().bottom, panel: document.querySelector('.calls-panel').getBoundingClientRect().bottom,
        scroll: document.scrollingElement.scrollHeight, height: window.innerHeight };
    })()`);
    expect(layout).toMatchObject({ rows: 12, more: '+ 1 more' });
    expect(layout.moreLine).toBeLessThanOrEqual(layout.panel as number);
    expect(layout.scroll).toBeLessThanOrEqual(layout.height as number);
    await page.screenshot(SCREENSHOT.replace('.png', '-busy.png'));

    // The simulated engine answers and ends the calls when their records are due: they leave the board.
    t.clock.advance(t.ctx.config.simulatedCdrDelaySeconds + 1);
    expect(await t.app.jobs.drain()).toBeGreaterThanOrEqual(13);
    await page.waitFor(`document.querySelectorAll('#calls .call').length === 0`, 15_000);
    expect(await page.evaluate('document.getElementById("no-calls").hidden')).toBe(false);

    // Every stream was opened with a ticket of its own and resumed after the last event seen; no token ever went into a URL.
    const streams = page.requests.filter((url) => url.includes('/events/stream')).map((url) => new URL(url).searchParams);
    expect(streams.length).toBeGreaterThanOrEqual(2);
    expect(new Set(streams.map((query) => query.get('ticket'))).size).toBe(streams.length);
    expect(streams[0].get('last_event_id')).toBe('0');
    expect(Number(streams.at(-1)!.get('last_event_id'))).toBeGreaterThan(0);
    expect(streams.every((query) => query.get('kinds') === 'call.*,device.*')).toBe(true);
    expect(page.requests.filter((url) => /pbx[a-z]_/.test(url))).toEqual([]);
    expect(await page.evaluate('localStorage.length + sessionStorage.length + document.cookie.length')).toBe(0);
    expect(page.problems).toEqual([]);

    // Signing out closes the stream and ends the session.
    await page.click('#signout');
    await page.waitFor(`!document.getElementById('signin').hidden`);
    await page.screenshot(SCREENSHOT.replace('.png', '-signin.png'));
    for (let i = 0; i < 100 && (t.ctx.events.subscriptions().get(tenant.pbxId) ?? 0) > 0; i++) await sleep(50);
    expect(t.ctx.events.subscriptions().get(tenant.pbxId) ?? 0).toBe(0);
  }, 90_000);
});
