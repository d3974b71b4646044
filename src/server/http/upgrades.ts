import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { WebSocketServer } from 'ws';
import { refuseOnSocket } from './client-errors.ts';
import { HttpError } from './errors.ts';

/** How long a refused upgrade's connection may wait for the client to close its side. */
const CLOSE_GRACE_MS = 1000;

/**
 * A request asking to upgrade (to a WebSocket) leaves Node's HTTP parser before Fastify routes
 * it: whatever it is answered, its connection carries no second request. Refused (a bad Host,
 * another origin, no session, a path with no live channel), its answer says
 * `Connection: close` and the socket is closed once the answer is out. Without this a
 * keep-alive client sent its next request down the dead connection and lost it, and a
 * refusal made before @fastify/websocket's own hooks ran left the socket open, unread, for good.
 */
export function closeRefusedUpgrades(app: FastifyInstance): void {
  // Callback hooks: every answer passes them, and an async hook costs each one a promise.
  app.addHook('onSend', (request, reply, payload, done) => {
    if (leftTheParser(request)) reply.header('connection', 'close');
    done(null, payload);
  });
  app.addHook('onResponse', (request, _reply, done) => {
    if (leftTheParser(request)) closeSoon(request.raw.socket);
    done();
  });
  // ws refuses a malformed handshake (a bad key or version) itself, in HTML: here it is the
  // API's error shape. The server exists once the live channel's plugin is registered.
  app.addHook('onReady', async () => {
    if (!app.hasDecorator('websocketServer')) return;
    const server = (app as unknown as { websocketServer: WebSocketServer }).websocketServer;
    server.on('wsClientError', (error: Error, socket: Duplex) => {
      refuseOnSocket(
        socket,
        new HttpError(400, 'bad-websocket-request', { values: { reason: error.message } }),
      );
    });
  });
}

/** Node marks a request it handed to the 'upgrade' listeners (not in its type definitions). */
function leftTheParser(request: FastifyRequest): boolean {
  return (request.raw as IncomingMessage & { upgrade?: boolean }).upgrade === true;
}

function closeSoon(socket: Duplex): void {
  if (socket.destroyed) return;
  socket.end();
  setTimeout(() => socket.destroy(), CLOSE_GRACE_MS).unref();
}
