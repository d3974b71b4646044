import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import WebSocket from 'ws';
import { inCi } from '../../../scripts/in-ci.mjs';
import type { Client } from '../../shared/client-schema.ts';
import { BOOK_ACCESS_CHANGED_CLOSE_CODE, type LiveEvent } from '../../shared/live-events.ts';
import { formatAmount } from '../../shared/money.ts';
import { clusterToolsMissing, createTestCluster, type TestCluster } from '../test-cluster.ts';
import {
  clientFields,
  createScratchDatabase,
  GOOD_PASSWORD,
  httpCall,
  joinBookAs,
  type ScratchDatabase,
  signUp,
  startTestApp,
  TEST_ORIGIN,
  type TestApp,
  testDialect,
  uniqueEmail,
} from '../test-support.ts';
import { createPostgresBus, LISTENER_NAME, type PostgresBus } from './postgres-bus.ts';

const onPostgres = testDialect() === 'postgres';

interface Listening extends TestApp {
  port: number;
  bus: PostgresBus;
}

const silentLog = { warn() {}, info() {} };

/** An instance on the given database, with its own PostgreSQL bus, listening on a port. */
async function instance(url: string, overrides: Parameters<typeof startTestApp>[0] = {}) {
  const database = { kind: 'postgres' as const, url, poolSize: 4 };
  let bus: PostgresBus | undefined;
  const started = await startTestApp(
    { database, ...overrides },
    {
      livePingIntervalMs: 600_000,
      busFor: (db) => {
        bus = createPostgresBus({
          url,
          database: db,
          log: silentLog,
          reconnectMs: { first: 50, max: 1_000 },
          checkIntervalMs: 1_000,
        });
        return bus;
      },
    },
  );
  if (!bus) throw new Error('no bus was made');
  await bus.ready;
  await started.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = started.app.server.address() as AddressInfo;
  return { ...started, port, bus };
}

interface LiveTab {
  socket: WebSocket;
  next(timeoutMs?: number): Promise<LiveEvent>;
  received: LiveEvent[];
  closed: Promise<number>;
}

function openTab(port: number, cookie: string): Promise<LiveTab> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(`ws://127.0.0.1:${port}/api/live`, {
      headers: { cookie },
      origin: TEST_ORIGIN,
    });
    const queue: LiveEvent[] = [];
    const received: LiveEvent[] = [];
    const waiters: ((event: LiveEvent) => void)[] = [];
    socket.on('message', (data) => {
      const event = JSON.parse(String(data)) as LiveEvent;
      received.push(event);
      const waiter = waiters.shift();
      if (waiter) waiter(event);
      else queue.push(event);
    });
    const closed = new Promise<number>((done) => socket.once('close', (code) => done(code)));
    socket.once('open', () =>
      resolve({
        socket,
        received,
        closed,
        next: (timeoutMs = 3_000) =>
          new Promise((done, fail) => {
            const queued = queue.shift();
            if (queued) return done(queued);
            const timer = setTimeout(() => fail(new Error('no live event in time')), timeoutMs);
            waiters.push((event) => {
              clearTimeout(timer);
              done(event);
            });
          }),
      }),
    );
    socket.once('unexpected-response', (_request, response) =>
      reject(new Error(`HTTP ${response.statusCode}`)),
    );
    socket.once('error', reject);
  });
}

function call(app: Listening, method: string, path: string, cookie?: string, body?: unknown) {
  return httpCall(app.port, method, path, cookie, body);
}

