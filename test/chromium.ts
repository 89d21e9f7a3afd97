/**
 * Headless Chromium (Debian's `chromium` at /usr/bin/chromium, or CHROMIUM_PATH) for tests of the pages the API serves, driven over the
 * DevTools protocol with the `ws` client the stream tests already use: a page to open, read, type
 * into and photograph, and what went wrong in it (exceptions, console errors, refused loads and
 * Content-Security-Policy violations).
 *
 * Without Chromium a suite skips with one line, except when `CI` is set: then it fails, so a
 * machine that lost its browser cannot pass silently (as test/asterisk/harness.ts does for Asterisk).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe } from 'vitest';
import { WebSocket } from 'ws';

export const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

let probed: string | null | undefined;

/** Why Chromium cannot run here (null: it can); probed once per process. */
export function chromiumProblem(): string | null {
  if (probed === undefined) {
    const run = spawnSync(CHROMIUM, ['--version'], { encoding: 'utf8', timeout: 20_000 });
    probed = run.error
      ? `no Chromium at ${CHROMIUM} (apt-get install chromium): ${run.error.message}`
      : run.status !== 0
        ? `${CHROMIUM} --version failed: ${run.stderr.trim()}`
        : null;
  }
  return probed;
}

/** `describe` for tests that need Chromium: skipped with one line on stderr without it, failing instead when `CI` is set. */
export function browserSuite(name: string, body: () => void): void {
  const problem = chromiumProblem();
  if (!problem) {
    describe(name, body);
    return;
  }
  if (process.env.CI) throw new Error(`${name}: cannot run in CI: ${problem}`);
  process.stderr.write(`${name}: skipped: ${problem}\n`);
  describe.skip(name, body);
}

interface Message {
  id?: number;
  method?: string;
  params?: Record<string, unknown>;
  result?: Record<string, unknown>;
  error?: { message: string };
  sessionId?: string;
}

/** A headless Chromium of its own (own profile, nothing fetched but the pages), and its DevTools connection. */
export class Browser {
  private nextId = 1;
  private readonly pending = new Map<number, { resolve: (result: Record<string, unknown>) => void; reject: (error: Error) => void }>();
  private readonly listeners = new Set<(message: Message) => void>();

  private constructor(
    private readonly process: ChildProcess,
    private readonly socket: WebSocket,
    private readonly profile: string,
  ) {
    socket.on('message', (data: Buffer) => {
      const message = JSON.parse(data.toString()) as Message;
      if (message.id !== undefined) {
        const waiting = this.pending.get(message.id);
        this.pending.delete(message.id);
        if (message.error) waiting?.reject(new Error(message.error.message));
        else waiting?.resolve(message.result ?? {});
      } else for (const listener of this.listeners) listener(message);
    });
    socket.on('close', () => {
      for (const waiting of this.pending.values()) waiting.reject(new Error('the DevTools connection closed'));
      this.pending.clear();
    });
  }

  static async launch(): Promise<Browser> {
    const profile = mkdtempSync(join(tmpdir(), 'pbx-api-chromium-'));
    const args = [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-dev-shm-usage',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-extensions',
      '--password-store=basic',
      '--remote-debugging-port=0',
      `--user-data-dir=${profile}`,
      'about:blank',
    ];
    const child = spawn(CHROMIUM, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    const endpoint = await new Promise<string>((resolve, reject) => {
      let said = '';
      const timer = setTimeout(() => reject(new Error(`Chromium did not start within 30 s: ${said.slice(-2000)}`)), 30_000);
      child.stderr.setEncoding('utf8');
      child.stderr.on('data', (chunk: string) => {
        said += chunk;
        const found = /DevTools listening on (ws:\/\/\S+)/.exec(said);
        if (found) {
          clearTimeout(timer);
          resolve(found[1]);
        }
      });
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`Chromium exited (${code}) before it listened: ${said.slice(-2000)}`));
      });
    });
    const socket = new WebSocket(endpoint, { perMessageDeflate: false });
    await new Promise((resolve, reject) => {
      socket.once('open', resolve);
      socket.once('error', reject);
    });
    return new Browser(child, socket, profile);
  }

  send(method: string, params: Record<string, unknown> = {}, sessionId?: string): Promise<Record<string, unknown>> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.socket.send(JSON.stringify({ id, method, params, ...(sessionId ? { sessionId } : {}) }));
    });
  }

  on(listener: (message: Message) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** A new tab of `width` x `height` CSS pixels. */
  async newPage(width: number, height: number): Promise<Page> {
    const { targetId } = (await this.send('Target.createTarget', { url: 'about:blank' })) as { targetId: string };
    const { sessionId } = (await this.send('Target.attachToTarget', { targetId, flatten: true })) as { sessionId: string };
    const page = new Page(this, sessionId);
    await page.start(width, height);
    return page;
  }

  async close(): Promise<void> {
    const exited = this.process.exitCode !== null ? Promise.resolve() : new Promise((resolve) => this.process.once('exit', resolve));
    // Asked to close, Chromium ends its helper processes too; a signal would leave them writing the profile.
    await Promise.race([this.send('Browser.close').catch(() => undefined), sleep(5000)]);
    this.socket.close();
    await Promise.race([exited, sleep(5000)]);
    if (this.process.exitCode === null && this.process.signalCode === null) this.process.kill('SIGKILL');
    try {
      rmSync(this.profile, { recursive: true, force: true, maxRetries: 20, retryDelay: 100 });
    } catch {
      // A helper process still writing: a temporary folder left behind fails no test.
    }
  }
}

