/**
 * SIP phones for real-Asterisk tests, played by SIPp (`sipp`, Debian's sip-tester) from the
 * scenarios in test/asterisk/scenarios/:
 *
 * - `register.xml`: REGISTER, the 401 challenge, REGISTER with the digest of -au/-ap; a `<log>`
 *   line "STATUS <code>" tells the final answer. After a 200 it pauses -d ms (0: it just registers).
 * - `answer.xml`: the out-of-call scenario (-oocsf) of an answering phone: every request of a new
 *   Call-ID runs it. OPTIONS and NOTIFY get 200; an INVITE gets 180, 200 with SDP (PCMU), and the
 *   call stays up until Asterisk's BYE, or until the harness sends an INFO on the call, when the
 *   phone sends BYE itself. It logs "INVITE <id>", "ANSWERED <id>", "ENDED <id> by-remote|by-phone".
 *
 * Every SIPp runs without a shell, its password one argv element (SIPp computes the digest from
 * it as given: `;`, `#`, `\`, spaces and `"` included), on 127.0.0.1 and a port the OS chose, its
 * files in a folder under the Asterisk instance's run folder (removed with it).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createSocket } from 'node:dgram';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freeUdpPort, sleep, type AsteriskInstance } from './harness.js';

export const SCENARIOS_DIR = fileURLToPath(new URL('./scenarios/', import.meta.url));

export interface PhoneOptions {
  asterisk: AsteriskInstance;
  /** The SIP user name (the endpoint's AOR name in the Request-URI, From and To). */
  username: string;
  password: string;
  /** The user name of the digest, when it is not `username`. */
  authUsername?: string;
  /** Expires of the REGISTER, seconds; 3600 by default. */
  expires?: number;
  /** How long the registration may take; 15 s by default. */
  timeoutMs?: number;
}

interface SippRun {
  child: ChildProcess;
  dir: string;
  port: number;
  logPath: string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  stderr: () => string;
}

function startSipp(options: PhoneOptions, extraArgs: string[], port: number, label: string): SippRun {
  const dir = mkdtempSync(join(options.asterisk.runDir, `sipp-${label}-`));
  const logPath = join(dir, 'actions.log');
  const args = [
    `${options.asterisk.sipHost}:${options.asterisk.sipPort}`,
    '-sf',
    join(SCENARIOS_DIR, 'register.xml'),
    '-s',
    options.username,
    '-au',
    options.authUsername ?? options.username,
    '-ap',
    options.password,
    '-key',
    'expires',
    String(options.expires ?? 3600),
    '-i',
    '127.0.0.1',
    '-mi',
    '127.0.0.1',
    '-p',
    String(port),
    '-m',
    '1',
    '-nostdin',
    '-trace_logs',
    '-log_file',
    logPath,
    '-trace_err',
    '-error_file',
    join(dir, 'errors.log'),
    '-trace_msg',
    '-message_file',
    join(dir, 'messages.log'),
    ...extraArgs,
  ];
  const child = spawn('sipp', args, { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done) => {
    child.once('exit', (code, signal) => done({ code, signal }));
    child.once('error', (error: NodeJS.ErrnoException) => {
      stderr += error.code === 'ENOENT' ? 'SIPp (sipp) is not installed: run ../shared/asterisk/install.sh' : error.message;
      done({ code: null, signal: null });
    });
  });
  return { child, dir, port, logPath, exited, stderr: () => stderr };
}

const readText = (path: string) => (existsSync(path) ? readFileSync(path, 'utf8') : '');
const statusOf = (run: SippRun) => /^STATUS (\d{3})$/m.exec(readText(run.logPath));

function sippFailure(run: SippRun, what: string): Error {
  const errors = readText(join(run.dir, 'errors.log')).trim().split('\n').slice(-10).join('\n');
  return new Error(`SIPp on port ${run.port} ${what}\n${[run.stderr().trim(), errors].filter(Boolean).join('\n')}`);
}

/** SIPp exits -2 (254) when it cannot bind its port: taken since the OS reported it free. */
const BIND_FAILED = 254;

/**
 * Registers `username` once: resolves with Asterisk's final answer, 200, or 401/403 (404) when it
 * refused. With `expectStatus`, any other answer rejects.
 */
export async function registerPhone(options: PhoneOptions & { expectStatus?: number }): Promise<number> {
  const timeoutMs = options.timeoutMs ?? 15_000;
  for (let attempt = 1; ; attempt++) {
    const run = startSipp(options, ['-d', '0', '-timeout', `${Math.ceil(timeoutMs / 1000)}s`, '-timeout_error'], await freeUdpPort(), 'register');
    const { code, signal } = await run.exited;
    const status = statusOf(run);
    if (!status) {
      if (code === BIND_FAILED && attempt < 3) continue;
      throw sippFailure(run, `registering ${options.username} got no final answer (${signal ?? `exit code ${code}`})`);
    }
    const answer = Number(status[1]);
    if (options.expectStatus !== undefined && answer !== options.expectStatus) {
      throw sippFailure(run, `registering ${options.username}: Asterisk answered ${answer}, expected ${options.expectStatus}`);
    }
    return answer;
  }
}

export interface AnsweredCall {
  callId: string;
}

/** A registered phone that answers every call. */
export interface AnsweringPhone {
  readonly username: string;
  /** The phone's SIP port (UDP, 127.0.0.1). */
  readonly port: number;
  /** INVITEs received so far. */
  readonly calls: number;
  /** Calls answered and not ended yet (their Call-IDs). */
  readonly activeCalls: string[];
  /** The next answered call not yet returned by an earlier waitForCall. */
  waitForCall(timeoutMs?: number): Promise<AnsweredCall>;
  /** Waits until the call ends: `by-remote` (Asterisk sent BYE) or `by-phone` (after hangup()). */
  waitForEnd(callId: string, timeoutMs?: number): Promise<'by-remote' | 'by-phone'>;
  /** The phone hangs up (sends BYE on) the call, the only active call by default. */
  hangup(callId?: string, timeoutMs?: number): Promise<void>;
  /** SIPp's `<log>` lines so far. */
  log(): string;
  /** Ends SIPp (its registration stays in Asterisk until it expires). Idempotent. */
  stop(): Promise<void>;
}

