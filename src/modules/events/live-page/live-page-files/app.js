/* global document, fetch, EventSource, URL, setTimeout, clearTimeout, setInterval */
// The live page's script (GET /live): no framework and no build step, so it is read as served.
// Everything shown that comes from the API is set as text (textContent), never parsed as HTML.
(() => {
  'use strict';

  /** The API's address: the folder above this script's (…/api/v1/live/app.js), wherever the page is mounted. */
  const API = new URL('../', document.currentScript.src);
  const KINDS = ['call.placed', 'call.ringing', 'call.answered', 'call.ended', 'call.failed', 'device.registered', 'device.unregistered'];
  const STATES = { queued: 'Dialling', ringing: 'Ringing', answered: 'Connected', ended: 'Ended', failed: 'Failed' };
  /** How long an ended or failed call stays on the board, after its end. */
  const LINGER_MS = 5000;
  /** Rows the board shows; the rest are counted below them (a wall screen never scrolls). */
  const MAX_ROWS = 12;
  const MAX_BACKOFF_MS = 30000;
  /** How often a caller the page does not know yet (a new user) may make it read the directory again. */
  const DIRECTORY_REFRESH_MS = 30000;

  const $ = (id) => document.getElementById(id);

  // The token lives here only: never in the URL, in storage or in a cookie, so a reload signs out.
  let token = null;
  /** Bumped at each sign-in and sign-out: answers and timers of an earlier session then do nothing. */
  let session = 0;
  let source = null;
  let retry = null;
  let backoff = 1000;
  /** The last event id seen: the stream resumes after it (0: the first stream replays the events the server keeps). */
  let lastId = 0;
  /** The server's clock minus this browser's (from the answers' Date header), so durations are right on a screen whose clock is off. */
  let skew = 0;
  let timeZone;
  let directoryReadAt = 0;

  /** id -> { call, since, answeredAt, removeAt, receivers, element } */
  const calls = new Map();
  /** id -> { name, user_id, extension_id, state: 'registered' | 'unregistered' | 'unknown', detail, element } */
  const devices = new Map();
  /** user id -> full name */
  const users = new Map();
  /** extension id -> { number, name, user_id }, and number -> the same */
  const extensions = new Map();
  const extensionsByNumber = new Map();

  const now = () => Date.now() + skew;

  function messageOf(body) {
    if (!body || typeof body !== 'object') return '';
    if (typeof body.error === 'string') return body.error;
    if (typeof body.message === 'string') return body.message;
    return Array.isArray(body.message) ? body.message.join(' ') : '';
  }

  async function api(method, path, body) {
    const headers = { accept: 'application/json' };
    if (token) headers.authorization = `Bearer ${token}`;
    if (body) headers['content-type'] = 'application/json';
    const response = await fetch(new URL(path, API), {
      method,
      headers,
      body: body ? JSON.stringify(body) : undefined,
      cache: 'no-store',
      credentials: 'omit',
    });
    const date = Date.parse(response.headers.get('date') || '');
    if (!Number.isNaN(date)) skew = date - Date.now();
    const json = await response.json().catch(() => null);
    if (!response.ok) throw Object.assign(new Error(messageOf(json) || `HTTP ${response.status}`), { status: response.status });
    return json;
  }

  /** Every page of a list (at most 5,000 rows: a wall screen shows far fewer). */
  async function all(path) {
    const rows = [];
    for (let page = 1; page <= 50; page++) {
      const body = await api('GET', `${path}?perPage=100&page=${page}`);
      rows.push(...body.data);
      if (!body.links || !body.links.next) break;
    }
    return rows;
  }

  const fullName = (user) => [user.first_name, user.last_name].filter(Boolean).join(' ') || user.email || 'Unnamed user';
  /** A dialled number as the PBX compares it: the punctuation the API ignores left out. */
  const dialled = (number) => String(number).replace(/[\s()./-]/g, '');

  /** Who is who: the PBX's name and time zone, its people, extensions and (for administrators) SIP devices. */
  async function loadDirectory() {
    const mine = session;
    directoryReadAt = Date.now();
    const me = (await api('GET', 'me')).data;
    const [people, numbers, phones] = await Promise.all([
      all('users').catch(() => [me]),
      all('extensions').catch(() => []),
      // Administrators only: a user sees the devices whose presence events reach it.
      all('sip-devices').catch(() => []),
    ]);
    if (mine !== session) return;
    if (me.pbx && me.pbx.name) {
      $('tenant').textContent = me.pbx.name;
      document.title = `Live calls · ${me.pbx.name}`;
    }
    timeZone = me.pbx && me.pbx.timezone ? me.pbx.timezone : undefined;
    for (const user of people) users.set(user.id, fullName(user));
    extensions.clear();
    extensionsByNumber.clear();
    for (const extension of numbers) {
      const entry = { number: extension.number, name: extension.name, user_id: extension.user_id };
      extensions.set(extension.id, entry);
      extensionsByNumber.set(dialled(extension.number), entry);
    }
    for (const phone of phones) {
      if (phone.deleted_at) continue;
      const known = devices.get(phone.id);
      devices.set(phone.id, { state: 'unknown', detail: '', ...known, name: phone.name, user_id: phone.user_id, extension_id: phone.extension_id });
    }
    render();
  }

  /** Reads the directory again when an event names someone it does not know yet, at most every 30 s. */
  function refreshDirectorySoon() {
    if (Date.now() - directoryReadAt < DIRECTORY_REFRESH_MS) return;
    loadDirectory().catch(() => undefined);
  }

  // The stream: a one-time ticket per connection (EventSource's own reconnect would reuse a spent one).

  function setConnection(state, text) {
    const element = $('connection');
    element.dataset.state = state;
    element.textContent = text;
  }

  function later(delay = backoff) {
    clearTimeout(retry);
    setConnection('reconnecting', delay >= 1000 ? `Reconnecting in ${Math.round(delay / 1000)} s…` : 'Reconnecting…');
    const mine = session;
    retry = setTimeout(() => mine === session && connect(), delay);
    backoff = Math.min(backoff * 2, MAX_BACKOFF_MS);
  }

  function drop(stream) {
    stream.close();
    if (source === stream) source = null;
  }

  async function connect() {
    const mine = session;
    clearTimeout(retry);
    if (source) drop(source);
    setConnection('connecting', 'Connecting…');
    let ticket;
    try {
      ticket = (await api('POST', 'events/tickets')).data.ticket;
    } catch (error) {
      if (mine !== session) return;
      if (error.status === 401) return signOut('Your session has ended: sign in again.');
      return later();
    }
    if (mine !== session) return;
    const url = new URL('events/stream', API);
    url.searchParams.set('ticket', ticket);
    url.searchParams.set('kinds', 'call.*,device.*');
    url.searchParams.set('last_event_id', String(lastId));
    const stream = new EventSource(url);
    source = stream;
    stream.onopen = () => {
      backoff = 1000;
      setConnection('live', 'Live');
    };
    for (const kind of KINDS) stream.addEventListener(kind, onEvent);
    stream.addEventListener('reset', (message) => {
      lastId = Number(message.lastEventId) || lastId;
      reload().catch(() => undefined);
    });
    // The server ends a stream after its longest life, on shutdown or for a client that fell behind: resume after the last event.
    stream.addEventListener('close', () => {
      drop(stream);
      later(250);
    });
    stream.onerror = () => {
      if (source !== stream) return;
      drop(stream);
      later();
    };
  }

  /** Events were missed (the server no longer keeps them): what the board shows is read again over REST. */
  async function reload() {
    const mine = session;
    for (const device of devices.values()) device.state = 'unknown';
    await loadDirectory();
    for (const id of [...calls.keys()]) {
      try {
        const call = (await api('GET', `calls/${encodeURIComponent(id)}`)).data;
        if (mine !== session) return;
        callChanged({ data: call, time: call.updated_at });
      } catch {
        calls.get(id)?.element?.remove();
        calls.delete(id);
      }
    }
    render();
  }

  function onEvent(message) {
    const id = Number(message.lastEventId);
    if (id && id <= lastId) return;
    if (id) lastId = id;
    const event = JSON.parse(message.data);
    if (event.kind.startsWith('call.')) callChanged(event);
    else deviceChanged(event);
    render();
  }

  function callChanged(event) {
    const call = event.data;
    let entry = calls.get(call.id);
    if (!entry) {
      entry = { since: Date.parse(call.created_at), receivers: [], element: null };
      calls.set(call.id, entry);
    }
    entry.call = call;
    if (Array.isArray(call.receivers)) entry.receivers = call.receivers;
    if (call.status === 'answered' && !entry.answeredAt) entry.answeredAt = Date.parse(event.time);
    if (call.status === 'ended' || call.status === 'failed') entry.removeAt = Date.parse(call.ended_at || event.time) + LINGER_MS;
    if (!users.has(call.user_id)) refreshDirectorySoon();
  }

  function deviceChanged(event) {
    const id = event.subject.id;
    const data = event.data;
    const known = devices.get(id);
    const device = { element: null, ...known, name: data.name, user_id: data.user_id, extension_id: data.extension_id };
    device.state = event.kind === 'device.registered' ? 'registered' : 'unregistered';
    device.detail = data.pbx_status === 'Unreachable' ? 'not answering' : data.roundtrip_ms !== null ? `${Math.round(data.roundtrip_ms)} ms` : '';
    devices.set(id, device);
  }

  // Drawing: elements are made once per call and device from the page's templates, then only their text changes.

  function fromTemplate(id) {
    return $(id).content.firstElementChild.cloneNode(true);
  }

  function formatDuration(ms) {
    const seconds = Math.max(0, Math.floor(ms / 1000));
    const h = Math.floor(seconds / 3600);
    const m = Math.floor((seconds % 3600) / 60);
    const s = String(seconds % 60).padStart(2, '0');
    return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
  }

  function numbersOf(userId) {
    const own = [...extensions.values()].filter((extension) => extension.user_id === userId).map((extension) => extension.number);
    return own.length ? `ext ${own.join(', ')}` : '';
  }

  function setText(element, selector, text) {
    const target = element.querySelector(selector);
    if (target.textContent !== text) target.textContent = text;
  }

  function drawCall(entry) {
    const { call } = entry;
    const element = entry.element || (entry.element = fromTemplate('call-template'));
    element.dataset.callId = call.id;
    element.dataset.status = call.status;
    setText(element, '.state', STATES[call.status] || call.status);
    setText(element, '.from .name', users.get(call.user_id) || 'Unknown user');
    const ringingOn = call.status === 'ringing' && entry.receivers.length ? `on ${entry.receivers.map((receiver) => receiver.name).join(', ')}` : '';
    setText(element, '.from .detail', ringingOn || numbersOf(call.user_id));
    const internal = extensionsByNumber.get(dialled(call.destination));
    const callee = internal && internal.user_id ? users.get(internal.user_id) : undefined;
    setText(element, '.to .name', callee || (internal ? internal.name : call.destination));
    setText(element, '.to .detail', internal ? `ext ${internal.number}` : call.status === 'failed' && call.reason ? call.reason : '');
    const start = entry.answeredAt || entry.since;
    const end = call.status === 'ended' || call.status === 'failed' ? Date.parse(call.ended_at || '') || now() : now();
    setText(element, '.duration', formatDuration(end - start));
  }

  function drawDevice(device) {
    const element = device.element || (device.element = fromTemplate('device-template'));
    element.dataset.state = device.state;
    setText(element, '.device-name', device.name);
    const extension = device.extension_id ? extensions.get(device.extension_id) : undefined;
    const owner = device.user_id ? users.get(device.user_id) : undefined;
    setText(element, '.device-detail', [extension ? `ext ${extension.number}` : '', owner || ''].filter(Boolean).join(' · '));
    const state = { registered: 'Registered', unregistered: 'Offline', unknown: 'No news' }[device.state];
    setText(element, '.device-state', device.detail ? `${state} · ${device.detail}` : state);
  }

  /** Puts `elements` into `list` in this order, moving only those out of place. */
  function arrange(list, elements) {
    elements.forEach((element, index) => {
      if (list.children[index] !== element) list.insertBefore(element, list.children[index] || null);
    });
    while (list.children.length > elements.length) list.lastElementChild.remove();
  }

  function render() {
    const time = now();
    for (const [id, entry] of calls) {
      if (entry.removeAt !== undefined && entry.removeAt <= time) {
        entry.element?.remove();
        calls.delete(id);
      }
    }
    const shown = [...calls.values()].sort((a, b) => a.since - b.since);
    const live = shown.filter((entry) => entry.removeAt === undefined).length;
    shown.slice(0, MAX_ROWS).forEach(drawCall);
    arrange(
      $('calls'),
      shown.slice(0, MAX_ROWS).map((entry) => entry.element),
    );
    $('call-count').textContent = String(live);
    $('no-calls').hidden = shown.length > 0;
    $('more-calls').hidden = shown.length <= MAX_ROWS;
    $('more-calls').textContent = `+ ${shown.length - MAX_ROWS} more`;

    const phones = [...devices.values()].sort((a, b) => a.name.localeCompare(b.name));
    phones.forEach(drawDevice);
    arrange(
      $('devices'),
      phones.map((device) => device.element),
    );
    const registered = phones.filter((device) => device.state === 'registered').length;
    $('device-count').textContent = phones.length ? `${registered} of ${phones.length} registered` : '';
    $('no-devices').hidden = phones.length > 0;

    const clock = new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit', timeZone }).format(new Date(time));
    if ($('clock').textContent !== clock) $('clock').textContent = clock;
  }

  // Signing in and out.

  function showBoard(shown) {
    $('board').hidden = !shown;
    $('signin').hidden = shown;
  }

  function signOut(reason) {
    const old = token;
    session++;
    token = null;
    clearTimeout(retry);
    if (source) drop(source);
    if (old) {
      fetch(new URL('logout', API), { method: 'POST', headers: { authorization: `Bearer ${old}` }, credentials: 'omit' }).catch(() => undefined);
    }
    calls.clear();
    devices.clear();
    users.clear();
    extensions.clear();
    extensionsByNumber.clear();
    $('calls').replaceChildren();
    $('devices').replaceChildren();
    lastId = 0;
    $('signin-error').textContent = reason || '';
    showBoard(false);
    $('email').focus();
  }

  $('signin-form').addEventListener('submit', async (event) => {
    event.preventDefault();
    const button = $('signin-button');
    button.disabled = true;
    $('signin-error').textContent = '';
    try {
      const answer = await api('POST', 'login', { email: $('email').value.trim(), password: $('password').value });
      const mine = ++session;
      token = answer.data.token;
      $('password').value = '';
      showBoard(true);
      render();
      await loadDirectory().catch(() => undefined);
      if (mine === session) connect();
    } catch (error) {
      $('signin-error').textContent = error.message || 'Sign-in failed.';
    } finally {
      button.disabled = false;
    }
  });

  $('signout').addEventListener('click', () => signOut(''));

  setInterval(() => {
    if (token) render();
  }, 1000);
  $('email').focus();
})();
