import type { Socket } from 'node:net';

/** How long the rest of a refused request's body may still be read and dropped. */
export const LINGER_MS = 5_000;

type ClosingSocket = Socket & { destroySoon?: () => void };

/**
 * Closes a connection whose answer goes out before its request's body has all arrived (a body
 * over the limit, refused unread) without resetting it. Node destroys such a socket as soon as
 * the answer is written; the client, still sending, then gets a reset, and a reset throws away
 * the answer waiting in its buffer: it sees a broken pipe instead of the 413. Here the socket
 * is half-closed instead, and whatever still arrives is read and dropped until the client
 * closes or `LINGER_MS` has passed, as nginx's lingering close does.
 */
export function closeWithoutReset(socket: Socket): void {
  const closing = socket as ClosingSocket;
  // Node's HTTP server ends a `connection: close` answer with socket.destroySoon().
  if (typeof closing.destroySoon !== 'function') return;
  closing.destroySoon = () => {
    socket.end();
    socket.resume();
    const timer = setTimeout(() => socket.destroy(), LINGER_MS);
    timer.unref();
    socket.once('end', () => socket.destroy());
    socket.once('close', () => clearTimeout(timer));
  };
}
