import type { IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import WebSocket from 'ws';
import type { LiveEvent } from '../../shared/live-events.ts';
import { ConfigError, type LiveLimits, loadConfig } from '../config.ts';
import {
  signUp,
  startTestApp,
  TEST_ORIGIN,
  type TestApp,
  type TestConfigOverrides,
  uniqueEmail,
} from '../test-support.ts';
import { type BusMessage, createInProcessBus, type EventBus } from './event-bus.ts';
import { TOO_MANY_SOCKETS_MESSAGE, TOO_SLOW_CLOSE_CODE } from './live-routes.ts';

interface Running {
  t: TestApp;
  bus: EventBus;
  url: string;
}

/**
 * One app for the tests of a describe block: on a port, with the given live limits and a bus
 * the tests publish on.
 */
function appWith(limits: Partial<LiveLimits>, overrides: TestConfigOverrides = {}): () => Running {
  let running: Running | undefined;
  beforeAll(async () => {
    const bus = createInProcessBus();
    const t = await startTestApp({ ...overrides, live: limits }, { bus });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.server.address() as AddressInfo;
    running = { t, bus, url: `ws://127.0.0.1:${port}/api/live` };
  });
  afterAll(async () => {
    await running?.t.close();
  });
  return () => {
    if (!running) throw new Error('the app has not started');
    return running;
  };
}

interface Tab {
  socket: WebSocket;
  /** Every message, as text, in the order it arrived; binary frames are recorded as such. */
  texts: string[];
  closed: Promise<number>;
}

class Refused extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {
    super(`HTTP ${status}`);
  }
}

function open(url: string, cookie: string, headers: Record<string, string> = {}): Promise<Tab> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, { headers: { ...headers, cookie }, origin: TEST_ORIGIN });
    const texts: string[] = [];
    socket.on('message', (data, isBinary) => texts.push(isBinary ? '(binary)' : String(data)));
    const closed = new Promise<number>((done) => socket.once('close', (code) => done(code)));
    socket.once('open', () => resolve({ socket, texts, closed }));
    socket.once('unexpected-response', (_request, response: IncomingMessage) => {
      let body = '';
      response.on('data', (chunk) => {
        body += chunk;
      });
      response.on('end', () => reject(new Refused(response.statusCode ?? 0, JSON.parse(body))));
    });
    socket.once('error', reject);
  });
}

function openMany(url: string, cookie: string, count: number): Promise<Tab[]> {
  return Promise.all(Array.from({ length: count }, () => open(url, cookie)));
}

