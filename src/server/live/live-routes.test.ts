import type { AddressInfo } from 'node:net';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import WebSocket from 'ws';
import type { LiveEvent } from '../../shared/live-events.ts';
import {
  capturedLog,
  closeCode,
  GOOD_PASSWORD,
  liveUrlOf,
  openLiveTab,
  post,
  sessionCookie,
  setPanelSettings,
  signUp,
  startTestApp,
  TEST_ORIGIN,
  type TestApp,
} from '../test-support.ts';

let t: TestApp;
let baseUrl: string;

beforeAll(async () => {
  t = await startTestApp({}, { livePingIntervalMs: 200 });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = t.app.server.address() as AddressInfo;
  baseUrl = `ws://127.0.0.1:${port}/api/live`;
});
afterAll(async () => {
  await t.close();
});

interface OpenSocket {
  socket: WebSocket;
  events: LiveEvent[];
  next(): Promise<LiveEvent>;
}

function connect(
  cookie: string,
  options: { origin?: string | null; referer?: string; autoPong?: boolean; url?: string } = {},
): Promise<OpenSocket> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = {
      cookie,
      ...(options.referer === undefined ? {} : { referer: options.referer }),
    };
    const socket = new WebSocket(options.url ?? baseUrl, {
      headers,
      ...(options.origin === null ? {} : { origin: options.origin ?? TEST_ORIGIN }),
      autoPong: options.autoPong ?? true,
    });
    const events: LiveEvent[] = [];
    const waiters: ((event: LiveEvent) => void)[] = [];
    socket.on('message', (data) => {
      const event = JSON.parse(String(data)) as LiveEvent;
      const waiter = waiters.shift();
      if (waiter) waiter(event);
      else events.push(event);
    });
    socket.once('open', () =>
      resolve({
        socket,
        events,
        next: () =>
          new Promise<LiveEvent>((done, fail) => {
            const queued = events.shift();
            if (queued) return done(queued);
            const timer = setTimeout(() => fail(new Error('no live event within 2 s')), 2000);
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

const fields = {
  fname: 'Live',
  lname: 'Client',
  email: 'live@example.com',
  phone: '9999999999',
  balance: '0',
};

describe('live channel', () => {
  test("events reach all of the owner's sockets and none of another operator's", async () => {
    const alice = await signUp(t.app);
    const bob = await signUp(t.app);
    const aliceTab1 = await connect(alice.cookie);
    const aliceTab2 = await connect(alice.cookie);
    const bobTab = await connect(bob.cookie);

    const created = await post(t.app, '/api/clients', alice.cookie, fields);
    const client = created.json();
    for (const tab of [aliceTab1, aliceTab2]) {
      expect(await tab.next()).toEqual({ type: 'client.created', client });
    }
    const updated = await t.app.inject({
      method: 'PATCH',
      url: `/api/clients/${client.id}`,
      headers: { cookie: alice.cookie },
      payload: { version: 1, balance: '12.00' },
    });
    expect(await aliceTab1.next()).toEqual({ type: 'client.updated', client: updated.json() });
    await t.app.inject({
      method: 'DELETE',
      url: `/api/clients/${client.id}`,
      headers: { cookie: alice.cookie },
    });
    expect(await aliceTab1.next()).toEqual({ type: 'client.deleted', id: client.id });

    // Bob's own change arrives, and it is the first thing his socket ever saw.
    await post(t.app, '/api/clients', bob.cookie, fields);
    const bobFirst = await bobTab.next();
    expect(bobFirst.type).toBe('client.created');
    expect(bobFirst.type === 'client.created' && bobFirst.client.fname).toBe('Live');
    expect(bobTab.events).toEqual([]);

    for (const tab of [aliceTab1, aliceTab2, bobTab]) tab.socket.close();
  });

  test('a refused change sends no event', async () => {
    const alice = await signUp(t.app);
    const tab = await connect(alice.cookie);
    await post(t.app, '/api/clients', alice.cookie, { ...fields, phone: '1' });
    await post(t.app, '/api/clients', alice.cookie, fields);
    const event = await tab.next();
    expect(event.type).toBe('client.created');
    expect(tab.events).toEqual([]);
    tab.socket.close();
  });

  test('settings changes reach every connected operator', async () => {
    const bob = await signUp(t.app);
    const bobTab = await connect(bob.cookie);
    const settings = {
      allowRegistrations: true,
      disableBalanceOnAdd: false,
      disableBalanceOnEdit: true,
    };
    await setPanelSettings(t, settings);
    expect(await bobTab.next()).toEqual({ type: 'settings.updated', settings });
    bobTab.socket.close();
  });

  test('an upgrade without a session is refused with 401', async () => {
    await expect(connect('')).rejects.toThrow('HTTP 401');
  });

  test('an upgrade from another origin is refused with 403', async () => {
    const alice = await signUp(t.app);
    await expect(connect(alice.cookie, { origin: 'https://evil.example' })).rejects.toThrow(
      'HTTP 403',
    );
  });

  test('a socket that stops answering pings is dropped', async () => {
    const alice = await signUp(t.app);
    const tab = await connect(alice.cookie, { autoPong: false });
    const closed = new Promise<number>((resolve) =>
      tab.socket.once('close', (code) => resolve(code)),
    );
    expect(await closed).toBe(1006);
  });

  test('sockets whose session ended where no event said so close at the next heartbeat, all of them', async () => {
    const alice = await signUp(t.app);
    const bob = await signUp(t.app);
    const aliceTabs = [await connect(alice.cookie), await connect(alice.cookie)];
    const bobTab = await connect(bob.cookie);
    const closed = aliceTabs.map(
      (tab) =>
        new Promise<{ code: number; at: number }>((resolve) =>
          tab.socket.once('close', (code) => resolve({ code, at: Date.now() })),
        ),
    );
    // Revoked behind the app's back: no sign-out, no bus message.
    await sql`DELETE FROM session WHERE "userId" = ${alice.userId}`.execute(t.database.db);
    const [first, second] = await Promise.all(closed);
    expect([first?.code, second?.code]).toEqual([4401, 4401]);
    // One session read decides for both: they close at the same heartbeat (200 ms apart).
    expect(Math.abs((first?.at ?? 0) - (second?.at ?? 0))).toBeLessThan(100);
    expect(bobTab.socket.readyState).toBe(WebSocket.OPEN);
    bobTab.socket.close();
  });

  test("a role changed where no message said so closes the member's sockets at the next heartbeat", async () => {
    const alice = await signUp(t.app);
    const tab = await connect(alice.cookie);
    const closed = new Promise<number>((resolve) => tab.socket.once('close', resolve));
    // Behind the app's back (as when another instance's message is lost): no bus message.
    await sql`UPDATE book_members SET role = 'manager' WHERE user_id = ${alice.userId}`.execute(
      t.database.db,
    );
    const timedOut = new Promise<number>((resolve) => setTimeout(() => resolve(-1), 5000));
    expect(await Promise.race([closed, timedOut])).toBe(4403);
  });

  test('once the administrator requires two-factor sign-in, the sockets of an operator without it close at the next heartbeat', async () => {
    const alice = await signUp(t.app);
    const bob = await signUp(t.app);
    const aliceTab = await connect(alice.cookie);
    const bobTab = await connect(bob.cookie);
    // Bob has it on; Alice does not.
    await sql`UPDATE "user" SET "twoFactorEnabled" = ${t.database.dialect === 'sqlite' ? 1 : true}
      WHERE id = ${bob.userId}`.execute(t.database.db);
    const closed = new Promise<number>((resolve) =>
      aliceTab.socket.once('close', (code) => resolve(code)),
    );
    await sql`UPDATE settings SET require_two_factor = 1`.execute(t.database.db);
    try {
      // Bounded, so that the policy is always switched back for the tests after this one.
      const timedOut = new Promise<number>((resolve) => setTimeout(() => resolve(-1), 5000));
      expect(await Promise.race([closed, timedOut])).toBe(4401);
      // A heartbeat later Bob's is still open.
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(bobTab.socket.readyState).toBe(WebSocket.OPEN);
    } finally {
      await sql`UPDATE settings SET require_two_factor = 0`.execute(t.database.db);
      bobTab.socket.close();
    }
  });

  test('sockets of an ended session in later heartbeat slices close at the same heartbeat', async () => {
    // One socket a slice: the session's read is answered before the next sockets' turn.
    const sliced = await startTestApp(
      { live: { ...t.config.live, socketsPerSlice: 1 } },
      { livePingIntervalMs: 200 },
    );
    try {
      await sliced.app.listen({ port: 0, host: '127.0.0.1' });
      const alice = await signUp(sliced.app);
      const url = liveUrlOf(sliced.app);
      const tabs = [];
      for (let i = 0; i < 4; i += 1) tabs.push(await openLiveTab(url, alice.cookie));
      await sql`DELETE FROM session WHERE "userId" = ${alice.userId}`.execute(sliced.database.db);
      const closedAt = await Promise.all(
        tabs.map(async (tab) => {
          expect(await closeCode(tab, 3000)).toBe(4401);
          return Date.now();
        }),
      );
      // All at one heartbeat, not one more socket at each (200 ms apart).
      expect(Math.max(...closedAt) - Math.min(...closedAt)).toBeLessThan(100);
    } finally {
      await sliced.close();
    }
  });

  test('an upgrade without an Origin (no web page) follows the HTTP rule and is accepted', async () => {
    const alice = await signUp(t.app);
    const tab = await connect(alice.cookie, { origin: null });
    expect(tab.socket.readyState).toBe(WebSocket.OPEN);
    tab.socket.close();
  });

  test("an upgrade without an Origin is refused with 403 when its Referer is another site's, as over HTTP", async () => {
    const alice = await signUp(t.app);
    for (const referer of ['https://evil.example/page', `${TEST_ORIGIN}.evil.example/`, 'null']) {
      await expect(connect(alice.cookie, { origin: null, referer }), referer).rejects.toThrow(
        'HTTP 403',
      );
    }
    const tab = await connect(alice.cookie, { origin: null, referer: `${TEST_ORIGIN}/dashboard` });
    expect(tab.socket.readyState).toBe(WebSocket.OPEN);
    tab.socket.close();
  });
});

test("a frame over 4 KiB closes its socket with 1009, logged as the browser's doing in one line, not as a server error", async () => {
  const { lines, stream } = capturedLog();
  const logged = await startTestApp({ logLevel: 'info' }, { logStream: stream });
  try {
    await logged.app.listen({ port: 0, host: '127.0.0.1' });
    const operator = await signUp(logged.app);
    const tab = await openLiveTab(liveUrlOf(logged.app), operator.cookie, (socket) =>
      socket.send('x'.repeat(5000)),
    );
    expect(await closeCode(tab)).toBe(1009);
    const records = lines.map((line) => JSON.parse(line) as { level: number; code?: string });
    expect(records.filter((record) => record.level >= 50)).toEqual([]);
    expect(records).toContainEqual(
      expect.objectContaining({ level: 30, code: 'WS_ERR_UNSUPPORTED_MESSAGE_LENGTH' }),
    );
  } finally {
    await logged.close();
  }
});

describe('sign-out and the live channel', () => {
  // Heartbeats far apart: only sign-out itself can close the socket within the test.
  let quiet: TestApp;
  let quietUrl: string;
  beforeAll(async () => {
    quiet = await startTestApp({}, { livePingIntervalMs: 600_000 });
    await quiet.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = quiet.app.server.address() as AddressInfo;
    quietUrl = `ws://127.0.0.1:${port}/api/live`;
  });
  afterAll(async () => {
    await quiet.close();
  });

  test("signing out closes that session's sockets at once; the operator's other sessions keep theirs", async () => {
    const alice = await signUp(quiet.app);
    const secondSession = await quiet.app.inject({
      method: 'POST',
      url: '/api/auth/sign-in/email',
      payload: { email: alice.email, password: GOOD_PASSWORD },
    });
    const otherCookie = sessionCookie(secondSession);
    const signedOutTab = await connect(alice.cookie, { url: quietUrl });
    const otherTab = await connect(otherCookie, { url: quietUrl });
    const closed = new Promise<number>((resolve) =>
      signedOutTab.socket.once('close', (code) => resolve(code)),
    );
    const started = Date.now();
    const out = await quiet.app.inject({
      method: 'POST',
      url: '/api/auth/sign-out',
      headers: { cookie: alice.cookie },
      payload: {},
    });
    expect(out.statusCode).toBe(200);
    expect(await closed).toBe(4401);
    expect(Date.now() - started).toBeLessThan(1000);
    // A change right after reaches the other session and nothing reaches the closed one.
    await post(quiet.app, '/api/clients', otherCookie, fields);
    expect((await otherTab.next()).type).toBe('client.created');
    expect(signedOutTab.events).toEqual([]);
    otherTab.socket.close();
  });
});
