import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/database.js';
import { BUNDLE_BUILD_TIMEOUT_MS, builtBundle } from '../built-bundle.js';

/**
 * Every command block of README.md, run as written (#35 item 8). Shell blocks (```sh and the like)
 * run in document order, each in a bash of its own with `set -euo pipefail`, carrying on the
 * variables and functions the blocks before it defined (as a reader pasting them into one terminal),
 * against a server started the way the Configuration section says: a copy of `.env.example` as
 * `.env`, `node --env-file=.env bin/pbx-api.js serve`, on a free port and a temporary DATA_DIR, the
 * demo seeded. `curl` is a function there that checks each answer's HTTP status: 2xx, or the status
 * a trailing comment of the command begins with (`# 422 {…}`). A block that serves (`pbx-api serve`)
 * runs against the machine's PostgreSQL on a database made for it and its Redis, until each server
 * it starts answers `/ready`, then is stopped. A block that cannot run here says why just before
 * it: `<!-- readme-test: skip (reason) -->`; any other block runs, so a new one is tested or marked.
 */
const README = readFileSync('README.md', 'utf8');
const SHELL = new Set(['sh', 'bash', 'shell', 'console', 'zsh']);
const SKIP_MARKER = /^<!-- readme-test: skip \((.+)\) -->$/;
/** Commands no other block may hold, so a block cannot escape the test by its language. */
const COMMAND_LINE = /^\s*(?:\$ )?(?:curl|npx|npm|node|pbx-api|export|docker|psql|createdb)\b/m;

interface Block {
  line: number;
  heading: string;
  language: string;
  source: string;
  /** The reason of its skip marker, or null. */
  skip: string | null;
  /** The line before it names readme-test without being a well-formed marker. */
  badMarker: string | null;
}

function fencedBlocks(markdown: string): Block[] {
  const lines = markdown.split('\n');
  const blocks: Block[] = [];
  let heading = '';
  for (let i = 0; i < lines.length; i++) {
    const open = /^(\s*)```(\S*)\s*$/.exec(lines[i]);
    if (!open) {
      heading = /^#{1,6} (.+)$/.exec(lines[i])?.[1] ?? heading;
      continue;
    }
    const indent = open[1].length;
    const body: string[] = [];
    let end = i + 1;
    for (; end < lines.length && !/^\s*```\s*$/.test(lines[end]); end++) body.push(lines[end].slice(Math.min(indent, lines[end].search(/\S|$/))));
    let before = i - 1;
    while (before >= 0 && lines[before].trim() === '') before--;
    const marker = before >= 0 ? lines[before].trim() : '';
    const skip = SKIP_MARKER.exec(marker)?.[1] ?? null;
    blocks.push({
      line: i + 1,
      heading,
      language: open[2],
      source: `${body.join('\n')}\n`,
      skip,
      badMarker: skip === null && marker.includes('readme-test') ? marker : null,
    });
    i = end;
  }
  return blocks;
}

const blocks = fencedBlocks(README);
const shellBlocks = blocks.filter((block) => SHELL.has(block.language));
const serves = (block: Block) => /\bpbx-api serve\b/.test(block.source);
const title = (block: Block) => `README.md line ${block.line} (${block.heading})`;

/**
 * The block as the test runs it: the README's address replaced by the test server's, and each
 * command whose last line's comment begins with an HTTP status told to expect it.
 */
