import type { Principal } from '../../../platform/auth/principal.js';
import type { EventBus, EventSubscription, LiveEvent, ResumePoint } from '../../../platform/events/index.js';
import { streamWants, type StreamFilter } from './stream-filter.js';

/** Why the server ends a stream: the last frame (SSE) or the close reason (WebSocket) says it. */
export type CloseReason = 'slow consumer' | 'server shutting down' | 'stream lifetime reached';

export const RESET_REASON =
  'The events after your last event id are no longer kept (or this PBX never gave that id): reload the state over the REST API, then carry on from this event id.';

/** A connection's way of framing and sending: Server-Sent Events or WebSocket. */
export interface StreamTransport {
  /** An event's frame; the same bytes for every client of the transport (cached per event). */
  frame(event: LiveEvent): Buffer;
  resetFrame(afterSeq: number, reason: string): Buffer;
  /** Hands bytes to the connection; `flushed` runs once they have left this process's buffers, or the connection is gone. */
  write(bytes: Buffer, flushed: () => void): void;
  /**
   * Keeps the connection (and the proxies on its way) alive; false when the peer did not answer the
   * last one (WebSocket's pong), unless `late` (this process was too busy to have read the answer).
   */
  heartbeat(late: boolean): boolean;
  /** Ends the connection after what was written, saying why. */
  close(reason: CloseReason): void;
}

export interface StreamLimits {
  heartbeatMs: number;
  /** A stream's longest life: then it is closed, and the client resumes from its last event id. */
  maxMs: number;
  /** Frames, and bytes, that may wait for a connection to drain. */
  backlogEvents: number;
  backlogBytes: number;
}

/** What a stream starts from: whose, for whom, which events, from where, and how to find where to go on from after a pause. */
export interface StreamOpening {
  pbxId: string;
  principal: Principal;
  filter: StreamFilter;
  point: ResumePoint;
  /** `resumeFrom` for this tenant: whether the events after an id are still kept. */
  resume(afterSeq: number): Promise<ResumePoint>;
}

/** Bytes handed to the connection and not yet flushed, above which the next frames wait in the backlog. */
const IN_FLIGHT_BYTES = 64 * 1024;

/**
 * One open stream: the tenant's events from the bus, those the client asked for and may receive,
 * framed and sent in order, each once. Frames wait in a backlog while the connection drains; when
 * it is full the stream stops taking events from the bus, and once half of it has drained it
 * subscribes again from the last event it took (the outbox keeps them), so a burst (a catch-up, a
 * bulk change) never holds more than the backlog's limits, and a client that reads is never cut
 * off for being behind. A client that takes nothing for a whole heartbeat interval while frames
 * wait for it (or answers no ping) is a slow consumer: it is closed, and resumes from its last event id.
 */
export class StreamSession {
  private subscription: EventSubscription | null = null;
  /** The number of the last event taken from the bus, sent or passed over. */
  private position: number;
  private paused = false;
  private readonly backlog: Buffer[] = [];
  private backlogBytes = 0;
  private inFlight = 0;
  /** Frames flushed so far, and at the last heartbeat, when frames were waiting or not. */
  private flushes = 0;
  private flushesAtTick = 0;
  private waitedAtTick = false;
  private tickedAt = performance.now();
  private ticker: NodeJS.Timeout | null = null;
  private lifetime: NodeJS.Timeout | null = null;
  private ended = false;

  constructor(
    private readonly opening: StreamOpening,
    private readonly transport: StreamTransport,
    private readonly limits: StreamLimits,
    private readonly bus: EventBus,
    private readonly onEnd: (session: StreamSession) => void,
  ) {
    this.position = opening.point.afterSeq;
  }

  start(): void {
    if (this.opening.point.reset) this.queue(this.transport.resetFrame(this.position, RESET_REASON));
    this.subscribe();
    this.ticker = setInterval(() => this.tick(), this.limits.heartbeatMs);
    this.lifetime = setTimeout(() => this.end('stream lifetime reached'), this.limits.maxMs);
    this.flush();
  }

  /** The server ends the stream, saying why. */
  end(reason: CloseReason): void {
    if (!this.stop()) return;
    this.transport.close(reason);
  }

