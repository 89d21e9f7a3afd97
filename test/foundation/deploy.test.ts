import { spawn, execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { SQLITE_DRIVER } from '../../src/db/database.js';
import { loadConfig } from '../../src/config.js';
import { BUNDLE_BUILD_TIMEOUT_MS, builtBundle } from '../built-bundle.js';

const run = promisify(execFile);
const dockerfile = readFileSync('Dockerfile', 'utf8');
/** The runtime stage: everything after the last FROM. */
const runtime = dockerfile.slice(dockerfile.lastIndexOf('\nFROM '));

/** `ENV A=1 \ B=2` lines of the runtime stage, as an environment. */
function imageEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const block of runtime.matchAll(/^ENV ((?:.*\\\n)*.*)$/gm)) for (const [, name, value] of block[1].matchAll(/([A-Z_]+)=(\S+)/g)) env[name] = value;
  return env;
}

/** The JSON-array form of an instruction (`CMD ["node", ...]`). */
function execForm(instruction: string): string[] {
  const match = new RegExp(`^${instruction} (?:--\\S+ )*\\\\?\\n?\\s*(?:CMD )?(\\[.*\\])$`, 'm').exec(runtime);
  if (!match) throw new Error(`no ${instruction} in exec form`);
  return JSON.parse(match[1]) as string[];
}

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

