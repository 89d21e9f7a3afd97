/**
 * Private instances of a real Asterisk for tests (test/asterisk/, `npm run test:asterisk`).
 *
 * Each instance lives in a temporary folder of its own (`$RUN`): its `asterisk.conf` names every
 * directory, so any number of instances run at once, each on ports the OS chose. The host's
 * configuration is docs/asterisk/ exactly as the README tells an operator to write it; only the
 * ports and bind addresses are substituted, mechanically (a change to those lines in docs/asterisk/
 * that the substitution cannot find fails the start instead of testing something else).
 *
 * Asterisk comes from `ASTERISK_PREFIX` or /opt/asterisk (installed by ../shared/asterisk/install.sh,
 * which also installs the English sounds and SIPp). Without it a suite skips with one line, except
 * when `CI` is set: then it fails, so a broken install cannot pass silently.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createSocket } from 'node:dgram';
import { closeSync, existsSync, mkdirSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { createConnection, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe } from 'vitest';

/** The operator's host configuration files, as the README shows them. */
export const HOST_FILES_DIR = fileURLToPath(new URL('../../docs/asterisk/', import.meta.url));
/** Debian's English sounds (asterisk-core-sounds-en-gsm); each instance's `sounds/en` links here. */
export const SOUNDS_EN_DIR = '/usr/share/asterisk/sounds/en';
const INSTALL_HINT = 'run ../shared/asterisk/install.sh';
const DEFAULT_PREFIX = '/opt/asterisk';

/** The Asterisk install prefix (`ASTERISK_PREFIX`, else /opt/asterisk); null when `sbin/asterisk` is not there. */
export function findAsterisk(): string | null {
  const prefix = resolve(process.env.ASTERISK_PREFIX || DEFAULT_PREFIX);
  return existsSync(join(prefix, 'sbin', 'asterisk')) ? prefix : null;
}

const asteriskEnv = (prefix: string): NodeJS.ProcessEnv => ({
  ...process.env,
  LD_LIBRARY_PATH: [join(prefix, 'lib'), process.env.LD_LIBRARY_PATH].filter(Boolean).join(':'),
});

let probed: { prefix: string | null; problem: string | null } | undefined;

/**
 * Why the real-Asterisk suite cannot run here (null: it can). A binary that is present but dies
 * (a build for another CPU dies of SIGILL before reading its configuration) is a problem too.
 * Probing costs one short run of the binary, once per process.
 */
export function asteriskProblem(): string | null {
  if (!probed) {
    const prefix = findAsterisk();
    if (!prefix) {
      probed = { prefix, problem: `no Asterisk at ${resolve(process.env.ASTERISK_PREFIX || DEFAULT_PREFIX)}/sbin/asterisk (${INSTALL_HINT})` };
    } else {
      // Without an instance to talk to, `-rx` starts, reads its (missing) configuration and exits 1.
      const run = spawnSync(join(prefix, 'sbin', 'asterisk'), ['-C', join(tmpdir(), 'pbxapi-no-such-dir', 'asterisk.conf'), '-rx', 'core show version'], {
        env: asteriskEnv(prefix),
        encoding: 'utf8',
        timeout: 10_000,
      });
      const problem = run.error
        ? `${prefix}/sbin/asterisk cannot be run: ${run.error.message}`
        : run.signal
          ? `${prefix}/sbin/asterisk dies of ${run.signal} on this machine${run.signal === 'SIGILL' ? ' (a build for another CPU: built with BUILD_NATIVE?)' : ''}`
          : null;
      probed = { prefix, problem };
    }
  }
  return probed.problem;
}

/**
 * `describe` for a file of real-Asterisk tests. When Asterisk is missing (or cannot run here) its
 * tests are skipped with one line on stderr, unless `CI` is set: then it throws, failing the file.
 */
export function asteriskSuite(name: string, body: () => void): void {
  const problem = asteriskProblem();
  if (!problem) {
    describe(name, body);
    return;
  }
  if (process.env.CI) throw new Error(`real-Asterisk suite cannot run in CI: ${problem}`);
  process.stderr.write(`real-Asterisk suite skipped: ${problem}\n`);
  describe.skip(name, body);
}

