/**
 * Clients of the live event streams (#37) for tests, over real connections: a Server-Sent Events
 * reader that keeps every frame (events, control events, comments) and a WebSocket reader that
 * keeps every message and how the socket closed.
 */
import { request, type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { WebSocket } from 'ws';

/** One frame of a stream: an event (`event` its kind, `reset` or `close`) or a comment line. */
export interface SseFrame {
  id?: string;
  event?: string;
  data?: string;
  comment?: string;
}

async function waitFor(done: () => boolean, ms: number, what: () => string): Promise<void> {
  const deadline = Date.now() + ms;
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${ms} ms waiting for ${what()}`);
    await sleep(5);
  }
}

export class SseClient {
  readonly frames: SseFrame[] = [];
  ended = false;
  private pending = '';

  constructor(
    readonly status: number,
    readonly headers: IncomingHttpHeaders,
    private readonly response: IncomingMessage,
  ) {
    response.setEncoding('utf8');
    response.on('data', (chunk: string) => this.take(chunk));
    response.on('end', () => (this.ended = true));
    response.on('close', () => (this.ended = true));
    response.on('error', () => (this.ended = true));
  }

  /** The events received (no comments), control events included. */
  events(): SseFrame[] {
    return this.frames.filter((frame) => frame.event !== undefined || frame.data !== undefined);
  }

  /** The ids of the events of registered kinds received, as numbers. */
  ids(): number[] {
    return this.events()
      .filter((frame) => frame.event !== 'reset' && frame.event !== 'close')
      .map((frame) => Number(frame.id));
  }

  data<T = Record<string, unknown>>(): T[] {
    return this.events().map((frame) => JSON.parse(frame.data ?? 'null') as T);
  }

  async until(done: (client: SseClient) => boolean, ms = 3000): Promise<this> {
    await waitFor(
      () => done(this),
      ms,
      () => `stream frames, got ${JSON.stringify(this.frames).slice(0, 500)}`,
    );
    return this;
  }

  /** Waits for `count` events (control events included). */
  async count(count: number, ms = 3000): Promise<SseFrame[]> {
    await this.until((client) => client.events().length >= count, ms);
    return this.events();
  }

  async endOfStream(ms = 3000): Promise<this> {
    return this.until((client) => client.ended, ms);
  }

  /** Stops reading: the server's writes back up once the socket buffers fill. */
  pause(): void {
    this.response.pause();
    this.response.socket.pause();
  }

  resume(): void {
    this.response.socket.resume();
    this.response.resume();
  }

  close(): void {
    this.response.destroy();
  }

  private take(chunk: string): void {
    this.pending += chunk;
    let end: number;
    while ((end = this.pending.indexOf('\n\n')) >= 0) {
      const block = this.pending.slice(0, end);
      this.pending = this.pending.slice(end + 2);
      const frame: SseFrame = {};
      for (const line of block.split('\n')) {
        if (line.startsWith(':')) frame.comment = line.slice(1).trim();
        else {
          const colon = line.indexOf(':');
          const field = line.slice(0, colon);
          const value = line.slice(colon + 1).replace(/^ /, '');
          if (field === 'id' || field === 'event' || field === 'data') frame[field] = value;
        }
      }
      this.frames.push(frame);
    }
  }
}

/** Opens `url` (a stream); resolves once the answer's headers arrived. A refusal's body is read whole (`body`). */
export function openSse(url: string, headers: Record<string, string> = {}): Promise<SseClient & { body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers: { accept: 'text/event-stream', ...headers } }, (response) => {
      const client = new SseClient(response.statusCode ?? 0, response.headers, response) as SseClient & { body: string };
      client.body = '';
      if (client.status !== 200) {
        let body = '';
        response.on('data', (chunk: string) => (body += chunk));
        response.on('end', () => {
          client.body = body;
          resolve(client);
        });
        return;
      }
      resolve(client);
    });
    req.on('error', reject);
    req.end();
  });
}

export class SocketClient {
  readonly messages: Array<Record<string, unknown>> = [];
  closed: { code: number; reason: string } | null = null;

  constructor(readonly socket: WebSocket) {
    socket.on('message', (data: Buffer) => this.messages.push(JSON.parse(data.toString()) as Record<string, unknown>));
    socket.on('close', (code: number, reason: Buffer) => (this.closed = { code, reason: reason.toString() }));
  }

  /** The ids of the events received (no `reset`), as numbers. */
  ids(): number[] {
    return this.messages.filter((message) => message.kind !== 'reset').map((message) => Number(message.id));
  }

  async count(count: number, ms = 3000): Promise<Array<Record<string, unknown>>> {
    await waitFor(
      () => this.messages.length >= count,
      ms,
      () => `socket messages, got ${JSON.stringify(this.messages).slice(0, 500)}`,
    );
    return this.messages;
  }

  async closing(ms = 3000): Promise<{ code: number; reason: string }> {
    await waitFor(
      () => this.closed !== null,
      ms,
      () => 'the socket to close',
    );
    return this.closed!;
  }

  close(): void {
    this.socket.close();
  }
}

/** Opens a WebSocket to `url` (ws://); a refused upgrade rejects with its HTTP status and body. */
export function openSocket(url: string, headers: Record<string, string> = {}): Promise<SocketClient> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, { headers });
    const client = new SocketClient(socket);
    socket.once('open', () => resolve(client));
    socket.once('unexpected-response', (_req, response: IncomingMessage) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('end', () => reject(Object.assign(new Error(`HTTP ${response.statusCode}`), { status: response.statusCode, body })));
    });
    socket.once('error', reject);
  });
}
