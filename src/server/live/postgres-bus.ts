import { sql } from 'kysely';
import pg from 'pg';
import type { Database } from '../db/database.ts';
import type { BusDelivery, BusListener, BusMessage, EventBus } from './event-bus.ts';

const BUS_CHANNEL = 'client_panel_events';
/** The listening connection's application_name, as pg_stat_activity shows it. */
export const LISTENER_NAME = 'client-panel-live';

/** NOTIFY refuses payloads of 8,000 bytes or more; larger messages travel by reference. */
const NOTIFY_PAYLOAD_LIMIT = 7_900;

/** How long a message sent by reference stays readable. */
const REFERENCE_LIFETIME = '5 minutes';

interface PostgresBusOptions {
  url: string;
  database: Database;
  /** Where a lost feed or a bad notification is reported. */
  log: { warn(fields: object, message: string): void; info(fields: object, message: string): void };
  /** First and longest wait between reconnection attempts. */
  reconnectMs?: { first: number; max: number };
  /** How often the listening connection is checked with a query. */
  checkIntervalMs?: number;
}

export interface PostgresBus extends EventBus {
  /** Resolves once the first LISTEN is in place. */
  ready: Promise<void>;
  isListening(): boolean;
}

type Notice = BusMessage | { ref: string };

/**
 * Live events across instances through PostgreSQL LISTEN/NOTIFY. `pg_notify` runs inside
 * the writing transaction, so an event exists only if its write committed, and PostgreSQL
 * delivers notifications in commit order. Each instance listens on one dedicated connection
 * (not a pool connection), re-established with backoff when lost; after any gap it tells
 * its sockets to resync, since it cannot know what it missed.
 */
export function createPostgresBus({
  url,
  database,
  log,
  reconnectMs = { first: 100, max: 5_000 },
  checkIntervalMs = 5_000,
}: PostgresBusOptions): PostgresBus {
  const listeners = new Set<BusListener>();
  let listener: pg.Client | undefined;
  let closed = false;
  let everListened = false;
  let attempt = 0;
  let retryTimer: ReturnType<typeof setTimeout> | undefined;
  let markReady: () => void = () => {};
  const ready = new Promise<void>((resolve) => {
    markReady = resolve;
  });

  function emit(delivery: BusDelivery): void {
    for (const each of listeners) each(delivery);
  }

  async function receive(payload: string | undefined): Promise<void> {
    if (!payload) return;
    let notice: Notice;
    try {
      notice = JSON.parse(payload) as Notice;
      if ('ref' in notice) {
        const row = await sql<{ payload: string }>`
          SELECT payload FROM bus_messages WHERE id = ${notice.ref}`.execute(database.db);
        const stored = row.rows[0]?.payload;
        if (!stored) throw new Error(`message ${notice.ref} is gone`);
        notice = JSON.parse(stored) as BusMessage;
      }
    } catch (error) {
      // A message this instance cannot read may have mattered: its sockets reload.
      log.warn({ err: error }, 'live bus: unreadable notification; sockets resync');
      emit({ kind: 'resync' });
      return;
    }
    emit(notice as BusMessage);
  }

  function scheduleReconnect(): void {
    if (closed || retryTimer) return;
    const delay = Math.min(reconnectMs.max, reconnectMs.first * 2 ** attempt);
    attempt += 1;
    retryTimer = setTimeout(
      () => {
        retryTimer = undefined;
        void listen();
      },
      delay / 2 + Math.random() * (delay / 2),
    );
  }

  function lost(client: pg.Client, error?: unknown): void {
    if (listener !== client) return;
    listener = undefined;
    client.removeAllListeners('notification');
    client.end().catch(() => {});
    if (closed) return;
    log.warn({ err: error }, 'live bus: lost the LISTEN connection; reconnecting');
    scheduleReconnect();
  }

  async function listen(): Promise<void> {
    if (closed) return;
    const client = new pg.Client({
      connectionString: url,
      application_name: LISTENER_NAME,
      keepAlive: true,
      connectionTimeoutMillis: 3_000,
      query_timeout: 3_000,
    });
    client.on('error', (error) => lost(client, error));
    client.on('end', () => lost(client));
    try {
      await client.connect();
      await client.query(`LISTEN ${BUS_CHANNEL}`);
    } catch (error) {
      client.removeAllListeners('end');
      client.removeAllListeners('error');
      client.on('error', () => {});
      client.end().catch(() => {});
      if (!closed) scheduleReconnect();
      if (attempt === 1) log.warn({ err: error }, 'live bus: cannot LISTEN yet; retrying');
      return;
    }
    if (closed) {
      await client.end().catch(() => {});
      return;
    }
    listener = client;
    attempt = 0;
    client.on('notification', (notification) => void receive(notification.payload));
    if (everListened) {
      log.info({}, 'live bus: listening again; sockets resync');
      emit({ kind: 'resync' });
    }
    everListened = true;
    markReady();
  }

  // A connection that died without a word (a network partition) is found by a query.
  const check = setInterval(() => {
    const client = listener;
    if (client) client.query('SELECT 1').catch((error: unknown) => lost(client, error));
  }, checkIntervalMs);
  check.unref();

  void listen();

  return {
    ready,
    isListening: () => listener !== undefined,
    async publish(message, write) {
      // Ended sessions close here at once (closing twice is harmless when the notice
      // returns), so not even an event of this instance reaches them in between.
      if (message.kind === 'sessions-ended' && !write) emit(message);
      let payload = JSON.stringify(message);
      const runner = write ? write.trx : database.db;
      if (Buffer.byteLength(payload, 'utf8') > NOTIFY_PAYLOAD_LIMIT) {
        // Stored in the same transaction, so the reference exists exactly when the write does.
        const stored = await sql<{ id: string }>`
          INSERT INTO bus_messages (payload) VALUES (${payload}) RETURNING id`.execute(runner);
        await sql`DELETE FROM bus_messages
          WHERE created_at < now() - ${REFERENCE_LIFETIME}::interval`.execute(runner);
        payload = JSON.stringify({ ref: String(stored.rows[0]?.id) });
      }
      await sql`SELECT pg_notify(${BUS_CHANNEL}, ${payload})`.execute(runner);
    },
    subscribe(each) {
      listeners.add(each);
      return () => listeners.delete(each);
    },
    async close() {
      closed = true;
      clearInterval(check);
      if (retryTimer) clearTimeout(retryTimer);
      listeners.clear();
      const client = listener;
      listener = undefined;
      await client?.end().catch(() => {});
    },
  };
}
