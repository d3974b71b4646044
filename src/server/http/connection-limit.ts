import type { Socket } from 'node:net';
import type { FastifyBaseLogger, FastifyInstance, FastifyRequest } from 'fastify';
import { errorMessage } from '../../shared/error-messages.ts';
import { HttpError } from './errors.ts';

export const TOO_MANY_CONNECTIONS_MESSAGE = errorMessage('too-many-connections');

/** A refusal is logged at most this often per address: a flood is one line a minute. */
const LOG_INTERVAL_MS = 60_000;

/**
 * Connections an address may have waiting for their 503 beyond its cap: as many as the cap,
 * and at least this many, so that a burst of requests gets its answers even under a small cap.
 */
const MIN_REFUSALS_PER_ADDRESS = 64;

/** Counts a connection under a key until it closes; the key goes when its count is 0. */
export function countUntilClose(counts: Map<string, number>, key: string, socket: Socket): void {
  counts.set(key, (counts.get(key) ?? 0) + 1);
  socket.once('close', () => {
    const left = (counts.get(key) ?? 1) - 1;
    if (left > 0) counts.set(key, left);
    else counts.delete(key);
  });
}

interface ConnectionLimitOptions {
  /** The most connections one address may hold open (0: no cap). */
  max: number;
  /** When to try again, said in the 503's Retry-After. */
  retryAfterSeconds: number;
}

/**
 * Caps the connections one address may hold open at once (0: no cap), so that one client
 * cannot exhaust the server's sockets. Live sockets count too: a browser tab holds one.
 *
 * A connection past the cap is answered rather than reset, which a client could only report
 * as a network failure: its first request gets 503 with Retry-After and `Connection: close`
 * from the first hook of all (no route, session or database work), then the connection
 * closes. One that sends nothing is cut by the server's timeouts, and past as many again
 * waiting for their answer (see MIN_REFUSALS_PER_ADDRESS), new ones are reset, so over-cap
 * connections cannot pile up. Connections under the cap, keep-alive ones included, are never
 * touched, and each frees its place when it closes.
 */
export class ConnectionLimit {
  private readonly open = new Map<string, number>();
  private readonly refusing = new Map<string, number>();
  private readonly refused = new WeakSet<Socket>();
  private readonly shouldLog = oncePerKey(LOG_INTERVAL_MS);

  constructor(private readonly options: ConnectionLimitOptions) {}

  /**
   * Whether a request came on a connection past the cap. Its answer is the 503, and it gets
   * no log line of its own: the refusal is logged once a minute per address instead.
   */
  refuses(request: FastifyRequest): boolean {
    return this.refused.has(request.raw.socket);
  }

  /** Counts the app's connections; its hook must be the app's first. */
  apply(app: FastifyInstance): void {
    const { max, retryAfterSeconds } = this.options;
    if (max <= 0) return;
    app.server.on('connection', (socket: Socket) => this.admit(app.log, socket));
    // A callback hook: every request passes it, and an async one costs each a promise.
    app.addHook('onRequest', (request, reply, done) => {
      if (!this.refuses(request)) {
        done();
        return;
      }
      // Already serialised: the route's own schema for a 503 (the health check's) is not this.
      // Answered here, so done is not called: no later hook or route runs.
      reply
        .status(503)
        .header('retry-after', String(retryAfterSeconds))
        .header('connection', 'close')
        .type('application/json; charset=utf-8')
        .send(JSON.stringify(new HttpError(503, 'too-many-connections').body()));
    });
  }

  private admit(log: FastifyBaseLogger, socket: Socket): void {
    const { max } = this.options;
    const address = socket.remoteAddress ?? 'unknown';
    if ((this.open.get(address) ?? 0) < max) {
      countUntilClose(this.open, address, socket);
      return;
    }
    if (this.shouldLog(address)) {
      log.warn(
        { address, maxConnectionsPerAddress: max },
        'an address is over its connection cap: its new connections are refused with 503',
      );
    }
    if ((this.refusing.get(address) ?? 0) >= Math.max(max, MIN_REFUSALS_PER_ADDRESS)) {
      socket.destroy();
      return;
    }
    countUntilClose(this.refusing, address, socket);
    this.refused.add(socket);
  }
}

/** Says yes for a key at most once per interval; keys whose interval has passed are dropped. */
function oncePerKey(intervalMs: number): (key: string) => boolean {
  const last = new Map<string, number>();
  return (key) => {
    const now = Date.now();
    const previous = last.get(key);
    if (previous !== undefined && now - previous < intervalMs) return false;
    for (const [other, at] of last) if (now - at >= intervalMs) last.delete(other);
    last.set(key, now);
    return true;
  };
}
