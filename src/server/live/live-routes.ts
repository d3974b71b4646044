import type { IncomingHttpHeaders } from 'node:http';
import websocket from '@fastify/websocket';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { BookRole } from '../../shared/book-roles.ts';
import { errorMessage } from '../../shared/error-messages.ts';
import {
  BOOK_ACCESS_CHANGED_CLOSE_CODE,
  BOOK_SWITCHED_CLOSE_CODE,
  SESSION_ENDED_CLOSE_CODE,
} from '../../shared/live-events.ts';
import { apiPaths } from '../../shared/paths.ts';
import { addressGroupOf } from '../auth/rate-limiter.ts';
import { bookOf, type Operator, requireSession, type SessionReader } from '../auth/session.ts';
import type { Config } from '../config.ts';
import { countUntilClose } from '../http/connection-limit.ts';
import { HttpError } from '../http/errors.ts';
import { isAcceptedOrigin } from '../http/security.ts';
import type { BusDelivery, EventBus } from './event-bus.ts';
import {
  createLiveSender,
  forEachInSlices,
  type Recipient,
  recipientOf,
  textFrame,
} from './live-sender.ts';

/** A socket that does not read what it is sent is closed with this; the page reconnects. */
export const TOO_SLOW_CLOSE_CODE = 4408;
export const TOO_MANY_SOCKETS_MESSAGE = errorMessage('too-many-sockets');

interface LiveRoutesOptions {
  config: Config;
  readSession: SessionReader;
  bus: EventBus;
  /** How often sockets are pinged; one that has not answered the last ping is dropped. */
  pingIntervalMs?: number;
}

interface LiveSocket extends Recipient {
  /** The book whose changes it is sent. */
  ownerId: string;
  /** The member's role there when it opened: another role is read again from the start. */
  role: BookRole;
  /** The signed-in account, for what is sent to that account alone. */
  userId: string;
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
    'collection-settings.updated, claim.created, resync) and ignores what the browser sends. Signed in only; the origin rule applies. ' +
    'Sockets per operator and per address are capped (429). ' +
    'The messages are described in docs/api.md ("Live channel").',
};

/**
 * Live connections by key (an operator, an address), each counted from its upgrade request
 * until its TCP connection closes: a check and its count happen in one step, so upgrades at
 * the same moment cannot pass a cap together, and a socket being closed still counts.
 */
class ConnectionTally {
  private readonly counts = new Map<string, number>();
  constructor(private readonly cap: number) {}

  /** Counts the request's connection under the key, or refuses it with 429 at the cap. */
  admit(request: FastifyRequest, key: string): void {
    const count = this.counts.get(key) ?? 0;
    if (this.cap > 0 && count >= this.cap) throw new HttpError(429, 'too-many-sockets');
    const connection = request.raw.socket;
    // Gone already: it will not be upgraded, and its close may have passed.
    if (connection.destroyed) return;
    countUntilClose(this.counts, key, connection);
  }
}

