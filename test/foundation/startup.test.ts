import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { derivedBaseUrl, loadConfig, secretKeyBytes } from '../../src/config.js';

/**
 * What the server does with its settings at start, seen as an operator sees it: the real command
 * (`pbx-api serve` from the sources) in a process of its own, its exit status, its stderr and its
 * log lines. Refused settings stop it with one line naming the setting, before anything is opened
 * or created; a production start that works but is likely a mistake warns, one log line each.
 */
const TSX = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
// Vitest sets BASE_URL=/ for its own use; the command must not inherit it, nor a database, Redis or SMTP of the machine.
const { BASE_URL: _vitestBase, ...inherited } = process.env;
const SECRET_KEY = randomBytes(32).toString('hex');
const folders: string[] = [];

function dataDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'pbx-startup-'));
  folders.push(dir);
  return dir;
}

function production(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return {
    ...inherited,
    NODE_ENV: 'production',
    SECRET_KEY,
    DATA_DIR: dataDir(),
    DATABASE_URL: '',
    REDIS_URL: '',
    SMTP_URL: '',
    LOG_LEVEL: 'info',
    LOG_FORMAT: 'json',
    ...extra,
  };
}

function cli(env: NodeJS.ProcessEnv, ...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, ['--import', TSX, 'src/cli.ts', ...args], { env, timeout: 60_000 }, (error, stdout, stderr) =>
      resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** Waits until `ready()` holds (concurrent tests cannot use the global expect.poll). */
async function until(ready: () => boolean, timeout = 60_000): Promise<void> {
  for (const start = Date.now(); !ready(); await new Promise((resolve) => setTimeout(resolve, 100))) {
    if (Date.now() - start > timeout) throw new Error('timed out');
  }
}

interface LogLine {
  level: number;
  msg: string;
}

/** `pbx-api serve` until it says it serves; its stderr, its log lines so far, and a stop. */
async function serve(env: NodeJS.ProcessEnv) {
  const child = spawn(process.execPath, ['--import', TSX, 'src/cli.ts', 'serve'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise((resolve) => child.on('exit', resolve));
  const logs = () =>
    stdout
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as LogLine);
  const stop = async () => {
    child.kill('SIGTERM');
    await exited;
  };
  try {
    await until(() => logs().some((line) => line.msg.startsWith('pbx-api serving')) || child.exitCode !== null);
    if (child.exitCode !== null) throw new Error(`serve exited: ${stderr}`);
  } catch (error) {
    await stop();
    throw error;
  }
  return { logs, stderr: () => stderr, stop };
}

afterAll(() => {
  for (const dir of folders) rmSync(dir, { recursive: true, force: true });
});

describe.skipIf(process.env.TEST_DB === 'postgres')('pbx-api serve: settings at start', { concurrent: true }, () => {
  const refused: Array<[string, NodeJS.ProcessEnv, RegExp]> = [
    // A DATABASE_URL that is not PostgreSQL's once fell back to SQLite, told only by "on sqlite" in an info line.
    [
      'DATABASE_URL mysql://',
      { DATABASE_URL: 'mysql://pbx:hunter2@db.example:3306/pbx' },
      /^pbx-api: DATABASE_URL must be a PostgreSQL URL .*"mysql:\/\/pbx:\*\*\*@db/,
    ],
    ['DATABASE_URL POSTGRES://', { DATABASE_URL: 'POSTGRES://pbx@db.example:5432/pbx' }, /DATABASE_URL .*lower case/],
    ['DATABASE_URL with a leading space', { DATABASE_URL: ' postgres://pbx@db.example:5432/pbx' }, /DATABASE_URL .*white space/],
    ['DATABASE_URL notaurl', { DATABASE_URL: 'notaurl' }, /DATABASE_URL must be a PostgreSQL URL/],
    ['DATABASE_URL naming a SQLite file', { DATABASE_URL: 'sqlite:./data/pbx.sqlite' }, /DATABASE_URL .*SQLITE_PATH names the file/],
    // TRUST_PROXY=1 or yes was silently false.
    ['TRUST_PROXY=1', { TRUST_PROXY: '1' }, /^pbx-api: TRUST_PROXY must be true or false, got "1"$/],
    ['TRUST_PROXY=yes', { TRUST_PROXY: 'yes' }, /^pbx-api: TRUST_PROXY must be true or false, got "yes"$/],
    // SECRET_KEY=abc was accepted in production.
    ['SECRET_KEY=abc', { SECRET_KEY: 'abc' }, /^pbx-api: SECRET_KEY must hold at least 32 bytes of key material .*got 2$/],
    ['SECRET_KEY of 16 bytes', { SECRET_KEY: randomBytes(16).toString('hex') }, /SECRET_KEY must hold at least 32 bytes .*got 16$/],
    // PORT=70000 gave "Invalid URL".
    ['PORT=70000', { PORT: '70000' }, /^pbx-api: PORT must be a port number from 1 to 65535, got "70000"$/],
    // LOG_LEVEL=verbose gave a message of pino's internals.
    ['LOG_LEVEL=verbose', { LOG_LEVEL: 'verbose' }, /^pbx-api: LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent, got "verbose"$/],
  ];
  for (const [name, env, message] of refused) {
    it(`refuses ${name} in one line, before opening or creating anything`, async ({ expect }) => {
      const settings = production(env);
      const result = await cli(settings, 'serve');
      expect(result.code).toBe(1);
      expect(result.stderr.trimEnd().split('\n'), result.stderr).toHaveLength(1);
      expect(result.stderr.trimEnd()).toMatch(message);
      expect(result.stderr).not.toContain('hunter2');
      expect(result.stdout).toBe('');
      expect(readdirSync(settings.DATA_DIR!)).toEqual([]);
    }, 90_000);
  }

  it('in production, warns once each for SQLite, no SMTP_URL and no BASE_URL; a wildcard HOST is never the derived address', async ({ expect }) => {
    const port = await freePort();
    const env = production({ HOST: '0.0.0.0', PORT: String(port) });
    const server = await serve(env);
    try {
      const expected = `http://127.0.0.1:${port}/api/v1`;
      expect(server.stderr().split('\n')[0]).toBe(`pbx-api: SQLite database ${join(env.DATA_DIR!, 'pbx-api.sqlite')} (data folder ${env.DATA_DIR})`);
      await until(() => server.logs().filter((line) => line.level === 40).length >= 3, 5_000);
      const warnings = server.logs().filter((line) => line.level === 40);
      expect(warnings.map((line) => line.msg)).toEqual([
        expect.stringMatching(/^DATABASE_URL is not set: the data is in the SQLite file .*pbx-api\.sqlite/),
        expect.stringMatching(/^SMTP_URL is not set: login e-mails .* are written to .*outbox/),
        `BASE_URL is not set: links, the OpenAPI servers entry and the docs page use ${expected}; set the public address, ending in /api/v1`,
      ]);
      expect(server.logs().find((line) => line.msg.startsWith('pbx-api serving'))?.msg).toContain(expected);
      const document = (await (await fetch(`http://127.0.0.1:${port}/api/v1/openapi.json`)).json()) as { servers: Array<{ url: string }> };
      expect(document.servers[0].url).toBe(expected);
    } finally {
      await server.stop();
    }
  }, 120_000);

  it('in production with BASE_URL and SMTP_URL set, warns only that it runs on SQLite', async ({ expect }) => {
    const port = await freePort();
    const server = await serve(
      production({ PORT: String(port), HOST: '127.0.0.1', BASE_URL: `http://localhost:${port}/api/v1`, SMTP_URL: 'smtp://127.0.0.1:1' }),
    );
    try {
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(
        server
          .logs()
          .filter((line) => line.level === 40)
          .map((line) => line.msg),
      ).toEqual([expect.stringMatching(/^DATABASE_URL is not set/)]);
    } finally {
      await server.stop();
    }
  }, 120_000);
});

describe('settings, read strictly', () => {
  const test = { NODE_ENV: 'test' };

  it('DATABASE_URL: PostgreSQL URLs, or unset for SQLite', () => {
    expect(loadConfig({ ...test, DATABASE_URL: '' }).databaseUrl).toBeNull();
    expect(loadConfig(test).databaseUrl).toBeNull();
    for (const url of ['postgres://pbx@db:5432/pbx', 'postgresql://pbx:secret@db/pbx?sslmode=require', 'postgres:///pbx?host=/var/run/postgresql']) {
      expect(loadConfig({ ...test, DATABASE_URL: url }).databaseUrl).toBe(url);
    }
    for (const url of [
      'mysql://x@h/db',
      'POSTGRES://x@h/db',
      'Postgresql://x@h/db',
      ' postgres://x@h/db',
      'postgres://x@h/db ',
      'notaurl',
      '/var/lib/pbx.sqlite',
      'postgres:/x',
    ]) {
      expect(() => loadConfig({ ...test, DATABASE_URL: url }), url).toThrow(/^DATABASE_URL must be a PostgreSQL URL/);
    }
  });

  it('booleans take true or false only, TRUST_PROXY and the worker switches included', () => {
    for (const name of ['TRUST_PROXY', 'JOB_WORKER', 'AMI_EVENTS', 'WEBHOOK_ALLOW_PRIVATE', 'SEED_DEMO', 'CORS_CREDENTIALS']) {
      for (const bad of ['1', '0', 'yes', 'TRUE', 'on'])
        expect(() => loadConfig({ ...test, [name]: bad }), `${name}=${bad}`).toThrow(`${name} must be true or false, got "${bad}"`);
    }
    expect(loadConfig({ ...test, TRUST_PROXY: 'true' }).trustProxy).toBe(true);
    expect(loadConfig(test)).toMatchObject({ trustProxy: false, jobWorkerEnabled: true, amiEventsEnabled: true, webhookAllowPrivate: false });
    expect(loadConfig({ ...test, JOB_WORKER: 'false', AMI_EVENTS: 'false' })).toMatchObject({ jobWorkerEnabled: false, amiEventsEnabled: false });
    expect(() => loadConfig({ ...test, PBX_ENGINE: 'asterisk' })).toThrow('PBX_ENGINE must be simulated or none, got "asterisk"');
  });

  it('SECRET_KEY: at least 32 bytes of key material, as hex, base64 or text; an empty one is unset', () => {
    expect(secretKeyBytes('ab'.repeat(32))).toBe(32);
    expect(secretKeyBytes(randomBytes(32).toString('base64'))).toBe(32);
    expect(secretKeyBytes(randomBytes(32).toString('base64url'))).toBe(32);
    expect(secretKeyBytes('ab'.repeat(16))).toBe(16);
    expect(secretKeyBytes('a passphrase of forty characters, or so!')).toBe(40);
    expect(loadConfig({ ...test, SECRET_KEY: randomBytes(32).toString('base64') }).secretKey).toHaveLength(44);
    expect(() => loadConfig({ ...test, SECRET_KEY: randomBytes(31).toString('base64') })).toThrow(/got 31$/);
    expect(() => loadConfig({ NODE_ENV: 'production', SECRET_KEY: '' })).toThrow(/SECRET_KEY is required/);
    expect(loadConfig({ ...test, SECRET_KEY: '' }).secretKey).toMatch(/^[0-9a-f]{64}$/);
  });

  it('PORT is a port; LOG_LEVEL a level pino knows', () => {
    for (const bad of ['0', '65536', '70000', '-1', '80a']) expect(() => loadConfig({ ...test, PORT: bad }), bad).toThrow(/^PORT must be/);
    expect(loadConfig({ ...test, PORT: '65535' }).port).toBe(65535);
    expect(() => loadConfig({ ...test, LOG_LEVEL: 'verbose' })).toThrow(/LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent/);
    expect(loadConfig({ ...test, LOG_LEVEL: 'debug' }).logLevel).toBe('debug');
  });

  it('the derived BASE_URL never names a wildcard address', () => {
    expect(derivedBaseUrl('0.0.0.0', 8080)).toBe('http://127.0.0.1:8080/api/v1');
    expect(derivedBaseUrl('::', 8080)).toBe('http://localhost:8080/api/v1');
    expect(derivedBaseUrl('[::]', 8080)).toBe('http://localhost:8080/api/v1');
    expect(derivedBaseUrl('::1', 8080)).toBe('http://[::1]:8080/api/v1');
    expect(derivedBaseUrl('10.0.0.5', 80)).toBe('http://10.0.0.5:80/api/v1');
    expect(derivedBaseUrl('pbx.internal', 8080)).toBe('http://pbx.internal:8080/api/v1');
    expect(loadConfig({ ...test, HOST: '0.0.0.0' }).baseUrl).toBe('http://127.0.0.1:8080/api/v1');
    expect(loadConfig({ ...test, HOST: '0.0.0.0', BASE_URL: 'https://pbx.example.com/api/v1/' }).baseUrl).toBe('https://pbx.example.com/api/v1');
  });

  it('warnings at start are for production only', () => {
    expect(loadConfig({ ...test }).startupWarnings).toEqual([]);
    expect(loadConfig({ NODE_ENV: 'development' }).startupWarnings).toEqual([]);
    const warned = loadConfig({
      NODE_ENV: 'production',
      SECRET_KEY,
      DATABASE_URL: 'postgres://pbx@db/pbx',
      SMTP_URL: 'smtp://mail',
      BASE_URL: 'https://pbx.example.com/api/v1',
    });
    expect(warned.startupWarnings).toEqual([]);
  });
});
