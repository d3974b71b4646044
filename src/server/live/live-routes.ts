import type { IncomingHttpHeaders } from 'node:http';
import websocket from '@fastify/websocket';
import type { FastifyInstance } from 'fastify';
import type { WebSocket } from 'ws';
import { SESSION_ENDED_CLOSE_CODE } from '../../shared/live-events.ts';
import { apiPaths } from '../../shared/paths.ts';
import { requireSession, type SessionReader } from '../auth/session.ts';
import type { Config } from '../config.ts';
import { HttpError } from '../http/errors.ts';
import { CROSS_ORIGIN_MESSAGE, isAcceptedOrigin } from '../http/security.ts';
import type { BusDelivery, EventBus } from './event-bus.ts';

interface LiveRoutesOptions {
  config: Config;
  readSession: SessionReader;
  bus: EventBus;
  /** How often sockets are pinged; one that has not answered the last ping is dropped. */
  pingIntervalMs?: number;
}

interface LiveSocket {
  socket: WebSocket;
  ownerId: string;
  sessionId: string;
  headers: IncomingHttpHeaders;
  alive: boolean;
}

/** What the API description says of the channel; its messages are in docs/api.md. */
const LIVE_ROUTE_SCHEMA = {
  tags: ['Live'],
  summary: 'The live channel: upgrades to a WebSocket',
  description:
    'A GET with the WebSocket upgrade headers opens a one-way channel: the server sends one ' +
    'JSON message per committed change of what the operator sees (client.created, ' +
    'client.updated, client.deleted, entry.created, settings.updated, operator.updated, ' +
    'resync) and ignores what the browser sends. Signed in only; the origin rule applies. ' +
    'The messages are described in docs/api.md ("Live channel").',
};

export async function registerLiveRoutes(
  app: FastifyInstance,
  { config, readSession, bus, pingIntervalMs = 30_000 }: LiveRoutesOptions,
): Promise<void> {
  await app.register(websocket, { options: { maxPayload: 4096 } });

  const sockets = new Set<LiveSocket>();

  function endSession(live: LiveSocket): void {
    sockets.delete(live);
    live.socket.close(SESSION_ENDED_CLOSE_CODE, 'session ended');
  }

  function deliver(message: BusDelivery): void {
    if (message.kind === 'sessions-ended') {
      const ended = new Set(message.sessionIds);
      for (const live of sockets) if (ended.has(live.sessionId)) endSession(live);
      return;
    }
    const { ownerId, event } =
      message.kind === 'resync' ? { ownerId: null, event: { type: 'resync' as const } } : message;
    const text = JSON.stringify(event);
    for (const live of sockets) {
      if (
        (ownerId === null || live.ownerId === ownerId) &&
        live.socket.readyState === live.socket.OPEN
      ) {
        live.socket.send(text);
      }
    }
  }
  const unsubscribe = bus.subscribe(deliver);

  const heartbeat = setInterval(() => {
    for (const live of sockets) {
      if (!live.alive) {
        live.socket.terminate();
        sockets.delete(live);
        continue;
      }
      live.alive = false;
      live.socket.ping();
      // A socket outliving its session (expired, or revoked where no event said so) closes.
      readSession(live.headers)
        .then((operator) => {
          if (operator?.sessionId !== live.sessionId) endSession(live);
        })
        .catch((error: unknown) => app.log.warn({ err: error }, 'live session check failed'));
    }
  }, pingIntervalMs);
  heartbeat.unref();

  app.addHook('onClose', async () => {
    clearInterval(heartbeat);
    unsubscribe();
    for (const live of sockets) live.socket.close(1001, 'server shutting down');
    sockets.clear();
  });

  await app.register(async (scope) => {
    // The origin is checked before the session, as for every state-changing request.
    scope.addHook('onRequest', async (request) => {
      if (!isAcceptedOrigin(config, request.headers)) {
        throw new HttpError(403, CROSS_ORIGIN_MESSAGE);
      }
    });
    requireSession(scope, readSession);
    scope.get(apiPaths.live, { websocket: true, schema: LIVE_ROUTE_SCHEMA }, (socket, request) => {
      const live: LiveSocket = {
        socket,
        ownerId: request.operator.id,
        sessionId: request.operator.sessionId,
        headers: { cookie: request.headers.cookie },
        alive: true,
      };
      sockets.add(live);
      socket.on('pong', () => {
        live.alive = true;
      });
      socket.on('close', () => sockets.delete(live));
      socket.on('error', () => sockets.delete(live));
      // The channel is one-way; anything the browser sends is ignored.
      socket.on('message', () => {});
    });
  });
}