/**
 * Registers `username` (rejecting unless Asterisk answers 200), then answers every INVITE; with
 * `busy`, refuses every INVITE with 486 Busy Here instead (scenarios/busy.xml).
 */
export async function answeringPhone(options: PhoneOptions & { busy?: boolean }): Promise<AnsweringPhone> {
  const timeoutMs = options.timeoutMs ?? 15_000;
  for (let attempt = 1; ; attempt++) {
    const scenario = join(SCENARIOS_DIR, options.busy ? 'busy.xml' : 'answer.xml');
    const run = startSipp(options, ['-oocsf', scenario, '-d', String(24 * 3600 * 1000)], await freeUdpPort(), 'phone');
    const ended = { value: false };
    void run.exited.then(() => (ended.value = true));
    const deadline = Date.now() + timeoutMs;
    let status = statusOf(run);
    while (!status && !ended.value && Date.now() <= deadline) {
      await sleep(25);
      status = statusOf(run);
    }
    if (!status) {
      run.child.kill('SIGKILL');
      const { code } = await run.exited;
      if (code === BIND_FAILED && attempt < 3) continue;
      throw sippFailure(run, `registering ${options.username} got no final answer in ${timeoutMs} ms`);
    }
    if (status[1] !== '200') {
      run.child.kill('SIGKILL');
      await run.exited;
      throw sippFailure(run, `registering ${options.username}: Asterisk answered ${status[1]}`);
    }
    return new SippAnsweringPhone(options.username, run, ended);
  }
}

class SippAnsweringPhone implements AnsweringPhone {
  private returned = 0;
  constructor(
    readonly username: string,
    private readonly run: SippRun,
    private readonly ended: { value: boolean },
  ) {}

  get port() {
    return this.run.port;
  }

  private lines(kind: 'INVITE' | 'ANSWERED' | 'ENDED'): string[][] {
    return readText(this.run.logPath)
      .split('\n')
      .filter((line) => line.startsWith(`${kind} `))
      .map((line) => line.split(' ').slice(1));
  }

  get calls() {
    return this.lines('INVITE').length;
  }

  get activeCalls() {
    const ended = new Set(this.lines('ENDED').map(([id]) => id));
    return this.lines('ANSWERED')
      .map(([id]) => id)
      .filter((id) => !ended.has(id));
  }

  log() {
    return readText(this.run.logPath);
  }

  private async until<T>(what: string, timeoutMs: number, found: () => T | undefined): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const value = found();
      if (value !== undefined) return value;
      if (this.ended.value) throw sippFailure(this.run, `(phone ${this.username}) ended while waiting for ${what}`);
      if (Date.now() > deadline) throw sippFailure(this.run, `(phone ${this.username}) saw no ${what} in ${timeoutMs} ms\n${this.log()}`);
      await sleep(25);
    }
  }

  async waitForCall(timeoutMs = 10_000): Promise<AnsweredCall> {
    const callId = await this.until('answered call', timeoutMs, () => this.lines('ANSWERED')[this.returned]?.[0]);
    this.returned++;
    return { callId };
  }

  waitForEnd(callId: string, timeoutMs = 10_000): Promise<'by-remote' | 'by-phone'> {
    return this.until(`end of call ${callId}`, timeoutMs, () => {
      const line = this.lines('ENDED').find(([id]) => id === callId);
      return line ? (line[1] as 'by-remote' | 'by-phone') : undefined;
    });
  }

  async hangup(callId?: string, timeoutMs = 10_000): Promise<void> {
    const active = this.activeCalls;
    const id = callId ?? (active.length === 1 ? active[0] : undefined);
    if (!id) throw new Error(`phone ${this.username}: hangup() needs a call id when ${active.length} calls are up`);
    await sendInfo(this.run.port, this.username, id);
    await this.waitForEnd(id, timeoutMs);
  }

  async stop(): Promise<void> {
    if (this.ended.value) return;
    this.run.child.kill('SIGTERM');
    const stopped = await Promise.race([this.run.exited.then(() => true), sleep(2_000).then(() => false)]);
    if (!stopped) {
      this.run.child.kill('SIGKILL');
      await this.run.exited;
    }
  }
}

/** The harness's hang-up trigger: an INFO on the call, which answer.xml waits for beside BYE. */
function sendInfo(port: number, username: string, callId: string): Promise<void> {
  return new Promise((done, reject) => {
    const socket = createSocket('udp4');
    socket.once('error', reject);
    socket.bind(0, '127.0.0.1', () => {
      const local = socket.address().port;
      const message = [
        `INFO sip:${username}@127.0.0.1:${port} SIP/2.0`,
        `Via: SIP/2.0/UDP 127.0.0.1:${local};branch=z9hG4bK-harness-${Date.now()}`,
        'Max-Forwards: 70',
        `From: <sip:harness@127.0.0.1:${local}>;tag=harness`,
        `To: <sip:${username}@127.0.0.1:${port}>`,
        `Call-ID: ${callId}`,
        'CSeq: 1 INFO',
        'X-Harness: hangup',
        'Content-Length: 0',
        '',
        '',
      ].join('\r\n');
      socket.send(message, port, '127.0.0.1', (error) => {
        socket.close();
        if (error) reject(error);
        else done();
      });
    });
  });
}
