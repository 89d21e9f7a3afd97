import { Readable } from 'node:stream';
import { afterAll, beforeAll } from 'vitest';
import { buildApp, type App } from '../src/app.js';
import { loadConfig, type Config } from '../src/config.js';
import { ManualClock } from '../src/platform/clock.js';
import type { Mailer, MailMessage } from '../src/platform/mail/mailer.js';
import type { AppContext } from '../src/platform/context.js';
import type { Database } from '../src/db/database.js';
import { openTestDatabase } from './database.js';

/** A mailer that keeps what it was asked to send, for tests that read the code or link. */
export class MemoryMailer implements Mailer {
  readonly sent: MailMessage[] = [];
  async send(message: MailMessage) {
    this.sent.push(message);
  }
  close() {}
  last(to?: string): MailMessage | undefined {
    return [...this.sent].reverse().find((m) => !to || m.to === to);
  }
}

export interface TestApp {
  app: App;
  ctx: AppContext;
  clock: ManualClock;
  mailer: MemoryMailer;
  close(): Promise<void>;
}

export const TEST_BASE_URL = 'http://pbx.test/api/v1';

/** The production app on its own migrated database (or a shared one, closed by its owner), with a controllable clock. */
export async function buildTestApp(
  options: { config?: Partial<Config>; mailer?: Mailer; clock?: ManualClock; env?: NodeJS.ProcessEnv; database?: Database } = {},
): Promise<TestApp> {
  const database = options.database ?? (await openTestDatabase());
  const clock = options.clock ?? new ManualClock(new Date());
  const mailer = new MemoryMailer();
  const config = loadConfig({ NODE_ENV: 'test', BASE_URL: TEST_BASE_URL, DATA_DIR: '/tmp/pbx-api-test', ...options.env }, options.config);
  const app = await buildApp({ config, database, clock, mailer: options.mailer ?? mailer });
  await app.ready();
  return {
    app,
    ctx: app.ctx,
    clock,
    mailer,
    async close() {
      await app.close();
      if (!options.database) await database.close();
    },
  };
}

/**
 * The opening of a test file (or a describe): `const t = useTestApp()` builds the app before its
 * tests and closes it after them. `t` reads the app built for the current run, so it is used in
 * tests and hooks, not at collection time.
 */
export function useTestApp(options: Parameters<typeof buildTestApp>[0] = {}): TestApp {
  let built: TestApp | undefined;
  beforeAll(async () => {
    built = await buildTestApp(options);
  });
  afterAll(async () => {
    await built?.close();
    built = undefined;
  });
  const current = (): TestApp => {
    if (!built) throw new Error('the test app is built in beforeAll: use it in a test or a hook');
    return built;
  };
  return {
    get app() {
      return current().app;
    },
    get ctx() {
      return current().ctx;
    },
    get clock() {
      return current().clock;
    },
    get mailer() {
      return current().mailer;
    },
    close: () => current().close(),
  };
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** The answer to a request, or a failure naming the wait when none comes within `ms` (a request that hangs). */
export async function answeredWithin<T>(pending: Promise<T>, ms = 5000): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms)));
  try {
    return await Promise.race([pending, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** A request body that arrives in two pieces, the second a moment later, as over a network (for inject). */
export function inTwoChunks(body: Buffer, at: number): Readable {
  let sent = false;
  return new Readable({
    read() {
      if (sent) return;
      sent = true;
      this.push(body.subarray(0, at));
      setTimeout(() => {
        this.push(body.subarray(at));
        this.push(null);
      }, 20);
    },
  });
}

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** `call('POST', '/contacts', token, body)`: the API under /api/v1 as a token holder. */
export function apiCaller(app: () => TestApp) {
  return (method: HttpMethod, url: string, token: string, payload?: object) =>
    app().app.inject({ method, url: `/api/v1${url}`, headers: bearer(token), ...(payload ? { payload } : {}) });
}
