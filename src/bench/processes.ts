import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import { createServer } from 'node:net';

/**
 * Child processes, temp dirs and other resources of a benchmark run, released in reverse order on
 * normal completion, on error, and on Ctrl-C / SIGTERM. Children and dirs are also released
 * synchronously on process exit, as a last resort.
 */
const children = new Set<ChildProcess>();
const tempDirs = new Set<string>();
const cleanups: Array<() => Promise<void>> = [];
let handlersInstalled = false;

export function trackTempDir(dir: string): void {
  tempDirs.add(dir);
}

export function removeTempDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
  tempDirs.delete(dir);
}

/** Registers an async release step (e.g. dropping a PostgreSQL schema) for `cleanupAll`. */
export function onCleanup(step: () => Promise<void>): () => void {
  cleanups.push(step);
  return () => {
    const index = cleanups.indexOf(step);
    if (index >= 0) cleanups.splice(index, 1);
  };
}

function killAllNow(): void {
  for (const child of children) {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }
  children.clear();
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
  tempDirs.clear();
}

export async function cleanupAll(): Promise<void> {
  while (cleanups.length) {
    const step = cleanups.pop()!;
    try {
      await step();
    } catch (error) {
      process.stderr.write(`bench: clean-up step failed: ${(error as Error).message}\n`);
    }
  }
  await Promise.all([...children].map((child) => stopChild(child)));
  killAllNow();
}

export function installCleanupHandlers(): void {
  if (handlersInstalled) return;
  handlersInstalled = true;
  process.on('exit', killAllNow);
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.once(signal, () => {
      process.stderr.write(`\nbench: ${signal}, stopping children and cleaning up...\n`);
      const hardExit = setTimeout(() => process.exit(130), 10_000);
      hardExit.unref();
      void cleanupAll().finally(() => process.exit(130));
    });
  }
}

let tasksetAvailable: boolean | undefined;

export function hasCommand(command: string): boolean {
  const result = spawnSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' });
  return result.status === 0;
}

/** `[command, ...args]`, prefixed with `taskset -c CPU` when a core is given and taskset exists. */
export function pinned(cpu: number | null, command: string, args: string[]): [string, string[]] {
  if (cpu === null) return [command, args];
  tasksetAvailable ??= hasCommand('taskset');
  return tasksetAvailable ? ['taskset', ['-c', String(cpu), command, ...args]] : [command, args];
}

export interface StartedChild {
  child: ChildProcess;
  /** The last lines the child wrote (stdout and stderr), for error messages. */
  output(): string;
  stop(): Promise<void>;
}

/** Spawns a tracked child whose output is kept (last 16 KB) but not shown. */
export function startChild(command: string, args: string[], env: NodeJS.ProcessEnv, cpu: number | null = null): StartedChild {
  const [cmd, argv] = pinned(cpu, command, args);
  const child = spawn(cmd, argv, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  children.add(child);
  let tail = '';
  const keep = (chunk: Buffer) => {
    tail = (tail + chunk.toString('utf8')).slice(-16_384);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  child.on('exit', () => children.delete(child));
  child.on('error', (error) => keep(Buffer.from(`spawn error: ${error.message}\n`)));
  return { child, output: () => tail, stop: () => stopChild(child) };
}

/** SIGTERM, then SIGKILL after a grace period; resolves once the child is gone. */
export function stopChild(child: ChildProcess, graceMs = 5_000): Promise<void> {
  children.delete(child);
  if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

/** Runs a tracked child to completion and returns its stdout; rejects on a non-zero exit. */
export function runChild(command: string, args: string[], env: NodeJS.ProcessEnv, cpu: number | null = null, timeoutMs = 600_000): Promise<string> {
  const [cmd, argv] = pinned(cpu, command, args);
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, argv, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    children.add(child);
    const out: Buffer[] = [];
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => {
      err = (err + chunk.toString('utf8')).slice(-8_192);
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      children.delete(child);
      reject(new Error(`${command}: ${error.message}`));
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      children.delete(child);
      const stdout = Buffer.concat(out).toString('utf8');
      if (code === 0) resolve(stdout);
      else reject(new Error(`${command} ${args.join(' ')} exited with ${code ?? signal}: ${err.trim() || stdout.trim().slice(-2_000)}`));
    });
  });
}

/** A loopback port that was free a moment ago. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => (port ? resolve(port) : reject(new Error('no free port'))));
    });
  });
}

/** Polls `url` every `pollMs` until it answers 200; fails early when the child exits, or after `timeoutMs`. */
export async function waitForHttp(url: string, started: StartedChild, timeoutMs = 60_000, pollMs = 100): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = '';
  while (Date.now() < deadline) {
    if (started.child.exitCode !== null || started.child.signalCode !== null) {
      throw new Error(`server exited (${started.child.exitCode ?? started.child.signalCode}) before answering ${url}:\n${started.output().trim()}`);
    }
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(2_000) });
      await response.arrayBuffer();
      if (response.ok) return;
      last = `HTTP ${response.status}`;
    } catch (error) {
      last = (error as Error).message;
    }
    await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
  throw new Error(`${url} did not answer 200 within ${timeoutMs} ms (last: ${last}):\n${started.output().trim()}`);
}