function prepared(source: string, port: number): string {
  const lines = source.replace(/\b(?:127\.0\.0\.1|localhost):8080\b/g, `127.0.0.1:${port}`).split('\n');
  for (let start = 0; start < lines.length;) {
    let end = start;
    while (end < lines.length - 1 && lines[end].endsWith('\\')) end++;
    const status = /(?:^|\s)#\s*([1-5]\d\d)\b/.exec(lines[end])?.[1];
    if (status) {
      const at = lines.slice(start, end + 1).findIndex((line) => /(?:^|[\s($;|&])curl\s/.test(line));
      if (at < 0) throw new Error(`"${lines[end].trim()}": a status comment belongs at the end of the curl command it is for`);
      lines[start + at] = lines[start + at].replace(/(^|[\s($;|&])curl\s/, `$1README_EXPECT=${status} curl `);
    }
    start = end + 1;
  }
  return lines.join('\n');
}

/**
 * Before each block: the state the blocks before it left (variables and functions), and `curl`
 * checking the status of every answer and logging it. On exit, whatever the block's outcome, the
 * state is saved for the next block.
 */
const PRELUDE = String.raw`set -euo pipefail
__readme_baseline=" $(compgen -v | tr '\n' ' ') "
if [ -f "$README_STATE" ]; then source "$README_STATE"; fi
__readme_save() {
  local __name
  {
    for __name in $(compgen -v); do
      case "$__readme_baseline" in *" $__name "*) continue ;; esac
      case "$__name" in __readme* | _ | BASH* | PIPESTATUS | FUNCNAME | COLUMNS | LINES) continue ;; esac
      declare -p "$__name"
    done
    declare -f
  } > "$README_STATE.next" 2> /dev/null && mv "$README_STATE.next" "$README_STATE"
}
trap __readme_save EXIT
curl() {
  local __headers __code __exit=0 __expect="${'$'}{README_EXPECT:-2xx}"
  __headers=$(mktemp)
  command curl -D "$__headers" "$@" || __exit=$?
  __code=$(sed -n 's/^HTTP\/[0-9.]* \([0-9][0-9][0-9]\).*/\1/p' "$__headers" | tail -n 1)
  rm -f "$__headers"
  printf '%s\t%s\tcurl %s\n' "${'$'}{__code:-none}" "$__expect" "$*" >> "$README_CURL_LOG"
  if [ "$__exit" -ne 0 ]; then
    echo "readme-test: curl exited with $__exit: curl $*" >&2
    return "$__exit"
  fi
  case "$__expect" in
    2xx) [[ "$__code" == 2?? ]] ;;
    *) [ "$__code" = "$__expect" ] ;;
  esac || {
    echo "readme-test: expected HTTP $__expect, got ${'$'}{__code:-none}: curl $*" >&2
    return 22
  }
}
`;

interface Outcome {
  code: number | null;
  stdout: string;
  stderr: string;
}

const tail = (text: string, size = 4000) => (text.length > size ? `…${text.slice(-size)}` : text);

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

function reachable(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.setTimeout(1000);
    const done = (up: boolean) => {
      socket.destroy();
      resolve(up);
    };
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
    socket.once('timeout', () => done(false));
  });
}

