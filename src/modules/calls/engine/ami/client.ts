import { EventEmitter } from 'node:events';
import { connect, type Socket } from 'node:net';
import { randomUUID } from 'node:crypto';
import { AmiMessage, AmiParser, maskedText, serializeAction, type AmiFields } from './protocol.js';

/** `not_admitted`: the host is outside the operator's allow-list, so no connection was attempted. */
export type AmiFailure = 'unreachable' | 'timeout' | 'login_failed' | 'disconnected' | 'rejected' | 'protocol' | 'not_admitted';

/**
 * A message Asterisk answered, to end a sentence of ours: without its own closing full stop
 * ("Extension does not exist." would read "…does not exist.." after ours).
 */
export const answerText = (message: string) => message.trim().replace(/\.+$/, '');

export class AmiError extends Error {
  constructor(
    readonly kind: AmiFailure,
    message: string,
  ) {
    super(message);
  }
}

export interface AmiTraceEntry {
  direction: 'sent' | 'received';
  /** Milliseconds since the connection was opened. */
  at_ms: number;
  message: string;
}

export interface AmiConnectOptions {
  /** The PBX's host as configured (what messages name). */
  host: string;
  /** The address to connect to, when the host was resolved and checked beforehand (see host-guard.ts). */
  address?: string;
  port: number;
  connectTimeoutMs: number;
  actionTimeoutMs: number;
  /** Record the exchange (secrets masked). */
  trace?: boolean;
}

interface Pending {
  resolve(result: AmiActionResult): void;
  reject(error: AmiError): void;
  timer: NodeJS.Timeout;
  response: AmiMessage | null;
  events: AmiMessage[];
}

export interface AmiActionResult {
  response: AmiMessage;
  /** Events of an event-list answer (`EventList: start` ... `EventList: Complete`). */
  events: AmiMessage[];
}

/**
 * One AMI connection: banner, login, actions correlated with their answers by ActionID (including
 * event-list answers), and events for listeners. Every pending action fails at once when the
 * connection drops, and on its own after the action time-out.
 */
export class AmiClient extends EventEmitter<{ event: [AmiMessage]; close: [AmiError] }> {
  readonly trace: AmiTraceEntry[] = [];
  banner = '';
  private readonly pending = new Map<string, Pending>();
  private readonly opened = Date.now();
  private closed = false;

  private constructor(
    private readonly socket: Socket,
    private readonly options: AmiConnectOptions,
  ) {
    super();
  }

  static connect(options: AmiConnectOptions): Promise<AmiClient> {
    return new Promise((resolve, reject) => {
      const socket = connect({ host: options.address ?? options.host, port: options.port });
      const client = new AmiClient(socket, options);
      socket.setEncoding('utf8');
      socket.setNoDelay(true);
      let settled = false;
      const fail = (error: AmiError) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        socket.destroy();
        reject(error);
      };
      const timer = setTimeout(
        () => fail(new AmiError('timeout', `Timed out connecting to the PBX at ${options.host}:${options.port}.`)),
        options.connectTimeoutMs,
      );
      const parser = new AmiParser(
        (banner) => {
          client.banner = banner;
          client.record('received', banner);
          if (!/^Asterisk Call Manager\//.test(banner)) return fail(new AmiError('protocol', 'The PBX did not answer with an Asterisk Call Manager banner.'));
          settled = true;
          clearTimeout(timer);
          resolve(client);
        },
        (message) => client.dispatch(message),
      );
      socket.on('data', (chunk: string) => parser.push(chunk));
      socket.on('error', (error: NodeJS.ErrnoException) => {
        const reason =
          error.code === 'ECONNREFUSED'
            ? 'it refused the connection'
            : error.code === 'ENOTFOUND'
              ? 'its host name could not be resolved'
              : `the connection failed (${error.code ?? error.message})`;
        const failure = new AmiError('unreachable', `The PBX at ${options.host}:${options.port} is unreachable: ${reason}.`);
        fail(failure);
        client.shutdown(failure);
      });
      socket.on('close', () => {
        fail(new AmiError('unreachable', `The PBX at ${options.host}:${options.port} closed the connection before its banner.`));
        client.shutdown(new AmiError('disconnected', 'The PBX closed the connection.'));
      });
    });
  }

  get isOpen(): boolean {
    return !this.closed;
  }

  private record(direction: AmiTraceEntry['direction'], message: string): void {
    if (this.options.trace) this.trace.push({ direction, at_ms: Date.now() - this.opened, message });
  }

  private dispatch(message: AmiMessage): void {
    this.record('received', maskedText(message.fields, message.text));
    const actionId = message.get('ActionID');
    const pending = actionId ? this.pending.get(actionId) : undefined;
    if (pending && message.isResponse && !pending.response) {
      pending.response = message;
      if (message.get('EventList')?.toLowerCase() !== 'start') this.settle(actionId!, pending);
      return;
    }
    if (pending && message.isEvent && pending.response) {
      if (message.get('EventList')?.toLowerCase() === 'complete') this.settle(actionId!, pending);
      else pending.events.push(message);
      return;
    }
    if (message.isEvent) this.emit('event', message);
  }

  private settle(actionId: string, pending: Pending): void {
    clearTimeout(pending.timer);
    this.pending.delete(actionId);
    pending.resolve({ response: pending.response!, events: pending.events });
  }

  /** Sends an action and waits for its answer; the ActionID is added unless given. */
  action(fields: AmiFields, options: { timeoutMs?: number } = {}): Promise<AmiActionResult> {
    if (this.closed) return Promise.reject(new AmiError('disconnected', 'The AMI connection is closed.'));
    let actionId = fields.find(([key]) => key.toLowerCase() === 'actionid')?.[1];
    const all: AmiFields = actionId ? fields : [...fields, ['ActionID', (actionId = randomUUID())]];
    const name = all.find(([key]) => key.toLowerCase() === 'action')?.[1] ?? 'action';
    return new Promise<AmiActionResult>((resolve, reject) => {
      const timeoutMs = options.timeoutMs ?? this.options.actionTimeoutMs;
      const timer = setTimeout(() => {
        this.pending.delete(actionId);
        reject(new AmiError('timeout', `The PBX did not answer the ${name} action within ${timeoutMs} ms.`));
      }, timeoutMs);
      this.pending.set(actionId, { resolve, reject, timer, response: null, events: [] });
      this.record('sent', maskedText(all));
      this.socket.write(serializeAction(all));
    });
  }

  async login(username: string, secret: string): Promise<void> {
    const { response } = await this.action([
      ['Action', 'Login'],
      ['Username', username],
      ['Secret', secret],
    ]);
    if (response.get('Response')?.toLowerCase() !== 'success') {
      throw new AmiError('login_failed', `The PBX refused the AMI login: ${answerText(response.get('Message') ?? 'authentication failed')}.`);
    }
  }

  /** Logs off politely, then closes; never throws. */
  async logoff(): Promise<void> {
    if (this.closed) return;
    await this.action([['Action', 'Logoff']], { timeoutMs: Math.min(this.options.actionTimeoutMs, 2000) }).catch(() => undefined);
    this.close();
  }

  close(): void {
    this.socket.destroy();
    this.shutdown(new AmiError('disconnected', 'The AMI connection was closed.'));
  }

  private shutdown(error: AmiError): void {
    if (this.closed) return;
    this.closed = true;
    for (const [actionId, pending] of this.pending) {
      clearTimeout(pending.timer);
      this.pending.delete(actionId);
      pending.reject(new AmiError('disconnected', 'The PBX closed the AMI connection before answering.'));
    }
    this.emit('close', error);
  }
}
