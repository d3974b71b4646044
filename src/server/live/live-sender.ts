import type { Duplex } from 'node:stream';
import type { WebSocket } from 'ws';

/**
 * A final, unmasked text frame (RFC 6455 §5.2), as a server sends one. Built once per event
 * and written as it is to every socket that should have it.
 */
export function textFrame(text: string): Buffer {
  const payload = Buffer.from(text, 'utf8');
  const length = payload.length;
  const headerLength = length < 126 ? 2 : length < 65_536 ? 4 : 10;
  const frame = Buffer.allocUnsafe(headerLength + length);
  frame[0] = 0x81; // FIN, text
  if (length < 126) {
    frame[1] = length;
  } else if (length < 65_536) {
    frame[1] = 126;
    frame.writeUInt16BE(length, 2);
  } else {
    frame[1] = 127;
    frame.writeBigUInt64BE(BigInt(length), 2);
  }
  payload.copy(frame, headerLength);
  return frame;
}

/**
 * The TCP stream under a ws socket. ws keeps it private; writing prepared frames to it is
 * safe only as long as ws itself queues nothing (docs/decisions/0019-live-fan-out.md):
 * compression off, no Blob ever sent, and only while the socket is OPEN.
 */
function streamOf(socket: WebSocket): Duplex {
  return (socket as unknown as { _socket: Duplex })._socket;
}

/** What the sender keeps per socket: its frames not yet written, and its place in line. */
export interface Recipient {
  readonly socket: WebSocket;
  readonly outbox: Buffer[];
  inLine: boolean;
  nextInLine: Recipient | undefined;
}

export function recipientOf(socket: WebSocket): Recipient {
  return { socket, outbox: [], inLine: false, nextInLine: undefined };
}

interface LiveSenderOptions {
  /** Sockets written to between two yields to the event loop. */
  socketsPerSlice: number;
  /** A socket with more than this still unsent is too slow to keep. */
  maxBufferedBytes: number;
  /** Called for a socket found too slow; its pending frames are dropped. */
  onTooSlow(recipient: Recipient): void;
}

interface LiveSender {
  /**
   * Sends the frame to each recipient, later: a slice of sockets at a time with other work in
   * between, each socket's frames in the order they were sent. `to` is read as the frame's
   * turn comes, a slice at a time: a socket added to it meanwhile gets the frame, one gone
   * does not.
   */
  send(frame: Buffer, to: Iterable<Recipient>): void;
  /** Stops writing; what is queued is dropped. */
  stop(): void;
}

/** Putting a frame in an outbox costs a small part of a write: many more per slice. */
const QUEUED_PER_WRITTEN = 20;
/**
 * Bytes written per slice, whatever the number of sockets: after a burst each socket has many
 * frames, and copying them into the kernel is the cost (2,000 sockets × 50 events ≈ 30 MB).
 */
const BYTES_PER_SLICE = 256 * 1024;

/**
 * Two steps, both in slices. Each event in turn puts its frame in the outboxes of its
 * sockets, and a socket with anything in its outbox takes one place in a line; the line is
 * served by writing each socket every frame waiting for it at once, which costs one write
 * whatever the number of frames, so a burst of events costs about what one event costs.
 * Events are taken strictly in turn and a socket is in line at most once, so frames never
 * overtake each other on a socket. Nothing in a slice grows with the number of sockets or of
 * events: a burst of 50 events to 2,000 sockets is 100,000 frames to queue, which would hold
 * the event loop if done as the events come.
 */
export function createLiveSender(options: LiveSenderOptions): LiveSender {
  const events: { frame: Buffer; to: Iterator<Recipient> }[] = [];
  let nextEvent = 0;
  let first: Recipient | undefined;
  let last: Recipient | undefined;
  let scheduled: NodeJS.Immediate | undefined;
  let stopped = false;

  function queue(recipient: Recipient, frame: Buffer): void {
    recipient.outbox.push(frame);
    if (recipient.inLine) return;
    recipient.inLine = true;
    if (last) last.nextInLine = recipient;
    else first = recipient;
    last = recipient;
  }

  function writeOut(recipient: Recipient): void {
    const { socket, outbox } = recipient;
    if (socket.readyState !== socket.OPEN) {
      outbox.length = 0;
      return;
    }
    if (socket.bufferedAmount > options.maxBufferedBytes) {
      outbox.length = 0;
      options.onTooSlow(recipient);
      return;
    }
    const stream = streamOf(socket);
    if (outbox.length === 1) {
      stream.write(outbox[0] as Buffer);
    } else {
      // Corked, the frames leave in one system call.
      stream.cork();
      for (const frame of outbox) stream.write(frame);
      stream.uncork();
    }
    outbox.length = 0;
  }

  function serveSlice(): void {
    scheduled = undefined;
    for (let queued = 0; queued < options.socketsPerSlice * QUEUED_PER_WRITTEN; queued += 1) {
      const event = events[nextEvent];
      if (!event) break;
      const next = event.to.next();
      if (next.done) {
        nextEvent += 1;
        continue;
      }
      queue(next.value, event.frame);
    }
    if (nextEvent === events.length) {
      events.length = 0;
      nextEvent = 0;
    }
    let bytes = 0;
    for (
      let written = 0;
      written < options.socketsPerSlice && bytes < BYTES_PER_SLICE;
      written += 1
    ) {
      const recipient = first;
      if (!recipient) break;
      first = recipient.nextInLine;
      if (!first) last = undefined;
      recipient.nextInLine = undefined;
      recipient.inLine = false;
      for (const frame of recipient.outbox) bytes += frame.length;
      writeOut(recipient);
    }
    if (first || events.length > 0) schedule();
  }

  function schedule(): void {
    // Later than this tick, so that events of one commit (a bulk delete) go out together.
    if (!scheduled && !stopped) scheduled = setImmediate(serveSlice);
  }

  return {
    send(frame, to) {
      if (stopped) return;
      events.push({ frame, to: to[Symbol.iterator]() });
      schedule();
    },
    stop() {
      stopped = true;
      if (scheduled) clearImmediate(scheduled);
      scheduled = undefined;
      events.length = 0;
      for (let recipient = first; recipient; recipient = recipient.nextInLine) {
        recipient.outbox.length = 0;
        recipient.inLine = false;
      }
      first = undefined;
      last = undefined;
    },
  };
}

/** Calls `each` for every item, a slice at a time with the event loop free in between. */
export function forEachInSlices<T>(
  items: readonly T[],
  perSlice: number,
  each: (item: T) => void,
): void {
  let index = 0;
  const slice = () => {
    const end = Math.min(items.length, index + perSlice);
    for (; index < end; index += 1) each(items[index] as T);
    if (index < items.length) setImmediate(slice);
  };
  slice();
}