export interface StartAsteriskOptions {
  /** Host files of docs/asterisk/ to leave out, e.g. `['queues.conf']` (a module that declines at start). */
  without?: string[];
  /** Test-only dialplan (a caller that sends DTMF...): `harness-extensions.conf`, included at the end of extensions.conf. */
  extraDialplan?: string;
  /** Test-only PJSIP objects: `harness-pjsip.conf`, included at the end of pjsip.conf. */
  extraPjsip?: string;
  /** More files written into the etc folder before the start (`pbxapi-queues-t1.conf`, `pjsip_notify.conf`...). */
  files?: Record<string, string>;
  /** How long the boot may take; 30 s by default. */
  bootTimeoutMs?: number;
  /**
   * The host's own zone (IANA), as an operator's /etc/localtime sets it: Asterisk (cdr_manager's
   * times) reads that file, not TZ, so the instance runs in a mount namespace of its own with the
   * zone's file bound over /etc/localtime. Root only (tests and CI run as root here).
   */
  hostZone?: string;
}

/** What the host files' substitution needs: the instance's ports. */
export interface InstancePorts {
  ami: number;
  sipUdp: number;
  sipTcp: number;
}

/** The instances of this process still running, killed if the process exits without stopping them. */
const running = new Set<ChildProcess>();
let exitHookInstalled = false;
function track(child: ChildProcess) {
  running.add(child);
  child.once('exit', () => running.delete(child));
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.once('exit', () => {
      for (const c of running) c.kill('SIGKILL');
    });
  }
}

/** Starts a private Asterisk on docs/asterisk/ and waits until it has fully booted and AMI answers. */
export async function startAsterisk(options: StartAsteriskOptions = {}): Promise<AsteriskInstance> {
  const prefix = findAsterisk();
  if (!prefix) throw new Error(`no Asterisk at ${process.env.ASTERISK_PREFIX || DEFAULT_PREFIX} (${INSTALL_HINT})`);
  const problem = asteriskProblem();
  if (problem) throw new Error(problem);
  // A port the OS handed out can be taken again before Asterisk binds it: a new folder and new ports then.
  for (let attempt = 1; ; attempt++) {
    const instance = new AsteriskInstance(prefix, await freePorts(), options);
    try {
      await instance.boot(options.bootTimeoutMs ?? 30_000);
      return instance;
    } catch (error) {
      await instance.stop();
      if (!(error instanceof PortTakenError) || attempt >= 3) throw error;
    }
  }
}

class PortTakenError extends Error {}

/** A running private Asterisk. */
export class AsteriskInstance {
  readonly runDir: string;
  readonly etcDir: string;
  readonly dataDir: string;
  readonly logPath: string;
  readonly configPath: string;
  readonly amiHost = '127.0.0.1';
  readonly amiPort: number;
  readonly amiUser: string;
  readonly amiSecret: string;
  readonly sipHost = '127.0.0.1';
  /** transport-udp's port. */
  readonly sipPort: number;
  /** transport-tcp's port. */
  readonly sipTcpPort: number;
  private child: ChildProcess | undefined;
  private exited: Promise<void> = Promise.resolve();
  private stopped = false;

  constructor(
    readonly prefix: string,
    ports: InstancePorts,
    private readonly options: StartAsteriskOptions,
  ) {
    this.amiPort = ports.ami;
    this.sipPort = ports.sipUdp;
    this.sipTcpPort = ports.sipTcp;
    this.runDir = makeRunDir();
    this.etcDir = join(this.runDir, 'etc');
    this.dataDir = join(this.runDir, 'data');
    this.logPath = join(this.runDir, 'log', 'full');
    this.configPath = join(this.etcDir, 'asterisk.conf');
    try {
      for (const dir of ['etc', 'data/sounds', 'lib/keys', 'spool', 'run', 'log', 'cache']) mkdirSync(join(this.runDir, dir), { recursive: true });
      symlinkSync(SOUNDS_EN_DIR, join(this.dataDir, 'sounds', 'en'));
      writeFileSync(this.configPath, asteriskConf(this.runDir, prefix));
      writeFileSync(join(this.etcDir, 'logger.conf'), LOGGER_CONF);

      const without = new Set(options.without ?? []);
      for (const name of without) if (!existsSync(join(HOST_FILES_DIR, name))) throw new Error(`without: docs/asterisk/ has no ${name}`);
      const hostFiles = readdirSync(HOST_FILES_DIR).filter((name) => name.endsWith('.conf') && !without.has(name));
      for (const name of hostFiles) writeFileSync(join(this.etcDir, name), instanceHostFile(name, readFileSync(join(HOST_FILES_DIR, name), 'utf8'), ports));
      for (const [host, extra] of [
        ['extensions.conf', options.extraDialplan],
        ['pjsip.conf', options.extraPjsip],
      ] as const) {
        if (extra === undefined) continue;
        if (without.has(host)) throw new Error(`extra configuration for ${host}, which is left out`);
        const name = `harness-${host}`;
        writeFileSync(join(this.etcDir, name), extra.endsWith('\n') ? extra : `${extra}\n`);
        writeFileSync(join(this.etcDir, host), `${readFileSync(join(this.etcDir, host), 'utf8')}\n; Added by the test harness.\n#include "${name}"\n`);
      }
      for (const [name, content] of Object.entries(options.files ?? {})) this.writeEtcFile(name, content);
    } catch (error) {
      rmSync(this.runDir, { recursive: true, force: true });
      throw error;
    }

    const manager = existsSync(join(this.etcDir, 'manager.conf')) ? readFileSync(join(this.etcDir, 'manager.conf'), 'utf8') : '';
    const user = amiUserOf(manager);
    this.amiUser = user?.name ?? '';
    this.amiSecret = user?.secret ?? '';
  }