describe.runIf(onPostgres)('two instances on one PostgreSQL', () => {
  let scratch: ScratchDatabase;
  let a: Listening;
  let b: Listening;
  beforeAll(async () => {
    scratch = await createScratchDatabase();
    const rateLimits = {
      signInPerIp: { max: 1000, windowSeconds: 600 },
      signInPerEmail: { max: 4, windowSeconds: 600 },
      signUpPerIp: { max: 1000, windowSeconds: 600 },
      signUpPerEmail: { max: 1000, windowSeconds: 600 },
    };
    a = await instance(scratch.url, { rateLimits });
    b = await instance(scratch.url, { rateLimits });
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await scratch?.drop();
  });

  test('a session made on one instance works on the other', async () => {
    const alice = await signUp(a.app);
    const onB = await call(b, 'GET', '/api/auth/get-session', alice.cookie);
    expect(onB.json).toMatchObject({ user: { email: alice.email } });
    expect((await call(b, 'GET', '/api/clients', alice.cookie)).status).toBe(200);
  });

  test('sign-out on one instance revokes the session on both and closes its sockets on the other within a second', async () => {
    const alice = await signUp(a.app);
    const tabOnB = await openTab(b.port, alice.cookie);
    const started = Date.now();
    expect((await call(a, 'POST', '/api/auth/sign-out', alice.cookie, {})).status).toBe(200);
    expect(await tabOnB.closed).toBe(4401);
    expect(Date.now() - started).toBeLessThan(1_000);
    expect((await call(b, 'GET', '/api/clients', alice.cookie)).status).toBe(401);
  });

  test('a rate limit is not escaped by alternating instances', async () => {
    const { email } = await signUp(a.app);
    const statuses: number[] = [];
    for (const target of [a, b, a, b, a, b]) {
      const answer = await call(target, 'POST', '/api/auth/sign-in/email', undefined, {
        email,
        password: 'not the password!',
      });
      statuses.push(answer.status);
    }
    expect(statuses).toEqual([401, 401, 401, 401, 429, 429]);
  });

  test("changes made on one instance reach the operator's sockets on the other, and nobody else's", async () => {
    const alice = await signUp(a.app);
    const bob = await signUp(a.app);
    const aliceOnB = await openTab(b.port, alice.cookie);
    const bobOnB = await openTab(b.port, bob.cookie);
    const created = await call(
      a,
      'POST',
      '/api/clients',
      alice.cookie,
      clientFields({ fname: 'Crossing' }),
    );
    const client = created.json as Client;
    expect(await aliceOnB.next()).toEqual({ type: 'client.created', client });
    const edited = await call(a, 'PATCH', `/api/clients/${client.id}`, alice.cookie, {
      version: 1,
      fname: 'Crossed',
    });
    expect(await aliceOnB.next()).toEqual({ type: 'client.updated', client: edited.json });
    await call(a, 'DELETE', `/api/clients/${client.id}`, alice.cookie);
    expect(await aliceOnB.next()).toEqual({ type: 'client.deleted', id: client.id });
    const settings = {
      allowRegistrations: true,
      disableBalanceOnAdd: false,
      disableBalanceOnEdit: true,
    };
    expect((await call(a, 'PUT', '/api/settings', a.admin.cookie, settings)).status).toBe(200);
    const everyone = { type: 'settings.updated', settings };
    expect(await aliceOnB.next()).toEqual(everyone);
    // Bob's socket saw the settings, which are everyone's, and nothing of Alice's.
    expect(await bobOnB.next()).toEqual(everyone);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(bobOnB.received).toEqual([everyone]);
    aliceOnB.socket.close();
    bobOnB.socket.close();
  });

  test("a member's change on one instance reaches the book's other members on the other; a removed member's tab there closes", async () => {
    const owner = await signUp(a.app);
    const staff = await joinBookAs(a.app, owner.cookie, 'staff');
    const stranger = await signUp(a.app);
    const ownerOnA = await openTab(a.port, owner.cookie);
    const staffOnB = await openTab(b.port, staff.cookie);
    const strangerOnA = await openTab(a.port, stranger.cookie);
    const client = (
      await call(a, 'POST', '/api/clients', owner.cookie, clientFields({ fname: 'Shared' }))
    ).json as Client;
    expect(await ownerOnA.next()).toEqual({ type: 'client.created', client });
    expect(await staffOnB.next()).toEqual({ type: 'client.created', client });
    const paid = await call(b, 'POST', `/api/clients/${client.id}/entries`, staff.cookie, {
      kind: 'payment',
      amount: '20',
    });
    expect(paid.status).toBe(201);
    expect(await ownerOnA.next()).toMatchObject({
      type: 'entry.created',
      client: { id: client.id },
    });
    expect(await staffOnB.next()).toMatchObject({ type: 'entry.created' });
    const removed = await call(a, 'DELETE', `/api/book/members/${staff.userId}`, owner.cookie);
    expect(removed.status).toBe(204);
    expect(await staffOnB.closed).toBe(BOOK_ACCESS_CHANGED_CLOSE_CODE);
    expect(await ownerOnA.next()).toEqual({ type: 'members.updated' });
    // Nothing of the book reached the stranger.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(strangerOnA.received).toEqual([]);
    ownerOnA.socket.close();
    strangerOnA.socket.close();
  });

  test('an event exists only if its write committed', async () => {
    const alice = await signUp(a.app);
    const tab = await openTab(b.port, alice.cookie);
    const message = (fname: string) => ({
      kind: 'event' as const,
      ownerId: alice.userId,
      event: { type: 'client.deleted' as const, id: fname },
    });
    await expect(
      a.database.write(async (_trx, write) => {
        await a.bus.publish(message('rolled-back'), write);
        throw new Error('the write fails after publishing');
      }),
    ).rejects.toThrow('the write fails after publishing');
    await a.database.write((_trx, write) => a.bus.publish(message('committed'), write));
    expect(await tab.next()).toEqual({ type: 'client.deleted', id: 'committed' });
    expect(tab.received).toHaveLength(1);
    tab.socket.close();
  });

  test('a message too large for a NOTIFY arrives whole, by reference', async () => {
    const alice = await signUp(a.app);
    const tab = await openTab(b.port, alice.cookie);
    const id = `big-${'x'.repeat(9_000)}`;
    await a.database.write((_trx, write) =>
      a.bus.publish(
        { kind: 'event', ownerId: alice.userId, event: { type: 'client.deleted', id } },
        write,
      ),
    );
    expect(await tab.next()).toEqual({ type: 'client.deleted', id });
    tab.socket.close();
  });

  test('a lost LISTEN connection comes back by itself and the sockets are told to resync', async () => {
    const alice = await signUp(a.app);
    const tab = await openTab(b.port, alice.cookie);
    const admin = new pg.Client({ connectionString: scratch.url });
    await admin.connect();
    // Ends both instances' listening connections; B must notice and come back.
    const killed = await admin.query(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
       WHERE application_name = $1 AND datname = current_database()`,
      [LISTENER_NAME],
    );
    await admin.end();
    expect(killed.rowCount).toBe(2);
    expect(await tab.next(5_000)).toEqual({ type: 'resync' });
    const created = await call(
      a,
      'POST',
      '/api/clients',
      alice.cookie,
      clientFields({ fname: 'Afterwards' }),
    );
    expect(await tab.next(5_000)).toEqual({ type: 'client.created', client: created.json });
    tab.socket.close();
  });
});

const missingTools = clusterToolsMissing();
if (onPostgres && missingTools) {
  if (inCi) throw new Error(`The PostgreSQL outage tests cannot run under CI: ${missingTools}`);
  console.warn(`Skipping the PostgreSQL outage tests: ${missingTools}`);
}

describe.runIf(onPostgres && !missingTools)('when PostgreSQL goes away and comes back', () => {
  let cluster: TestCluster;
  let app: Listening;
  beforeAll(async () => {
    cluster = createTestCluster();
    const admin = new pg.Client({ connectionString: cluster.url() });
    await admin.connect();
    await admin.query('CREATE DATABASE panel');
    await admin.end();
    app = await instance(cluster.url('panel'));
  }, 60_000);
  afterAll(async () => {
    await app?.close();
    cluster?.drop();
  });

  async function waitUntilHealthy(timeoutMs = 20_000): Promise<void> {
    const until = Date.now() + timeoutMs;
    while (Date.now() < until) {
      if ((await call(app, 'GET', '/api/health')).status === 200) return;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    throw new Error('the app did not recover');
  }

  test('calls answer 503 within seconds while it is down, and everything recovers without a restart', async () => {
    const alice = await signUp(app.app);
    const tab = await openTab(app.port, alice.cookie);
    cluster.stop();
    try {
      for (const [method, path, body] of [
        ['GET', '/api/clients', undefined],
        ['POST', '/api/clients', clientFields({ fname: 'Down' })],
        ['GET', '/api/settings', undefined],
      ] as const) {
        const answer = await call(app, method, path, alice.cookie, body);
        expect(answer.status, `${method} ${path}`).toBe(503);
        expect(answer.json).toEqual({
          message: 'The database is unavailable, try again shortly',
          code: 'database-unavailable',
        });
        expect(answer.ms, `${method} ${path}`).toBeLessThan(5_000);
      }
      const signIn = await call(app, 'POST', '/api/auth/sign-in/email', undefined, {
        email: alice.email,
        password: GOOD_PASSWORD,
      });
      expect(signIn.status).toBe(503);
      const health = await call(app, 'GET', '/api/health');
      expect(health.status).toBe(503);
      expect(health.json).toEqual({ status: 'unavailable', db: 'postgres' });
    } finally {
      cluster.start();
    }
    await waitUntilHealthy();
    expect(await tab.next(10_000)).toEqual({ type: 'resync' });
    const created = await call(
      app,
      'POST',
      '/api/clients',
      alice.cookie,
      clientFields({ fname: 'Back' }),
    );
    expect(created.status).toBe(201);
    expect(await tab.next()).toEqual({ type: 'client.created', client: created.json });
    const again = await fetch(`http://127.0.0.1:${app.port}/api/auth/sign-in/email`, {
      method: 'POST',
      headers: { origin: TEST_ORIGIN, 'content-type': 'application/json' },
      body: JSON.stringify({ email: alice.email, password: GOOD_PASSWORD }),
    });
    expect(again.status).toBe(200);
    tab.socket.close();
  }, 60_000);

  test('no acknowledged write is lost across a restart, and nothing unacknowledged is half there', async () => {
    const owner = await signUp(app.app, uniqueEmail('restart'));
    const unlocked = {
      allowRegistrations: true,
      disableBalanceOnAdd: false,
      disableBalanceOnEdit: true,
    };
    expect((await call(app, 'PUT', '/api/settings', app.admin.cookie, unlocked)).status).toBe(200);
    const acknowledged: string[] = [];
    let stop = false;
    const writer = async (worker: number) => {
      for (let i = 0; !stop; i += 1) {
        const fname = `W${worker}n${i}`;
        try {
          const answer = await call(
            app,
            'POST',
            '/api/clients',
            owner.cookie,
            clientFields({ fname, balance: '1.01' }),
          );
          if (answer.status === 201) acknowledged.push(fname);
          else await new Promise((resolve) => setTimeout(resolve, 50));
        } catch {
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
      }
    };
    // Counted writes, not a time: on a busy machine a second may hold few of them.
    const acknowledgedReach = async (count: number) => {
      while (acknowledged.length < count) await new Promise((resolve) => setTimeout(resolve, 50));
    };
    const writers = [1, 2, 3, 4].map(writer);
    await acknowledgedReach(10);
    cluster.restart();
    await waitUntilHealthy();
    // Writes acknowledged after the restart, as well as those before it.
    await acknowledgedReach(acknowledged.length + 10);
    stop = true;
    await Promise.all(writers);
    const stored = new Set<string>();
    let total = 0;
    for (let offset = 0; ; offset += 500) {
      const page = (await call(app, 'GET', `/api/clients?limit=500&offset=${offset}`, owner.cookie))
        .json as { items: Client[]; total: number; totalOwed: string };
      total = page.total;
      for (const client of page.items) stored.add(client.fname);
      if (page.items.length < 500) {
        // The running total matches what is stored: no write is half there.
        expect(page.totalOwed).toBe(formatAmount(BigInt(stored.size) * 101n));
        break;
      }
    }
    expect(stored.size).toBe(total);
    for (const fname of acknowledged) expect(stored.has(fname), fname).toBe(true);
  }, 60_000);
});