  /** The client went away. */
  gone(): void {
    this.stop();
  }

  private subscribe(): void {
    this.subscription = this.bus.subscribe(this.opening.pbxId, this.position, (events) => this.deliver(events));
  }

  /** Runs on the bus's delivery, synchronously: the events are shared with other subscribers, so only read. */
  private deliver(events: readonly LiveEvent[]): void {
    for (const event of events) {
      if (this.ended || this.paused) return;
      if (this.full()) {
        this.pause();
        break;
      }
      this.position = event.seq;
      if (streamWants(this.opening.principal, this.opening.filter, event)) this.queue(this.transport.frame(event));
    }
    this.flush();
  }

  private full(): boolean {
    return this.backlog.length >= this.limits.backlogEvents || this.backlogBytes >= this.limits.backlogBytes;
  }

  private queue(frame: Buffer): void {
    this.backlog.push(frame);
    this.backlogBytes += frame.length;
  }

  private flush(): void {
    while (!this.ended && this.backlog.length > 0 && this.inFlight < IN_FLIGHT_BYTES) {
      const frame = this.backlog.shift()!;
      this.backlogBytes -= frame.length;
      this.inFlight += frame.length;
      this.transport.write(frame, () => {
        this.inFlight -= frame.length;
        this.flushes++;
        this.flush();
      });
    }
    if (this.paused && !this.ended && this.backlog.length <= this.limits.backlogEvents / 2 && this.backlogBytes <= this.limits.backlogBytes / 2) {
      this.paused = false;
      void this.carryOn();
    }
  }

  /** Stops taking events: the rest of the batch, and what follows, stay in the outbox until the backlog drains. */
  private pause(): void {
    this.paused = true;
    this.subscription?.close();
    this.subscription = null;
  }

  /** Subscribes again after a pause, from the last event taken; a reset first if what followed it is no longer kept. */
  private async carryOn(): Promise<void> {
    const point = await this.opening.resume(this.position).catch(() => ({ afterSeq: this.position, reset: false }));
    if (this.ended) return;
    if (point.reset) this.queue(this.transport.resetFrame(point.afterSeq, RESET_REASON));
    this.position = point.afterSeq;
    this.subscribe();
    this.flush();
  }

  /**
   * Every heartbeat interval: a client that took nothing since the last one while frames waited,
   * or did not answer its ping, is a slow consumer (or gone): closed. Any other is kept alive. A
   * tick that comes late finds this process busy, not the client slow (the connection's callbacks
   * wait behind it): it judges nothing.
   */
  private tick(): void {
    const at = performance.now();
    const late = at - this.tickedAt > 1.5 * this.limits.heartbeatMs;
    this.tickedAt = at;
    if (!late && this.waitedAtTick && this.flushes === this.flushesAtTick) return this.end('slow consumer');
    this.waitedAtTick = this.inFlight > 0 || this.backlog.length > 0;
    this.flushesAtTick = this.flushes;
    if (!this.transport.heartbeat(late)) this.end('slow consumer');
  }

  /** Stops the deliveries and timers; false when already stopped. */
  private stop(): boolean {
    if (this.ended) return false;
    this.ended = true;
    this.subscription?.close();
    this.subscription = null;
    if (this.ticker) clearInterval(this.ticker);
    if (this.lifetime) clearTimeout(this.lifetime);
    this.backlog.length = 0;
    this.backlogBytes = 0;
    this.onEnd(this);
    return true;
  }
}

/** An app's open streams, so they end before it closes (preClose), and can be counted. */
export class LiveStreams {
  private readonly open = new Set<StreamSession>();

  constructor(
    private readonly bus: EventBus,
    private readonly limits: StreamLimits,
  ) {}

  start(opening: StreamOpening, transport: StreamTransport): StreamSession {
    const session = new StreamSession(opening, transport, this.limits, this.bus, (ended) => this.open.delete(ended));
    this.open.add(session);
    session.start();
    return session;
  }

  get size(): number {
    return this.open.size;
  }

  endAll(reason: CloseReason): void {
    for (const session of [...this.open]) session.end(reason);
  }
}