  /** Starts the process and waits for `core waitfullybooted` and the AMI greeting. */
  async boot(timeoutMs: number): Promise<void> {
    const out = openSync(join(this.runDir, 'log', 'stdout'), 'a');
    const binary = join(this.prefix, 'sbin', 'asterisk');
    const zone = this.options.hostZone;
    if (zone && !/^[A-Za-z0-9_+-]+(\/[A-Za-z0-9_+-]+)*$/.test(zone)) throw new Error(`not a zone name: ${zone}`);
    // `unshare` execs the shell, which execs Asterisk: the child's pid stays Asterisk's.
    const [command, args] = zone
      ? [
          'unshare',
          [
            '--mount',
            '--propagation',
            'private',
            'sh',
            '-c',
            `mount --bind /usr/share/zoneinfo/${zone} /etc/localtime && exec "$0" "$@"`,
            binary,
            '-f',
            '-C',
            this.configPath,
          ],
        ]
      : [binary, ['-f', '-C', this.configPath]];
    const child = spawn(command, args, {
      cwd: this.runDir,
      env: asteriskEnv(this.prefix),
      stdio: ['ignore', out, out],
    });
    closeSync(out);
    this.child = child;
    track(child);
    const state: { ended: string | null } = { ended: null };
    this.exited = new Promise((resolveExit) => {
      child.once('exit', (code, signal) => {
        state.ended = signal ? `signal ${signal}` : `exit code ${code}`;
        resolveExit();
      });
      child.once('error', (error) => {
        state.ended = error.message;
        resolveExit();
      });
    });

    const deadline = Date.now() + timeoutMs;
    const failure = (what: string) => new Error(`Asterisk in ${this.runDir} ${what}\n${this.tail(25)}`);
    const controlSocket = join(this.runDir, 'run', 'asterisk.ctl');
    for (;;) {
      if (state.ended) throw failure(`ended before it booted (${state.ended})`);
      if (Date.now() > deadline) throw failure(`did not boot in ${timeoutMs} ms`);
      if (existsSync(controlSocket)) {
        // Blocks until the boot is over; fails while the control socket does not accept yet.
        const booted = await this.cli('core waitfullybooted', Math.max(1_000, deadline - Date.now())).catch(() => '');
        if (/fully booted/i.test(booted)) break;
      }
      await sleep(25);
    }
    const taken = /Unable to bind .*Address already in use|could not be started: Address already in use/.exec(this.log());
    if (taken) throw new PortTakenError(`Asterisk could not take its port: ${taken[0]}`);
    const greeting = await amiGreeting(this.amiHost, this.amiPort, Math.max(1_000, deadline - Date.now()));
    if (!greeting.startsWith('Asterisk Call Manager/')) throw failure(`AMI on ${this.amiPort} greeted with "${greeting}"`);
  }