async function until(check: () => boolean, what: string, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

const deleted = (ownerId: string | null, id: string): BusMessage => ({
  kind: 'event',
  ownerId,
  event: { type: 'client.deleted', id },
});

const idsOf = (tab: Tab) => tab.texts.map((text) => (JSON.parse(text) as { id: string }).id);

describe('live socket caps per operator', () => {
  const app = appWith({ maxSocketsPerOperator: 3, maxSocketsPerAddress: 0 });

  test('an operator past their cap is refused with 429 and the error shape; closing one makes room', async () => {
    const { t, url } = app();
    const alice = await signUp(t.app);
    const bob = await signUp(t.app);
    const tabs = await openMany(url, alice.cookie, 3);
    const refusal = await open(url, alice.cookie).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(Refused);
    expect(refusal).toMatchObject({ status: 429, body: { message: TOO_MANY_SOCKETS_MESSAGE } });
    // Another operator is not affected.
    (await open(url, bob.cookie)).socket.close();
    tabs[0]?.socket.close();
    await tabs[0]?.closed;
    const reopened = await retryOpen(url, alice.cookie);
    expect(reopened.socket.readyState).toBe(WebSocket.OPEN);
    for (const tab of [...tabs, reopened]) tab.socket.close();
  });

  test('upgrades at the same moment never hold more sockets than the cap', async () => {
    const { t, url } = app();
    const alice = await signUp(t.app);
    const attempts = await Promise.allSettled(
      Array.from({ length: 12 }, () => open(url, alice.cookie)),
    );
    const opened = attempts.flatMap((a) => (a.status === 'fulfilled' ? [a.value] : []));
    const refused = attempts.flatMap((a) => (a.status === 'rejected' ? [a.reason] : []));
    expect(opened).toHaveLength(3);
    expect(refused).toHaveLength(9);
    for (const reason of refused) expect(reason).toMatchObject({ status: 429 });
    for (const tab of opened) tab.socket.close();
  });
});

describe('live socket caps per address', () => {
  const app = appWith({ maxSocketsPerOperator: 0, maxSocketsPerAddress: 3 });

  test('an address past its cap is refused with 429 before its session is even read', async () => {
    const { t, url } = app();
    const alice = await signUp(t.app);
    const bob = await signUp(t.app);
    // Refused upgrades hold no place once their connection is gone.
    for (let i = 0; i < 5; i += 1) {
      await expect(open(url, '')).rejects.toMatchObject({ status: 401 });
    }
    const tabs = [...(await openMany(url, alice.cookie, 2)), await open(url, bob.cookie)];
    await expect(open(url, bob.cookie)).rejects.toMatchObject({ status: 429 });
    // Without a session it would be a 401: the cap is checked first, at no database cost.
    await expect(open(url, '')).rejects.toMatchObject({
      status: 429,
      body: { message: TOO_MANY_SOCKETS_MESSAGE },
    });
    for (const tab of tabs) tab.socket.close();
  });

  describe('behind a proxy', () => {
    const proxied = appWith(
      { maxSocketsPerOperator: 0, maxSocketsPerAddress: 2 },
      { trustProxy: 1 },
    );

    test('an IPv6 host counts as its /64: new addresses in it do not get past the cap', async () => {
      const { t, url } = proxied();
      const alice = await signUp(t.app);
      const from = (ip: string) => ({ 'x-forwarded-for': ip });
      const tabs = [
        await open(url, alice.cookie, from('2001:db8:0:1::a')),
        await open(url, alice.cookie, from('2001:db8:0:1::b')),
      ];
      await expect(open(url, alice.cookie, from('2001:db8:0:1::c'))).rejects.toMatchObject({
        status: 429,
      });
      // Another /64 is another place.
      const elsewhere = await open(url, alice.cookie, from('2001:db8:0:2::a'));
      for (const tab of [...tabs, elsewhere]) tab.socket.close();
    });
  });

  test('LIVE_MAX_SOCKETS_PER_OPERATOR and LIVE_MAX_SOCKETS_PER_ADDRESS: defaults, chosen values, 0, and refusals', () => {
    const env = { DATABASE_URL: ':memory:', AUTH_SECRET: 'x'.repeat(40) };
    expect(loadConfig(env).live).toMatchObject({
      maxSocketsPerOperator: 50,
      maxSocketsPerAddress: 200,
    });
    const chosen = loadConfig({
      ...env,
      LIVE_MAX_SOCKETS_PER_OPERATOR: '7',
      LIVE_MAX_SOCKETS_PER_ADDRESS: '0',
    });
    expect(chosen.live).toMatchObject({ maxSocketsPerOperator: 7, maxSocketsPerAddress: 0 });
    for (const name of ['LIVE_MAX_SOCKETS_PER_OPERATOR', 'LIVE_MAX_SOCKETS_PER_ADDRESS']) {
      expect(() => loadConfig({ ...env, [name]: '-1' })).toThrow(ConfigError);
      expect(() => loadConfig({ ...env, [name]: 'lots' })).toThrow(new RegExp(`^${name}: `));
    }
  });
});

/** Opens a socket, retrying while the server has not yet seen an earlier one close. */
async function retryOpen(url: string, cookie: string): Promise<Tab> {
  for (let attempt = 0; ; attempt += 1) {
    try {
      return await open(url, cookie);
    } catch (error) {
      if (!(error instanceof Refused) || attempt > 50) throw error;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
}

describe('live delivery', () => {
  // Slices of 2 sockets: a fan-out to a few hundred takes many turns of the event loop.
  const app = appWith({
    maxSocketsPerOperator: 0,
    maxSocketsPerAddress: 0,
    socketsPerSlice: 2,
    maxBufferedBytes: 256 * 1024,
  });

  test("a later event never overtakes an earlier one on a socket, across operators' events", async () => {
    const { t, bus, url } = app();
    const alice = await signUp(t.app);
    const bob = await signUp(t.app);
    // Bob's sockets come first, so an event to everyone reaches Alice's last.
    const bobTabs = await openMany(url, bob.cookie, 40);
    const aliceTabs = await openMany(url, alice.cookie, 10);
    const expectedForAlice: string[] = [];
    const expectedForBob: string[] = [];
    for (let i = 0; i < 20; i += 1) {
      const everyone = i % 2 === 0;
      const id = `${everyone ? 'all' : 'alice'}-${i}`;
      await bus.publish(deleted(everyone ? null : alice.userId, id));
      expectedForAlice.push(id);
      if (everyone) expectedForBob.push(id);
    }
    const all = [...aliceTabs, ...bobTabs];
    await until(
      () => all.every((tab) => tab.texts.length === (aliceTabs.includes(tab) ? 20 : 10)),
      'every socket has its events',
    );
    for (const tab of aliceTabs) expect(idsOf(tab)).toEqual(expectedForAlice);
    for (const tab of bobTabs) expect(idsOf(tab)).toEqual(expectedForBob);
    for (const tab of all) tab.socket.close();
  });

  test('a fan-out to many sockets lets other requests through before it ends', async () => {
    const sockets = 300;
    const events = 5;
    const { t, bus, url } = app();
    const alice = await signUp(t.app);
    const tabs = await openMany(url, alice.cookie, sockets);
    const base = url.replace('ws://', 'http://').replace('/api/live', '');
    const health = fetch(`${base}/api/health`).then(async (response) => {
      await response.text();
      return tabs.filter((tab) => tab.texts.length === events).length;
    });
    for (let i = 0; i < events; i += 1) await bus.publish(deleted(alice.userId, `burst-${i}`));
    const doneWhenHealthAnswered = await health;
    await until(() => tabs.every((tab) => tab.texts.length === events), 'every socket has all');
    expect(doneWhenHealthAnswered).toBeLessThan(sockets);
    for (const tab of tabs)
      expect(idsOf(tab)).toEqual(['burst-0', 'burst-1', 'burst-2', 'burst-3', 'burst-4']);
    for (const tab of tabs) tab.socket.close();
  });

  test('events of every size arrive whole, as text', async () => {
    const { t, bus, url } = app();
    const alice = await signUp(t.app);
    const tab = await open(url, alice.cookie);
    // Lengths on both sides of the frame header's three forms (RFC 6455 §5.2).
    const sizes = [0, 100, 125, 126, 1_000, 65_535, 65_536, 200_000];
    const ids = sizes.map((size, i) => `${i}-${'é'.repeat(size)}`);
    for (const id of ids) await bus.publish(deleted(alice.userId, id));
    await bus.publish({ kind: 'event', ownerId: null, event: { type: 'resync' } as LiveEvent });
    await until(() => tab.texts.length === ids.length + 1, 'every event arrived');
    expect(tab.texts.slice(0, -1).map((text) => JSON.parse(text))).toEqual(
      ids.map((id) => ({ type: 'client.deleted', id })),
    );
    expect(tab.texts.at(-1)).toBe('{"type":"resync"}');
    tab.socket.close();
  });

  test('a socket that stops reading is closed with 4408 while the others keep every event', async () => {
    const { t, bus, url } = app();
    const alice = await signUp(t.app, uniqueEmail('slow'));
    const healthy = await open(url, alice.cookie);
    const slow = await open(url, alice.cookie);
    // The client stops reading its TCP socket, as a stuck browser would.
    const tcp = (slow.socket as unknown as { _socket: Duplex })._socket;
    tcp.pause();
    const events = 400;
    const big = 'x'.repeat(64 * 1024);
    for (let i = 0; i < events; i += 1) {
      await bus.publish(deleted(alice.userId, `${i}-${big}`));
      // Let the sender write between events, as between requests.
      await new Promise((resolve) => setImmediate(resolve));
    }
    await until(() => healthy.texts.length === events, 'the healthy socket has everything');
    tcp.resume();
    expect(await slow.closed).toBe(TOO_SLOW_CLOSE_CODE);
    expect(slow.texts.length).toBeLessThan(events);
    // What it did get came in order, with nothing skipped in between.
    expect(idsOf(slow).map((id) => Number(id.split('-')[0]))).toEqual(
      Array.from({ length: slow.texts.length }, (_, i) => i),
    );
    healthy.socket.close();
  }, 20_000);
});
