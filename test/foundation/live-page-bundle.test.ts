import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { beforeAll, describe, expect, it } from 'vitest';
import { BUNDLE_BUILD_TIMEOUT_MS, builtBundle } from '../built-bundle.js';

const PAGE_FILES = 'src/modules/events/live-page/live-page-files';

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/**
 * The live page as the built server serves it (dist/bundle/, what the package and the image run):
 * its files travel beside the bundle (scripts/bundle.mjs), and a server that lost them would not start.
 */
describe('the built server', () => {
  beforeAll(builtBundle, BUNDLE_BUILD_TIMEOUT_MS);

  it('serves the live page, its script and its stylesheet as they are in src/', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'pbx-live-page-'));
    const port = await freePort();
    const env = {
      ...process.env,
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      PORT: String(port),
      BASE_URL: `http://127.0.0.1:${port}/api/v1`,
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      REDIS_URL: '',
      LOG_LEVEL: 'silent',
      SECRET_KEY: 'cd'.repeat(32),
    };
    const server = spawn(process.execPath, ['bin/pbx-api.js', 'serve'], { env, stdio: 'ignore' });
    try {
      const base = `http://127.0.0.1:${port}`;
      let ready = false;
      for (let i = 0; i < 120 && !ready; i++) {
        await sleep(250);
        ready = await fetch(`${base}/ready`).then(
          (response) => response.ok,
          () => false,
        );
      }
      expect(ready).toBe(true);
      for (const [path, file, type] of [
        ['/api/v1/live', 'index.html', 'text/html; charset=utf-8'],
        ['/api/v1/live/app.js', 'app.js', 'text/javascript; charset=utf-8'],
        ['/api/v1/live/app.css', 'app.css', 'text/css; charset=utf-8'],
      ]) {
        const response = await fetch(`${base}${path}`);
        expect(response.status, path).toBe(200);
        expect(response.headers.get('content-type'), path).toBe(type);
        expect(response.headers.get('content-security-policy'), path).toContain("script-src 'self'");
        expect(await response.text(), path).toBe(readFileSync(join(PAGE_FILES, file), 'utf8'));
      }
    } finally {
      server.kill('SIGTERM');
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 60_000);
});