  /** Runs a CLI command (`asterisk -rx`) and answers its output; throws when the instance cannot be reached. */
  cli(command: string, timeoutMs = 30_000): Promise<string> {
    return new Promise((resolveOutput, reject) => {
      const run = spawn(join(this.prefix, 'sbin', 'asterisk'), ['-C', this.configPath, '-rx', command], {
        env: asteriskEnv(this.prefix),
        stdio: ['ignore', 'pipe', 'pipe'],
        timeout: timeoutMs,
      });
      let stdout = '';
      let stderr = '';
      run.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
      run.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
      run.once('error', reject);
      run.once('close', (code, signal) => {
        if (code === 0) resolveOutput(stdout);
        else reject(new Error(`asterisk -rx '${command}' ended with ${signal ?? `exit code ${code}`}: ${(stderr || stdout).trim()}`));
      });
    });
  }

  /** The full log (`full => notice,warning,error,verbose`) so far. */
  log(): string {
    return existsSync(this.logPath) ? readFileSync(this.logPath, 'utf8') : '';
  }

  /** The log's length now: pass it to `waitForLog` to look only at what comes after. */
  logMark(): number {
    return existsSync(this.logPath) ? statSync(this.logPath).size : 0;
  }

  /** Waits until the log (from byte `since` on) matches; throws with the log's end after `timeoutMs`. */
  async waitForLog(pattern: RegExp, timeoutMs = 10_000, since = 0): Promise<RegExpExecArray> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const text = readFileSync(this.logPath).subarray(since).toString('utf8');
      const match = new RegExp(pattern.source, pattern.flags.replace('g', '')).exec(text);
      if (match) return match;
      if (Date.now() > deadline) throw new Error(`the Asterisk log did not show ${String(pattern)} in ${timeoutMs} ms\n${this.tail(25)}`);
      await sleep(50);
    }
  }

  readEtcFile(name: string): string {
    return readFileSync(join(this.etcDir, name), 'utf8');
  }

  writeEtcFile(name: string, content: string): void {
    if (name.includes('/') || name.startsWith('.')) throw new Error(`not a file name: ${name}`);
    writeFileSync(join(this.etcDir, name), content);
  }

  /** `core stop now`, then SIGKILL if it lingers; removes the folder (kept when `ASTERISK_KEEP_RUN` is set). Idempotent. */
  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    const child = this.child;
    if (child && child.exitCode === null && child.signalCode === null) {
      await this.cli('core stop now', 5_000).catch(() => undefined);
      if (!(await within(this.exited, 5_000))) {
        child.kill('SIGKILL');
        await within(this.exited, 5_000);
      }
    }
    if (process.env.ASTERISK_KEEP_RUN) process.stderr.write(`Asterisk run folder kept: ${this.runDir}\n`);
    else rmSync(this.runDir, { recursive: true, force: true });
  }

  private tail(lines: number): string {
    const log = this.log().trimEnd().split('\n').slice(-lines).join('\n');
    const stdoutPath = join(this.runDir, 'log', 'stdout');
    const stdout = existsSync(stdoutPath) ? readFileSync(stdoutPath, 'utf8').trim().split('\n').slice(-5).join('\n') : '';
    return [log && `log (end):\n${log}`, stdout && `stdout (end):\n${stdout}`].filter(Boolean).join('\n');
  }
}

/** asterisk.conf: every directory inside the run folder, sounds through `data/sounds/en`, modules from the prefix. */
function asteriskConf(run: string, prefix: string): string {
  return `; Written by test/asterisk/harness.ts. Not "[directories](!)": a template section is ignored.
[directories]
astetcdir => ${run}/etc
astmoddir => ${prefix}/lib/asterisk/modules
astvarlibdir => ${run}/lib
astdbdir => ${run}/lib
astkeydir => ${run}/lib
astdatadir => ${run}/data
astagidir => ${run}/data/agi-bin
astspooldir => ${run}/spool
astrundir => ${run}/run
astlogdir => ${run}/log
astcachedir => ${run}/cache

[options]
verbose = 3
hideconnect = yes
`;
}

const LOGGER_CONF = `; Written by test/asterisk/harness.ts.
[general]
dateformat = %F %T.%3q

[logfiles]
full => notice,warning,error,verbose
`;

/**
 * A host file of docs/asterisk/ for one instance: the AMI port in manager.conf, the transports'
 * bind addresses in pjsip.conf (127.0.0.1 and the instance's ports). Every other byte is the file's.
 */
