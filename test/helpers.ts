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

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** `call('POST', '/contacts', token, body)`: the API under /api/v1 as a token holder. */
export function apiCaller(app: () => TestApp) {
  return (method: HttpMethod, url: string, token: string, payload?: object) =>
    app().app.inject({ method, url: `/api/v1${url}`, headers: bearer(token), ...(payload ? { payload } : {}) });
}
