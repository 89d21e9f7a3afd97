import { WebSocket } from 'ws';
import { eventEnvelopeJson, type LiveEvent } from '../../../platform/events/index.js';
import type { CloseReason, StreamTransport } from './stream-session.js';

/** WebSocket close codes: a normal end, the server going away, and the backlog limit (a policy). */
const CLOSE_CODES: Record<CloseReason, number> = { 'stream lifetime reached': 1000, 'server shutting down': 1001, 'slow consumer': 1008 };

const messages = new WeakMap<LiveEvent, Buffer>();

/** The envelope as one text message, its bytes made once per event for every client. */
function socketMessage(event: LiveEvent): Buffer {
  let message = messages.get(event);
  if (!message) messages.set(event, (message = Buffer.from(eventEnvelopeJson(event))));
  return message;
}

/** The same stream over a WebSocket: each event a text message; a peer that answers no ping is closed (by the session). */
export class SocketTransport implements StreamTransport {
  /** A pong came since the last ping. */
  private answered = true;

  constructor(private readonly socket: WebSocket) {
    socket.on('pong', () => (this.answered = true));
  }

  frame(event: LiveEvent): Buffer {
    return socketMessage(event);
  }

  resetFrame(afterSeq: number, reason: string): Buffer {
    return Buffer.from(JSON.stringify({ id: String(afterSeq), kind: 'reset', data: { reason } }));
  }

  write(bytes: Buffer, flushed: () => void): void {
    if (this.socket.readyState !== WebSocket.OPEN) return flushed();
    this.socket.send(bytes, { binary: false }, () => flushed());
  }

  heartbeat(late: boolean): boolean {
    if (this.socket.readyState !== WebSocket.OPEN) return true;
    if (!this.answered && !late) return false;
    this.answered = false;
    this.socket.ping();
    return true;
  }

  close(reason: CloseReason): void {
    if (this.socket.readyState === WebSocket.OPEN) this.socket.close(CLOSE_CODES[reason], reason);
  }
}