export async function registerLiveRoutes(
  app: FastifyInstance,
  { config, readSession, bus, pingIntervalMs = 30_000 }: LiveRoutesOptions,
): Promise<void> {
  // Compression stays off: frames are prepared once and written as they are (live-sender.ts).
  await app.register(websocket, {
    options: { maxPayload: 4096, perMessageDeflate: false },
    // A frame the browser should not have sent (over the limit, malformed): ws has already
    // closed the socket with the reason (1009, 1002…). The browser's doing, logged as such in
    // one line, not as the server's error with a stack that any signed-in user could repeat.
    errorHandler(error, socket, request) {
      const code = (error as { code?: unknown }).code;
      if (typeof code === 'string' && code.startsWith('WS_ERR_')) {
        request.log.info({ code }, 'live socket closed: the browser sent a frame it may not');
      } else {
        request.log.error(error);
      }
      socket.terminate();
    },
  });

  const limits = config.live;
  const sockets = new Set<LiveSocket>();
  const byOwner = new Map<string, Set<LiveSocket>>();
  const perAddress = new ConnectionTally(limits.maxSocketsPerAddress);
  const perOperator = new ConnectionTally(limits.maxSocketsPerOperator);

  function add(live: LiveSocket): void {
    sockets.add(live);
    let owned = byOwner.get(live.ownerId);
    if (!owned) {
      owned = new Set();
      byOwner.set(live.ownerId, owned);
    }
    owned.add(live);
  }

  function remove(live: LiveSocket): void {
    if (!sockets.delete(live)) return;
    const owned = byOwner.get(live.ownerId);
    owned?.delete(live);
    if (owned?.size === 0) byOwner.delete(live.ownerId);
  }

  const sender = createLiveSender({
    socketsPerSlice: limits.socketsPerSlice,
    maxBufferedBytes: limits.maxBufferedBytes,
    onTooSlow(recipient) {
      const live = recipient as LiveSocket;
      remove(live);
      live.socket.close(TOO_SLOW_CLOSE_CODE, 'too slow to keep up');
    },
  });

  function endSession(live: LiveSocket): void {
    remove(live);
    live.socket.close(SESSION_ENDED_CLOSE_CODE, 'session ended');
  }

  function closeWith(live: LiveSocket, code: number, reason: string): void {
    remove(live);
    live.socket.close(code, reason);
  }

  function deliver(message: BusDelivery): void {
    if (message.kind === 'sessions-ended') {
      const ended = new Set(message.sessionIds);
      for (const live of sockets) if (ended.has(live.sessionId)) endSession(live);
      return;
    }
    if (message.kind === 'book-access-changed') {
      for (const live of [...(byOwner.get(message.bookId) ?? [])]) {
        if (live.userId === message.userId) {
          closeWith(live, BOOK_ACCESS_CHANGED_CLOSE_CODE, 'access to the book changed');
        }
      }
      return;
    }
    if (message.kind === 'book-switched') {
      for (const live of [...sockets]) {
        if (live.sessionId === message.sessionId) {
          closeWith(live, BOOK_SWITCHED_CLOSE_CODE, 'the session switched books');
        }
      }
      return;
    }
    if (message.kind === 'event' && message.userId !== undefined) {
      const to = new Set([...sockets].filter((live) => live.userId === message.userId));
      if (to.size) sender.send(textFrame(JSON.stringify(message.event)), to);
      return;
    }
    const { ownerId, event } =
      message.kind === 'resync' ? { ownerId: null, event: { type: 'resync' as const } } : message;
    const to = ownerId === null ? sockets : byOwner.get(ownerId);
    if (to?.size) sender.send(textFrame(JSON.stringify(event)), to);
  }
  const unsubscribe = bus.subscribe(deliver);

  /**
   * Whether the session a socket opened with has ended, read again: gone, or held to the
   * two-factor setup by the administrator's policy (no more events either).
   */
  function sessionGone(operator: Operator | null, live: LiveSocket): boolean {
    return operator?.sessionId !== live.sessionId || operator.twoFactorSetupRequired;
  }

  /**
   * Closes a socket its session, read again, no longer allows: the session ended (or is held
   * to the two-factor setup by the administrator's policy), or its book or role there is not
   * the one the socket opened with.
   */
  function closeUnlessStillAllowed(live: LiveSocket, operator: Operator | null): void {
    if (!sockets.has(live)) return;
    if (sessionGone(operator, live)) {
      endSession(live);
    } else if (operator?.book?.id !== live.ownerId || operator.book.role !== live.role) {
      closeWith(live, BOOK_ACCESS_CHANGED_CLOSE_CODE, 'access to the book changed');
    }
  }

  /**
   * A socket joins the registry after its session was read: a removal, a role change, a
   * switch or a sign-out committed in between was told to the sockets registered then, not to
   * this one. So the session is read once more now that any later message will find it.
   */
  function recheckOnJoining(live: LiveSocket): void {
    readSession(live.headers, { use: false })
      .then((operator) => closeUnlessStillAllowed(live, operator))
      .catch((error: unknown) => app.log.warn({ err: error }, 'live session check failed'));
  }

  const heartbeat = setInterval(() => {
    // One session read per session rather than per socket: a browser's tabs share one.
    // A session's read may end before its later sockets' slices come: they follow its verdict.
    const sessions = new Map<string, { group: LiveSocket[]; ended: boolean }>();
    forEachInSlices([...sockets], limits.socketsPerSlice, (live) => {
      if (!sockets.has(live)) return;
      if (!live.alive) {
        remove(live);
        live.socket.terminate();
        return;
      }
      live.alive = false;
      live.socket.ping();
      const same = sessions.get(live.sessionId);
      if (same) {
        if (same.ended) endSession(live);
        else same.group.push(live);
        return;
      }
      const checked = { group: [live], ended: false };
      sessions.set(live.sessionId, checked);
      // A socket outliving its session (expired, or revoked where no event said so), or its
      // access to the book (where another instance's message was lost), closes.
      readSession(live.headers)
        .then((operator) => {
          checked.ended = sessionGone(operator, live);
          for (const each of checked.group) closeUnlessStillAllowed(each, operator);
        })
        .catch((error: unknown) => app.log.warn({ err: error }, 'live session check failed'));
    });
  }, pingIntervalMs);
  heartbeat.unref();

  app.addHook('onClose', async () => {
    clearInterval(heartbeat);
    unsubscribe();
    sender.stop();
    for (const live of sockets) live.socket.close(1001, 'server shutting down');
    sockets.clear();
    byOwner.clear();
  });

  await app.register(async (scope) => {
    // The origin is checked before the session, as for every state-changing request.
    scope.addHook('onRequest', async (request) => {
      if (!isAcceptedOrigin(config, request.headers)) {
        throw new HttpError(403, 'cross-origin');
      }
      // Before the session is read: an address at its cap costs no database work.
      // An IPv6 host picks from a whole /64: it counts as one address, as for sign-in.
      if (request.ws) perAddress.admit(request, addressGroupOf(request.ip));
    });
    // Opening a socket is no use of the session: a page reconnecting by itself after a break
    // (a deploy, a lost network) must not keep an unattended session alive.
    requireSession(scope, readSession, { use: false });
    scope.addHook('preHandler', async (request) => {
      if (request.ws) perOperator.admit(request, request.operator.id);
    });
    // Every member of a book may follow it live.
    const options = {
      websocket: true,
      schema: LIVE_ROUTE_SCHEMA,
      config: { bookAction: 'read' },
    } as const;
    scope.get(apiPaths.live, options, (socket, request) => {
      const live: LiveSocket = {
        ...recipientOf(socket),
        ownerId: bookOf(request).id,
        role: bookOf(request).role,
        userId: request.operator.id,
        sessionId: request.operator.sessionId,
        headers: { cookie: request.headers.cookie },
        alive: true,
      };
      add(live);
      recheckOnJoining(live);
      socket.on('pong', () => {
        live.alive = true;
      });
      socket.on('close', () => remove(live));
      socket.on('error', () => remove(live));
      // The channel is one-way; anything the browser sends is ignored.
      socket.on('message', () => {});
    });
  });
}
