import type { ServerResponse } from 'node:http';
import { PassThrough } from 'node:stream';
import { eventEnvelopeJson, type LiveEvent } from '../../../platform/events/index.js';
import type { CloseReason, StreamTransport } from './stream-session.js';

/** How long a closed stream's last frames may take to reach a client that does not read, before its connection is cut. */
const CLOSE_GRACE_MS = 5000;

const HEARTBEAT = Buffer.from(': heartbeat\n\n');
/** The first bytes: the answer's headers leave with them, so the client knows the stream is open before the first event. */
export const SSE_OPENING = Buffer.from(': live events\n\n');

const frames = new WeakMap<LiveEvent, Buffer>();

/** `id`, `event`, `data` and a blank line; built once per event for every client (JSON holds no line break). */
function sseFrame(event: LiveEvent): Buffer {
  let frame = frames.get(event);
  if (!frame) frames.set(event, (frame = Buffer.from(`id: ${event.seq}\nevent: ${event.kind}\ndata: ${eventEnvelopeJson(event)}\n\n`)));
  return frame;
}

/**
 * Server-Sent Events over Fastify's stream answer: frames go into `out`, which Fastify pipes to the
 * response at the response's pace (so `write`'s callback tells when a frame moved on), with the
 * headers every answer gets.
 */
export class SseTransport implements StreamTransport {
  constructor(
    private readonly out: PassThrough,
    private readonly response: ServerResponse,
  ) {}

  frame(event: LiveEvent): Buffer {
    return sseFrame(event);
  }

  resetFrame(afterSeq: number, reason: string): Buffer {
    return Buffer.from(`id: ${afterSeq}\nevent: reset\ndata: ${JSON.stringify({ reason })}\n\n`);
  }

  write(bytes: Buffer, flushed: () => void): void {
    if (this.out.destroyed || this.out.writableEnded) return flushed();
    this.out.write(bytes, () => flushed());
  }

  heartbeat(): boolean {
    // Frames on their way keep the connection alive as well. A dead peer shows when the writes stall (the session's concern).
    if (!this.out.destroyed && !this.out.writableEnded && this.out.writableLength === 0) this.out.write(HEARTBEAT);
    return true;
  }

  close(reason: CloseReason): void {
    if (this.out.destroyed || this.out.writableEnded) return;
    this.out.end(`event: close\ndata: ${JSON.stringify({ reason })}\n\n`);
    const cut = setTimeout(() => this.response.destroy(), CLOSE_GRACE_MS);
    this.response.once('close', () => clearTimeout(cut));
  }
}
