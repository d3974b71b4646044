import type { Server } from 'node:http';
import type { Socket } from 'node:net';

/** Counts a connection under a key until it closes; the key goes when its count is 0. */
export function countUntilClose(counts: Map<string, number>, key: string, socket: Socket): void {
  counts.set(key, (counts.get(key) ?? 0) + 1);
  socket.once('close', () => {
    const left = (counts.get(key) ?? 1) - 1;
    if (left > 0) counts.set(key, left);
    else counts.delete(key);
  });
}

/**
 * Caps the connections one address may hold open at once (0: no cap), so that one client
 * cannot exhaust the server's sockets. Live sockets count too: a browser tab holds one.
 */
export function limitConnectionsPerAddress(server: Server, max: number): void {
  if (max <= 0) return;
  const open = new Map<string, number>();
  server.on('connection', (socket) => {
    const address = socket.remoteAddress ?? 'unknown';
    if ((open.get(address) ?? 0) >= max) {
      socket.destroy();
      return;
    }
    countUntilClose(open, address, socket);
  });
}
