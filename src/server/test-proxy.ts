import net from 'node:net';

/**
 * A TCP proxy between the app and PostgreSQL that can go silent the way a broken network does:
 * packets dropped, not refused. Swallowing, it passes no byte either way and closes no socket
 * (no RST, no FIN: the peers learn nothing); a close from either side waits, like a FIN that
 * TCP would send again, and arrives once bytes flow again. Bytes swallowed are gone.
 */
export interface TestProxy {
  port: number;
  /** `databaseUrl` with its host and port replaced by the proxy's. */
  url(databaseUrl: string): string;
  /**
   * Bytes flow both ways, at once; closes held back while swallowing arrive now, or never
   * with `closesLost` (the FIN was retried until the app's side gave up): the database then
   * learns of those connections only from its own timeouts.
   */
  forward(options?: { closesLost?: boolean }): void;
  /** From now on no byte passes either way and no close reaches the other side. */
  swallow(): void;
  /**
   * Forwards until the app sends bytes holding `text` (a statement, say) and the database
   * answers on that connection, then swallows from that answer on: the database did the
   * statement, and the app never hears so.
   */
  swallowAfter(text: string): void;
  /** Every chunk and every close waits `ms` before it goes on, either way: slow, but alive. */
  slow(ms: number): void;
  close(): Promise<void>;
}

type Mode = { kind: 'forward' } | { kind: 'swallow' } | { kind: 'slow'; ms: number };

export async function startTestProxy(target: { host: string; port: number }): Promise<TestProxy> {
  let mode: Mode = { kind: 'forward' };
  let trigger: Buffer | undefined;
  const sockets = new Set<net.Socket>();
  const heldCloses = new Set<net.Socket>();

  /** One connection through the proxy. */
  interface Link {
    /** The trigger went out on it: the database's next answer starts the swallowing. */
    armed: boolean;
    /** Bytes of it were swallowed: the app gives it up. */
    cut: boolean;
    /** Its closes never arrive (`forward({ closesLost: true })` after it was cut). */
    closesLost: boolean;
  }
  const links = new Set<Link>();

  function relay(from: net.Socket, to: net.Socket, link: Link, fromApp: boolean): void {
    // What is on its way, in order: a chunk, or the close, each due at its time.
    const due: { at: number; chunk: Buffer | 'close' }[] = [];
    let timer: ReturnType<typeof setTimeout> | undefined;
    function pump(): void {
      timer = undefined;
      for (let next = due[0]; next && next.at <= Date.now(); next = due[0]) {
        due.shift();
        if (next.chunk === 'close') to.destroy();
        else if (!to.destroyed) to.write(next.chunk);
      }
      const next = due[0];
      if (next) timer = setTimeout(pump, next.at - Date.now());
    }
    function send(chunk: Buffer | 'close'): void {
      const delay = mode.kind === 'slow' ? mode.ms : 0;
      // Never ahead of what a slow spell still holds: bytes keep their order.
      due.push({ at: Math.max(Date.now() + delay, due.at(-1)?.at ?? 0), chunk });
      if (!timer) pump();
    }
    // The end of the previous chunk, so a trigger split across two chunks is still seen.
    let tail = Buffer.alloc(0);
    from.on('data', (chunk: Buffer) => {
      // The database's first answer after the trigger: the statement is done, and from now
      // on nothing passes, this answer included.
      if (!fromApp && link.armed) {
        link.armed = false;
        mode = { kind: 'swallow' };
      }
      if (mode.kind === 'swallow') {
        link.cut = true;
        return;
      }
      send(chunk);
      if (fromApp && trigger) {
        const seen = Buffer.concat([tail, chunk]);
        if (seen.includes(trigger)) {
          trigger = undefined;
          link.armed = true;
        } else {
          tail = seen.subarray(Math.max(0, seen.length - trigger.length + 1));
        }
      }
    });
    from.on('close', () => {
      if (link.closesLost) return;
      if (mode.kind === 'swallow') heldCloses.add(to);
      else send('close');
    });
    from.on('error', () => {});
  }

  const server = net.createServer((app) => {
    const database = net.connect(target.port, target.host);
    sockets.add(app);
    sockets.add(database);
    app.on('close', () => sockets.delete(app));
    database.on('close', () => sockets.delete(database));
    const link: Link = { armed: false, cut: false, closesLost: false };
    links.add(link);
    database.on('close', () => links.delete(link));
    relay(app, database, link, true);
    relay(database, app, link, false);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;

  return {
    port,
    url(databaseUrl) {
      const url = new URL(databaseUrl);
      url.hostname = '127.0.0.1';
      url.port = String(port);
      return url.toString();
    },
    forward({ closesLost = false } = {}) {
      mode = { kind: 'forward' };
      trigger = undefined;
      if (closesLost) {
        // Also the closes the app made before this call that are still on their way here.
        for (const link of links) link.closesLost ||= link.cut;
      } else {
        for (const socket of heldCloses) socket.destroy();
      }
      heldCloses.clear();
    },
    swallow() {
      mode = { kind: 'swallow' };
    },
    swallowAfter(text) {
      mode = { kind: 'forward' };
      trigger = Buffer.from(text);
    },
    slow(ms) {
      mode = { kind: 'slow', ms };
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