/** One tab: navigate, evaluate, type, click, wait, photograph; it records its requests and what went wrong in it. */
export class Page {
  /** Uncaught exceptions, console errors and the browser's own error entries (refused loads, CSP violations), as text. */
  readonly problems: string[] = [];
  /** The URL of every request the tab made, in order. */
  readonly requests: string[] = [];
  private loaded: (() => void) | null = null;

  constructor(
    private readonly browser: Browser,
    private readonly sessionId: string,
  ) {
    browser.on((message) => {
      if (message.sessionId !== sessionId) return;
      const params = message.params ?? {};
      if (message.method === 'Page.loadEventFired') this.loaded?.();
      if (message.method === 'Network.requestWillBeSent') this.requests.push((params.request as { url: string }).url);
      if (message.method === 'Runtime.exceptionThrown') {
        const details = params.exceptionDetails as { text: string; exception?: { description?: string } };
        this.problems.push(`exception: ${details.exception?.description ?? details.text}`);
      }
      if (message.method === 'Runtime.consoleAPICalled' && params.type === 'error') {
        this.problems.push(`console.error: ${JSON.stringify(params.args)}`);
      }
      if (message.method === 'Log.entryAdded') {
        const entry = params.entry as { level: string; source: string; text: string; url?: string };
        if (entry.level === 'error' || entry.source === 'security') this.problems.push(`${entry.source}: ${entry.text} ${entry.url ?? ''}`.trim());
      }
    });
  }

  private send(method: string, params: Record<string, unknown> = {}) {
    return this.browser.send(method, params, this.sessionId);
  }

  async start(width: number, height: number): Promise<void> {
    await this.send('Page.enable');
    await this.send('Runtime.enable');
    await this.send('Log.enable');
    await this.send('Network.enable');
    await this.send('Emulation.setDeviceMetricsOverride', { width, height, deviceScaleFactor: 1, mobile: false });
  }

  /** Opens `url` and waits for its load event. */
  async goto(url: string): Promise<void> {
    const loaded = new Promise<void>((resolve) => (this.loaded = resolve));
    const answer = (await this.send('Page.navigate', { url })) as { errorText?: string };
    if (answer.errorText) throw new Error(`${url}: ${answer.errorText}`);
    await loaded;
  }

  /** The value of a JavaScript expression in the page (awaited when it is a promise). */
  async evaluate<T>(expression: string): Promise<T> {
    const answer = (await this.send('Runtime.evaluate', { expression, awaitPromise: true, returnByValue: true })) as {
      result: { value?: T };
      exceptionDetails?: { text: string; exception?: { description?: string } };
    };
    if (answer.exceptionDetails) throw new Error(`${expression}: ${answer.exceptionDetails.exception?.description ?? answer.exceptionDetails.text}`);
    return answer.result.value as T;
  }

  /** Waits until `expression` is truthy in the page; its value. */
  async waitFor<T>(expression: string, ms = 10_000): Promise<T> {
    const deadline = Date.now() + ms;
    for (;;) {
      const value = await this.evaluate<T>(expression);
      if (value) return value;
      if (Date.now() > deadline) throw new Error(`timed out after ${ms} ms waiting for ${expression}`);
      await sleep(50);
    }
  }

  /** Focuses the element and types `text` into it, as a keyboard would insert it. */
  async type(selector: string, text: string): Promise<void> {
    await this.evaluate(`document.querySelector(${JSON.stringify(selector)}).focus()`);
    await this.send('Input.insertText', { text });
  }

  async click(selector: string): Promise<void> {
    await this.evaluate(`document.querySelector(${JSON.stringify(selector)}).click()`);
  }

  /** A PNG of what the tab shows, written to `path`. */
  async screenshot(path: string): Promise<void> {
    const { data } = (await this.send('Page.captureScreenshot', { format: 'png' })) as { data: string };
    writeFileSync(path, Buffer.from(data, 'base64'));
  }
}