async function ready(port: number): Promise<boolean> {
  try {
    return (await fetch(`http://127.0.0.1:${port}/ready`, { signal: AbortSignal.timeout(2000) })).status === 200;
  } catch {
    return false;
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Every setting `.env.example` names: the commands get none of them from the test's own environment. */
const SETTINGS = [...readFileSync('.env.example', 'utf8').matchAll(/^#? ?([A-Z][A-Z0-9_]+)=/gm)].map((match) => match[1]);
const clean: NodeJS.ProcessEnv = Object.fromEntries(Object.entries(process.env).filter(([name]) => !SETTINGS.includes(name)));
/** The PostgreSQL and Redis the blocks that serve name. */
const servicesUp = (await Promise.all([reachable(5432), reachable(6379)])).every(Boolean);

/** What a block needs that the README states in words rather than commands, by the block's heading. */
function stepsBefore(dataDir: string): Record<string, () => Promise<void>> {
  return {
    // The demo seed pushed tenant A's configuration at the start, and the README says a push within a
    // minute of that is 429: the block runs as it would for a reader a minute later, the gate moved back.
    'The push, versions and rollback': async () => {
      const database = openDatabase({ sqlitePath: join(dataDir, 'pbx-api.sqlite') });
      try {
        await database.db
          .updateTable('config_push_gates')
          .set({ last_push_at: new Date(Date.now() - 120_000).toISOString() })
          .execute();
      } finally {
        await database.close();
      }
    },
  };
}

/** A command in a process group of its own, so whatever it leaves in the background goes with it. */
async function stopGroup(pid: number): Promise<void> {
  for (let i = 0; ; i++) {
    try {
      process.kill(-pid, i === 0 ? 'SIGTERM' : i < 40 ? 0 : 'SIGKILL');
    } catch {
      return;
    }
    await sleep(250);
  }
}

// The server blocks and the session run side by side: each waits mostly on its own processes.
describe('the README commands', { concurrent: true }, () => {
  beforeAll(builtBundle, BUNDLE_BUILD_TIMEOUT_MS);
  const work = mkdtempSync(join(tmpdir(), 'pbx-readme-'));
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  describe('its blocks', () => {
    it('each block holding commands is a shell block, run or marked with why it is not', () => {
      expect(shellBlocks.length).toBeGreaterThan(5);
      for (const block of blocks) {
        expect(block.badMarker, `${title(block)}: write the marker as <!-- readme-test: skip (reason) -->`).toBeNull();
        if (!SHELL.has(block.language)) {
          expect(block.skip, `${title(block)}: a skip marker before a block that is not a shell block`).toBeNull();
          expect(COMMAND_LINE.test(block.source), `${title(block)} holds commands: fence it as \`\`\`sh`).toBe(false);
        }
      }
      for (const heading of Object.keys(stepsBefore(work))) {
        expect(
          shellBlocks.some((block) => block.heading === heading && !block.skip && !serves(block)),
          `a step before the block under "${heading}", which is gone`,
        ).toBe(true);
      }
    });

    for (const block of shellBlocks.filter((each) => each.skip)) it.skip(`${title(block)}: ${block.skip}`, () => undefined);
  });

  describe.sequential('in order, against the demo server', () => {
    const dataDir = join(work, 'data');
    const state = join(work, 'state.sh');
    const curlLog = join(work, 'curl.log');
    const before = stepsBefore(dataDir);
    let port = 0;
    let server: ReturnType<typeof spawn> | undefined;
    let serverOutput = '';

    beforeAll(async () => {
      port = await freePort();
      // As the Configuration section says: `cp .env.example .env`, then `node --env-file=.env bin/pbx-api.js serve`
      // (the environment, which Node prefers to the file, gives the port and the data folder).
      copyFileSync('.env.example', join(work, '.env'));
      const env = { ...clean, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, BASE_URL: `http://127.0.0.1:${port}/api/v1` };
      server = spawn(process.execPath, [`--env-file=${join(work, '.env')}`, 'bin/pbx-api.js', 'serve'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
      const collect = (chunk: Buffer) => (serverOutput = tail(serverOutput + chunk.toString(), 20_000));
      server.stdout?.on('data', collect);
      server.stderr?.on('data', collect);
      // The bundle is built (beforeAll above), but a source edited meanwhile makes bin/pbx-api.js build it again.
      for (let i = 0; !(await ready(port)); i++) {
        if (server.exitCode !== null || i > 720) throw new Error(`the server did not start (exit ${server.exitCode}):\n${serverOutput}`);
        await sleep(250);
      }
    }, 200_000);

    afterAll(async () => {
      if (server && server.exitCode === null) {
        const exited = new Promise((resolve) => server?.once('exit', resolve));
        server.kill('SIGTERM');
        await Promise.race([exited, sleep(10_000)]);
      }
    });

    it('the server started from .env.example as it is', () => {
      expect(README).toContain('`cp .env.example .env`, then `node --env-file=.env bin/pbx-api.js serve`');
      expect(serverOutput).toContain('Demo data seeded');
    });

    for (const block of shellBlocks.filter((each) => !each.skip && !serves(each))) {
      it(
        title(block),
        async () => {
          await before[block.heading]?.();
          const script = join(work, `block-${block.line}.sh`);
          writeFileSync(script, `${PRELUDE}\n# ${title(block)}\n${prepared(block.source, port)}`);
          writeFileSync(curlLog, '');
          const env = {
            ...clean,
            PORT: String(port),
            DATA_DIR: dataDir,
            BASE_URL: `http://127.0.0.1:${port}/api/v1`,
            README_STATE: state,
            README_CURL_LOG: curlLog,
          };
          const outcome = await new Promise<Outcome>((resolve) => {
            const child = spawn('bash', ['--noprofile', '--norc', script], { env, stdio: ['ignore', 'pipe', 'pipe'] });
            let stdout = '';
            let stderr = '';
            child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
            child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
            child.on('close', (code) => resolve({ code, stdout, stderr }));
          });
          const calls = readFileSync(curlLog, 'utf8');
          const report = `--- stderr\n${tail(outcome.stderr)}\n--- stdout\n${tail(outcome.stdout)}\n--- curl (status, expected, command)\n${calls}`;
          expect(outcome.code, `${title(block)} failed\n${report}`).toBe(0);
          expect(
            calls.split('\n').filter((line) => line && !/^2\d\d\t2xx\t|^(\d{3})\t\1\t/.test(line)),
            `answers other than the README says\n${report}`,
          ).toEqual([]);
        },
        120_000,
      );
    }
  });

  describe.sequential('the blocks that serve, on PostgreSQL and Redis', () => {
    const database = `pbx_readme_${randomBytes(6).toString('hex')}`;
    const shared = join(work, 'shared');
    const prefix = `pbx-readme-${randomBytes(6).toString('hex')}:`;
    const admin = () => new pg.Client({ connectionString: 'postgres://postgres@127.0.0.1:5432/postgres' });

    beforeAll(async () => {
      if (!servicesUp) return;
      const client = admin();
      await client.connect();
      await client.query(`CREATE DATABASE ${database}`);
      await client.end();
    });

    afterAll(async () => {
      if (!servicesUp) return;
      const client = admin();
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
      await client.end();
      const redis = new Redis('redis://127.0.0.1:6379', { lazyConnect: true, maxRetriesPerRequest: 1 });
      await redis.connect();
      const keys = await redis.keys(`${prefix}*`);
      if (keys.length > 0) await redis.del(...keys);
      redis.disconnect();
    });

    for (const block of shellBlocks.filter((each) => !each.skip && serves(each))) {
      it(
        title(block),
        async (context) => {
          if (!servicesUp) {
            if (process.env.CI) throw new Error('PostgreSQL on 127.0.0.1:5432 and Redis on 127.0.0.1:6379 are needed');
            context.skip('no PostgreSQL on 127.0.0.1:5432 or no Redis on 127.0.0.1:6379');
          }
          // The database is one made for this run, the shared folder and the ports are free ones.
          let source = block.source
            .replace(/postgres:\/\/postgres@127\.0\.0\.1:5432\/pbx\b/g, `postgres://postgres@127.0.0.1:5432/${database}`)
            .replaceAll('/tmp/pbx-shared', shared);
          const ports = new Map<string, number>();
          for (const [, written] of source.matchAll(/\bPORT=(\d+)/g)) if (!ports.has(written)) ports.set(written, await freePort());
          source = source.replace(/\bPORT=(\d+)/g, (_, written: string) => `PORT=${ports.get(written)}`);
          const defaultPort = await freePort();
          const listening = ports.size > 0 ? [...ports.values()] : [defaultPort];
          const env = { ...clean, PORT: String(defaultPort), DATA_DIR: join(work, `data-${block.line}`), REDIS_KEY_PREFIX: prefix };
          const child = spawn('bash', ['--noprofile', '--norc', '-c', `set -euo pipefail\n${source}`], {
            env,
            detached: true,
            stdio: ['ignore', 'pipe', 'pipe'],
          });
          let output = '';
          const collect = (chunk: Buffer) => (output = tail(output + chunk.toString(), 20_000));
          child.stdout.on('data', collect);
          child.stderr.on('data', collect);
          try {
            for (let i = 0; !(await Promise.all(listening.map(ready))).every(Boolean); i++) {
              if ((child.exitCode !== null && child.exitCode !== 0) || i > 360) {
                throw new Error(`${title(block)}: not ready on ${listening.join(', ')} (exit ${child.exitCode}):\n${output}`);
              }
              await sleep(250);
            }
          } finally {
            await stopGroup(child.pid!);
          }
        },
        120_000,
      );
    }
  });
});