describe('.env.example', () => {
  it('lists every setting the server reads from the environment', () => {
    const config = readFileSync('src/config.ts', 'utf8');
    const read = new Set([...config.matchAll(/env\.([A-Z][A-Z0-9_]+)/g)].map((match) => match[1]));
    const listed = new Set([...readFileSync('.env.example', 'utf8').matchAll(/^#? ?([A-Z][A-Z0-9_]+)=/gm)].map((match) => match[1]));
    expect(read.size).toBeGreaterThan(30);
    expect([...read].filter((name) => !listed.has(name))).toEqual([]);
    expect([...listed].filter((name) => !read.has(name))).toEqual([]);
  });
});

/** `KEY=value` lines of a dotenv file that are not comments. */
function dotenv(text: string): Record<string, string> {
  return Object.fromEntries([...text.matchAll(/^([A-Z][A-Z0-9_]*)=(.*)$/gm)].map((match) => [match[1], match[2]]));
}

/** The api service's `environment:` of compose.yaml, `${NAME:-default}` read as Compose reads it from .env and the shell. */
function composeEnv(variables: Record<string, string>): Record<string, string> {
  const compose = readFileSync('compose.yaml', 'utf8');
  const block = /^ {2}api:\n(?: {4}.*\n)*? {4}environment:\n((?: {6}.*\n)+)/m.exec(compose);
  if (!block) throw new Error('no environment for the api service in compose.yaml');
  return Object.fromEntries(
    [...block[1].matchAll(/^ {6}([A-Z_]+): (.*)$/gm)].map(([, name, raw]) => [
      name,
      raw.replace(/^'(.*)'$/, '$1').replace(/\$\{([A-Z_]+):-([^}]*)\}/g, (_, variable: string, fallback: string) => variables[variable] || fallback),
    ]),
  );
}

describe('compose.yaml and .env.example', () => {
  // Neither once set BASE_URL: the OpenAPI servers, the docs page's policy and magic links said
  // http://0.0.0.0:8080/api/v1, and "Try it out" failed with CORS.
  it('give the container a BASE_URL a browser reaches, which .env or the environment overrides', () => {
    const example = dotenv(readFileSync('.env.example', 'utf8'));
    expect(example.BASE_URL).toBe('http://localhost:8080/api/v1');
    const settings = (file: Record<string, string>) => ({ ...imageEnv(), ...file, ...composeEnv(file), SECRET_KEY: 'ab'.repeat(32) });
    const config = loadConfig(settings(example));
    expect(config).toMatchObject({ baseUrl: 'http://localhost:8080/api/v1', host: '0.0.0.0', databaseUrl: 'postgres://pbx:pbx@postgres:5432/pbx' });
    // Production warns for what is left: e-mail to the outbox folder, until SMTP_URL is set.
    expect(config.startupWarnings).toEqual([expect.stringMatching(/^SMTP_URL is not set/)]);
    expect(loadConfig(settings({ ...example, BASE_URL: 'https://pbx.example.com/api/v1' })).baseUrl).toBe('https://pbx.example.com/api/v1');
    expect(loadConfig(settings({ ...example, BASE_URL: '' })).baseUrl).toBe('http://localhost:8080/api/v1');
  });
});

describe('the container image', () => {
  beforeAll(builtBundle, BUNDLE_BUILD_TIMEOUT_MS);

  it('runs as an unprivileged user, in production, on its data volume, checked on /ready', () => {
    expect(runtime).toMatch(/^USER node$/m);
    expect(imageEnv()).toMatchObject({ NODE_ENV: 'production', HOST: '0.0.0.0', PORT: '8080', DATA_DIR: '/data' });
    expect(execForm('CMD')).toEqual(['node', 'bin/pbx-api.js', 'serve']);
    // Production dependencies only: the build stage prunes the dev ones before the runtime copies node_modules.
    expect(dockerfile.slice(0, dockerfile.lastIndexOf('\nFROM '))).toMatch(/npm run build && npm prune --omit=dev/);
    expect(runtime).toMatch(/^COPY --from=build \/app\/node_modules \.\/node_modules$/m);
    expect(runtime).not.toMatch(/COPY .*src/);
    expect(execForm('HEALTHCHECK').join(' ')).toContain('/ready');
  });

  // The image's command with the image's environment (its address and data directory moved to a
  // free local port and a temporary folder), and the health check's command against it.
  it('serves: the command answers /ready and the health check passes; without SECRET_KEY it refuses to start', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'pbx-image-'));
    const port = await freePort();
    const { BASE_URL: _vitestBase, ...inherited } = process.env;
    const env = { ...inherited, ...imageEnv(), HOST: '127.0.0.1', PORT: String(port), DATA_DIR: dataDir, DATABASE_URL: '', LOG_LEVEL: 'silent' };
    const [command, ...args] = execForm('CMD');
    const [checkCommand, ...checkArgs] = execForm('HEALTHCHECK');
    expect(command).toBe('node');

    const refused = await run(process.execPath, args, { env, timeout: 30_000 }).then(
      () => null,
      (error: { code: number; stderr: string }) => error,
    );
    expect(refused?.code).not.toBe(0);
    expect(refused?.stderr).toContain('SECRET_KEY is required');

    const server = spawn(process.execPath, args, { env: { ...env, SECRET_KEY: 'ab'.repeat(32) }, stdio: 'ignore' });
    try {
      let healthy = false;
      for (let i = 0; i < 120 && !healthy; i++) {
        await new Promise((resolve) => setTimeout(resolve, 250));
        healthy = await run(checkCommand === 'node' ? process.execPath : checkCommand, checkArgs, { env, timeout: 5_000 }).then(
          () => true,
          () => false,
        );
      }
      expect(healthy).toBe(true);
      const ready = await fetch(`http://127.0.0.1:${port}/ready`);
      expect(ready.status).toBe(200);
    } finally {
      server.kill('SIGTERM');
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 60_000);
});

describe('the SQLite driver', () => {
  it('is better-sqlite3 13 from Node 22 on, and 12 (the optional better-sqlite3-node20) on Node 20', () => {
    const major = Number(process.versions.node.split('.')[0]);
    expect(SQLITE_DRIVER).toBe(major >= 22 ? 'better-sqlite3' : 'better-sqlite3-node20');
    const manifest = JSON.parse(readFileSync('package.json', 'utf8')) as { dependencies: Record<string, string>; optionalDependencies: Record<string, string> };
    expect(manifest.dependencies['better-sqlite3']).toMatch(/^\^13\./);
    expect(manifest.optionalDependencies['better-sqlite3-node20']).toMatch(/^npm:better-sqlite3@\^12\./);
  });
});