export function instanceHostFile(name: string, content: string, ports: InstancePorts): string {
  if (name === 'manager.conf') {
    let text = replaceInSection(name, content, 'general', /^port\s*=.*$/m, `port = ${ports.ami}`);
    text = replaceInSection(name, text, 'general', /^bindaddr\s*=.*$/m, 'bindaddr = 127.0.0.1');
    return text;
  }
  if (name === 'pjsip.conf') {
    let text = replaceInSection(name, content, 'transport-udp', /^bind\s*=.*$/m, `bind = 127.0.0.1:${ports.sipUdp}`);
    text = replaceInSection(name, text, 'transport-tcp', /^bind\s*=.*$/m, `bind = 127.0.0.1:${ports.sipTcp}`);
    return text;
  }
  return content;
}

/** Replaces the one line matching `line` inside `[section]`; throws when there is not exactly one. */
function replaceInSection(file: string, content: string, section: string, line: RegExp, replacement: string): string {
  const header = new RegExp(`^\\[${section.replace(/[-\\^$*+?.()|[\]{}]/g, '\\$&')}\\][^\\n]*$`, 'm');
  const start = header.exec(content);
  if (!start) throw new Error(`docs/asterisk/${file}: no [${section}] section for the harness to give its own port`);
  const bodyStart = start.index + start[0].length;
  const next = /^\[/m.exec(content.slice(bodyStart));
  const bodyEnd = next ? bodyStart + next.index : content.length;
  const body = content.slice(bodyStart, bodyEnd);
  const global = new RegExp(line.source, 'gm');
  const count = body.match(global)?.length ?? 0;
  if (count !== 1) throw new Error(`docs/asterisk/${file}: [${section}] has ${count} lines matching ${String(line)}, the harness expects one`);
  return content.slice(0, bodyStart) + body.replace(line, replacement) + content.slice(bodyEnd);
}

/** The AMI user of manager.conf: the first section other than [general] with a secret. */
function amiUserOf(manager: string): { name: string; secret: string } | null {
  let section: string | null = null;
  for (const raw of manager.split('\n')) {
    const line = raw.replace(/(^|[^\\]);.*$/, '$1').trim();
    const header = /^\[([^\]]+)\]/.exec(line);
    if (header) section = header[1];
    const secret = /^secret\s*=>?\s*(.*)$/.exec(line);
    if (secret && section && section !== 'general') return { name: section, secret: secret[1].trim() };
  }
  return null;
}

function makeRunDir(): string {
  // The control socket's path (run/asterisk.ctl) must fit a Unix socket address (108 bytes).
  const base = tmpdir().length <= 60 ? tmpdir() : '/tmp';
  return mkdtempSync(join(base, 'pbxapi-asterisk-'));
}

/** Three ports the OS reports free now: AMI (TCP), SIP over UDP, SIP over TCP. */
async function freePorts(): Promise<InstancePorts> {
  const ami = await freeTcpPort();
  let sipTcp = await freeTcpPort();
  while (sipTcp === ami) sipTcp = await freeTcpPort();
  return { ami, sipUdp: await freeUdpPort(), sipTcp };
}

/** A TCP port on 127.0.0.1 the OS reports free (bound to port 0, then released). */
export function freeTcpPort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolvePort(port));
    });
  });
}

/** A UDP port on 127.0.0.1 the OS reports free (bound to port 0, then released). */
export function freeUdpPort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const socket = createSocket('udp4');
    socket.once('error', reject);
    socket.bind(0, '127.0.0.1', () => {
      const { port } = socket.address();
      socket.close(() => resolvePort(port));
    });
  });
}

/** The first line AMI sends on a new connection. */
function amiGreeting(host: string, port: number, timeoutMs: number): Promise<string> {
  return new Promise((resolveGreeting, reject) => {
    const socket = createConnection({ host, port });
    let text = '';
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`AMI on ${host}:${port} sent no greeting in ${timeoutMs} ms`));
    }, timeoutMs);
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      text += chunk;
      const end = text.indexOf('\n');
      if (end >= 0) {
        clearTimeout(timer);
        socket.destroy();
        resolveGreeting(text.slice(0, end).trim());
      }
    });
    socket.once('error', (error) => {
      clearTimeout(timer);
      reject(new Error(`AMI on ${host}:${port}: ${error.message}`));
    });
  });
}

export const sleep = (ms: number) => new Promise<void>((done) => setTimeout(done, ms));

/** True when `promise` settles within `ms`. */
async function within(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((done) => (timer = setTimeout(() => done(false), ms)));
  try {
    return await Promise.race([promise.then(() => true as const), timeout]);
  } finally {
    clearTimeout(timer);
  }
}
