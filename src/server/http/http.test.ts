import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { Agent as HttpAgent, get as httpGet } from 'node:http';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Writable } from 'node:stream';
import { brotliCompressSync, gunzipSync } from 'node:zlib';
import type { RouteOptions } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import WebSocket from 'ws';
import type { Config } from '../config.ts';
import {
  capturedLog,
  clientFields,
  GOOD_PASSWORD,
  post,
  signUp,
  startTestApp,
  TEST_ORIGIN,
  type TestApp,
  type TestConfigOverrides,
  uniqueEmail,
} from '../test-support.ts';
import { TOO_MANY_CONNECTIONS_MESSAGE } from './connection-limit.ts';

let t: TestApp;
const routes: RouteOptions[] = [];
beforeAll(async () => {
  const webDistDir = path.join(mkdtempSync(path.join(tmpdir(), 'client-panel-web-')), 'web');
  mkdirSync(path.join(webDistDir, 'assets'), { recursive: true });
  writeFileSync(path.join(webDistDir, 'index.html'), '<!doctype html><title>Client Panel</title>');
  writeFileSync(path.join(webDistDir, 'assets', 'app-123.js'), 'console.log(1)');
  // A built file with its precompressed copy, as scripts/compress-build.mjs writes it.
  writeFileSync(path.join(webDistDir, 'assets', 'big-456.js'), 'x'.repeat(5000));
  writeFileSync(
    path.join(webDistDir, 'assets', 'big-456.js.br'),
    brotliCompressSync('x'.repeat(5000)),
  );
  t = await startTestApp({ webDistDir }, { onRoute: (route) => routes.push(route) });
});
afterAll(async () => {
  await t.close();
});

/** A real listening app with its own limits, for what only real sockets show. */
async function listening(
  http: Partial<Config['http']>,
  overrides: TestConfigOverrides = {},
  logStream?: Writable,
) {
  const defaults = {
    idleTimeoutMs: 10_000,
    headersTimeoutMs: 10_000,
    requestTimeoutMs: 60_000,
    maxConnectionsPerAddress: 0,
  };
  const limited = await startTestApp(
    { ...overrides, http: { ...defaults, ...http } },
    logStream ? { logStream } : {},
  );
  await limited.app.listen({ port: 0, host: '127.0.0.1' });
  const address = limited.app.server.address();
  if (!address || typeof address === 'string') throw new Error('not listening');
  return { ...limited, port: address.port };
}

function openSocket(port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => resolve(socket));
    socket.once('error', reject);
  });
}

/** Sends raw HTTP/1.1 text and returns everything the server answered. */
async function rawRequest(port: number, text: string): Promise<string> {
  const socket = await openSocket(port);
  return new Promise((resolve) => {
    let answer = '';
    socket.on('data', (chunk) => {
      answer += String(chunk);
    });
    socket.on('close', () => resolve(answer));
    socket.write(`${text.replace(/\r\n\r\n/, '\r\nConnection: close\r\n\r\n')}`);
  });
}

/** Writes raw HTTP/1.1 text on an open socket and returns what came back until it closed. */
function readUntilClosed(socket: Socket, text: string): Promise<string> {
  return new Promise((resolve) => {
    if (socket.destroyed) return resolve('');
    const chunks: Buffer[] = [];
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', () => {});
    socket.on('close', () => resolve(Buffer.concat(chunks).toString('latin1')));
    socket.write(text);
  });
}

/** A GET through a keep-alive agent; resolves with its status once the answer is read. */
function agentGet(port: number, path: string, agent: HttpAgent): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = httpGet({ host: '127.0.0.1', port, path, agent }, (response) => {
      response.resume();
      response.on('end', () => resolve(response.statusCode ?? 0));
    });
    request.on('error', reject);
  });
}

function closedWithin(socket: Socket, ms: number): Promise<number> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`still open after ${ms} ms`)), ms);
    socket.once('close', () => {
      clearTimeout(timer);
      resolve(Date.now() - started);
    });
  });
}

describe('health', () => {
  test('reports ok and the database kind after a real query', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'ok', db: t.database.dialect });
  });

  test('answers 503 when the database does not answer', async () => {
    const broken = await startTestApp();
    try {
      await broken.database.close();
      const response = await broken.app.inject({ method: 'GET', url: '/api/health' });
      expect(response.statusCode).toBe(503);
      expect(response.json()).toEqual({ status: 'unavailable', db: broken.database.dialect });
    } finally {
      await broken.app.close();
    }
  });
});

describe('app integrity', () => {
  test('a state-changing request from another origin is refused with 403', async () => {
    const { cookie } = await signUp(t.app);
    const requests = [
      {
        method: 'PUT' as const,
        url: '/api/settings',
        payload: {
          allowRegistrations: false,
          disableBalanceOnAdd: true,
          disableBalanceOnEdit: true,
        },
      },
      {
        method: 'POST' as const,
        url: '/api/auth/sign-up/email',
        payload: { email: uniqueEmail(), password: GOOD_PASSWORD },
      },
      { method: 'POST' as const, url: '/api/auth/sign-out', payload: {} },
    ];
    for (const request of requests) {
      const response = await t.app.inject({
        ...request,
        headers: { cookie, origin: 'https://evil.example' },
      });
      expect(response.statusCode, request.url).toBe(403);
      expect(response.json().message).toBe('Requests from another site are refused');
    }
    const settings = await t.app.inject({ method: 'GET', url: '/api/settings' });
    expect(settings.json().allowRegistrations).toBe(true);
    const session = await t.app.inject({
      method: 'GET',
      url: '/api/auth/get-session',
      headers: { cookie },
    });
    expect(session.json()).not.toBeNull();
  });

  test('a state-changing request with no Origin but a Referer of another site is refused with 403', async () => {
    const { cookie } = await signUp(t.app);
    const foreign = [
      'https://evil.example/page',
      // A prefix of ours is not ours: origins are compared whole.
      `${TEST_ORIGIN}.evil.example/`,
      `${TEST_ORIGIN}0/`,
      `${TEST_ORIGIN}@evil.example/`,
      `${TEST_ORIGIN.replace('http:', 'https:')}/`,
      'http://localhost:4000/',
      'null',
      'not a url',
      '/relative/path',
      'file:///etc/passwd',
      '',
    ];
    for (const referer of foreign) {
      for (const request of [
        {
          method: 'POST' as const,
          url: '/api/clients',
          payload: clientFields({ fname: 'Forged' }),
        },
        { method: 'POST' as const, url: '/api/auth/sign-out', payload: {} },
      ]) {
        const response = await t.app.inject({ ...request, headers: { cookie, referer } });
        expect(response.statusCode, `${request.url} with Referer "${referer}"`).toBe(403);
        expect(response.json().message).toBe('Requests from another site are refused');
      }
    }
    const clients = await t.app.inject({ method: 'GET', url: '/api/clients', headers: { cookie } });
    expect(clients.json().items).toEqual([]);
    const session = await t.app.inject({
      method: 'GET',
      url: '/api/auth/get-session',
      headers: { cookie },
    });
    expect(session.json()).not.toBeNull();
  });

  test("with no Origin, a Referer of the panel's own origin, or none at all, is accepted", async () => {
    const { cookie } = await signUp(t.app);
    const referers = [
      ...t.config.acceptedOrigins.map((origin) => `${origin}/dashboard?q=1#x`),
      TEST_ORIGIN,
      undefined,
    ];
    for (const [index, referer] of referers.entries()) {
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/clients',
        headers: { cookie, ...(referer === undefined ? {} : { referer }) },
        payload: clientFields({ fname: `Own${index}` }),
      });
      expect(response.statusCode, String(referer)).toBe(201);
    }
    // An Origin of ours decides; a Referer beside it is not read.
    const both = await t.app.inject({
      method: 'POST',
      url: '/api/auth/sign-out',
      headers: { cookie, origin: TEST_ORIGIN, referer: 'https://evil.example/' },
      payload: {},
    });
    expect(both.statusCode).toBe(200);
  });

  test('the same request from the public origin or loopback is accepted', async () => {
    const { cookie } = t.admin;
    for (const origin of t.config.acceptedOrigins) {
      const response = await t.app.inject({
        method: 'PUT',
        url: '/api/settings',
        headers: { cookie, origin },
        payload: {
          allowRegistrations: true,
          disableBalanceOnAdd: true,
          disableBalanceOnEdit: true,
        },
      });
      expect(response.statusCode, origin).toBe(200);
    }
  });

  test('a malformed Host header is answered 400, never 500, over a real connection', async () => {
    const app = await listening({});
    try {
      for (const host of ['bad host', '[', '', 'example.com:70000', 'a/b', 'exa mple.com:80']) {
        for (const path of ['/api/auth/get-session', '/api/clients', '/api/health']) {
          const answer = await rawRequest(
            app.port,
            `GET ${path} HTTP/1.1\r\nHost: ${host}\r\n\r\n`,
          );
          expect(answer, `${path} with Host "${host}"`).toMatch(/^HTTP\/1\.1 400 /);
        }
        const signIn = await rawRequest(
          app.port,
          `POST /api/auth/sign-in/email HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}`,
        );
        expect(signIn, `sign-in with Host "${host}"`).toMatch(/^HTTP\/1\.1 400 /);
      }
    } finally {
      await app.close();
    }
  });

  test("a request with two Host headers is refused in the API's shape (RFC 9112: 400)", async () => {
    const app = await listening({});
    try {
      const answer = await rawRequest(
        app.port,
        'GET /api/health HTTP/1.1\r\nHost: localhost\r\nHost: evil.example\r\n\r\n',
      );
      expect(answer).toMatch(/^HTTP\/1\.1 400 /);
      expect(answer).toContain('"code":"bad-host"');
    } finally {
      await app.close();
    }
  });

  test("an HTTP/1.1 request with no Host header is refused in the API's shape; HTTP/1.0 needs none", async () => {
    const app = await listening({});
    try {
      const answer = await rawRequest(app.port, 'GET /api/health HTTP/1.1\r\n\r\n');
      expect(answer).toMatch(/^HTTP\/1\.1 400 /);
      expect(answer).toContain('"code":"bad-host"');
      const old = await rawRequest(app.port, 'GET /api/health HTTP/1.0\r\n\r\n');
      expect(old).toMatch(/^HTTP\/1\.1 200 /);
    } finally {
      await app.close();
    }
  });

  test.each(['localhost:3000', '127.0.0.1', '[::1]:8080', 'panel.example.com', 'my_host.local'])(
    'a well-formed Host header ("%s") is accepted',
    async (host) => {
      const response = await t.app.inject({
        method: 'GET',
        url: '/api/auth/get-session',
        headers: { host },
      });
      expect(response.statusCode).toBe(200);
    },
  );

  test('a path parameter past its length is refused with 414 without repeating the path', async () => {
    const response = await t.app.inject({ method: 'GET', url: `/api/clients/${'x'.repeat(3000)}` });
    expect(response.statusCode).toBe(414);
    expect(response.json()).toEqual({ message: 'The address is too long', code: 'uri-too-long' });
  });

  test('a request body over 64 KiB is refused with 413', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/auth/sign-in/email',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ email: 'a@example.com', password: 'x'.repeat(70 * 1024) }),
    });
    expect(response.statusCode).toBe(413);
    expect(response.json()).toEqual({
      message: 'Request body is too large (at most 64 KiB)',
      code: 'body-too-large',
      values: { limit: '64 KiB' },
    });
  });

  test('malformed JSON gets a clear 400', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/auth/sign-in/email',
      headers: { 'content-type': 'application/json' },
      payload: '{"email":',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe('The request body is not valid JSON');
  });

  test('security headers: CSP with no inline script and no framing', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/dashboard' });
    const csp = String(response.headers['content-security-policy']);
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('unsafe-inline');
    expect(csp).toContain("frame-ancestors 'none'");
    expect(response.headers['x-frame-options']).toBe('DENY');
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['referrer-policy']).toBe('no-referrer');
  });

  test('every kind of answer carries the whole set of security headers, with these values', async () => {
    const { cookie } = await signUp(t.app);
    const answers = {
      list: { method: 'GET', url: '/api/clients?limit=100', headers: { cookie } },
      'signed out': { method: 'GET', url: '/api/clients' },
      'bad query': { method: 'GET', url: '/api/clients?limit=abc', headers: { cookie } },
      'no route': { method: 'GET', url: '/api/nope' },
      page: { method: 'GET', url: '/dashboard' },
      'built file': { method: 'GET', url: '/assets/app-123.js' },
      'no page': { method: 'GET', url: '/some/unknown/page' },
    } as const;
    for (const [name, request] of Object.entries(answers)) {
      const response = await t.app.inject(request);
      expect(securityHeadersOf(response.headers), name).toEqual(SECURITY_HEADERS);
    }
  });

  test('over HTTPS the security headers add HSTS and upgrade-insecure-requests', async () => {
    const secure = await startTestApp({ secureCookies: true });
    try {
      const response = await secure.app.inject({
        method: 'GET',
        url: '/api/clients?limit=100',
        headers: { cookie: secure.admin.cookie },
      });
      expect(response.statusCode).toBe(200);
      expect(securityHeadersOf(response.headers)).toEqual({
        ...SECURITY_HEADERS,
        'content-security-policy': `${SECURITY_HEADERS['content-security-policy']};upgrade-insecure-requests`,
        'strict-transport-security': 'max-age=31536000; includeSubDomains',
      });
    } finally {
      await secure.close();
    }
  });
});

/** What every answer of the app carries (helmet's set with our CSP), over plain HTTP. */
const SECURITY_HEADERS = {
  'content-security-policy':
    "default-src 'self';script-src 'self';style-src 'self';img-src 'self' data:;font-src 'self';" +
    "connect-src 'self';object-src 'none';base-uri 'self';form-action 'self';frame-ancestors 'none'",
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
  'origin-agent-cluster': '?1',
  'referrer-policy': 'no-referrer',
  'x-content-type-options': 'nosniff',
  'x-dns-prefetch-control': 'off',
  'x-download-options': 'noopen',
  'x-frame-options': 'DENY',
  'x-permitted-cross-domain-policies': 'none',
  'x-xss-protection': '0',
};

/** Headers any answer has for its own sake (its body, caching, connection): the rest is security's. */
const ANSWER_HEADERS = new Set([
  'accept-ranges',
  'cache-control',
  'connection',
  'content-encoding',
  'content-length',
  'content-type',
  'date',
  'etag',
  'keep-alive',
  'last-modified',
  'link',
  'set-cookie',
  'vary',
]);

function securityHeadersOf(headers: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !ANSWER_HEADERS.has(name)));
}

describe('connections', () => {
  test('a body that stalls after its headers is cut off within seconds; a live socket stays', async () => {
    const app = await listening({
      idleTimeoutMs: 500,
      headersTimeoutMs: 500,
      requestTimeoutMs: 1500,
    });
    try {
      const { cookie } = await signUp(app.app);
      const live = new WebSocket(`ws://127.0.0.1:${app.port}/api/live`, {
        headers: { cookie },
        origin: TEST_ORIGIN,
      });
      await new Promise((resolve) => live.once('open', resolve));
      const stalled = await openSocket(app.port);
      stalled.write(
        'POST /api/auth/sign-in/email HTTP/1.1\r\nHost: localhost\r\n' +
          'Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{"email":',
      );
      expect(await closedWithin(stalled, 3000)).toBeLessThan(3000);
      // A body trickled a byte at a time never looks idle; the request timeout ends it.
      const trickled = await openSocket(app.port);
      trickled.write(
        'POST /api/auth/sign-in/email HTTP/1.1\r\nHost: localhost\r\n' +
          'Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n',
      );
      const drip = setInterval(() => trickled.writable && trickled.write(' '), 200);
      try {
        expect(await closedWithin(trickled, 5000)).toBeLessThan(5000);
      } finally {
        clearInterval(drip);
      }
      // The upgraded live socket outlived both limits.
      expect(live.readyState).toBe(WebSocket.OPEN);
      live.close();
    } finally {
      await app.close();
    }
  });

  test('past the cap, a request is answered 503 with Retry-After and its connection closed; keep-alive connections under it are untouched', async () => {
    const { lines, stream } = capturedLog();
    const app = await listening({ maxConnectionsPerAddress: 3 }, { logLevel: 'info' }, stream);
    const agent = new HttpAgent({ keepAlive: true, maxSockets: 3 });
    try {
      const { cookie } = app.admin;
      let connections = 0;
      app.app.server.on('connection', () => {
        connections += 1;
      });
      // Three keep-alive connections, held by the agent between requests: the address's cap.
      const viaAgent = () =>
        Promise.all([1, 2, 3].map(() => agentGet(app.port, '/api/health', agent)));
      expect(await viaAgent()).toEqual([200, 200, 200]);
      expect(connections).toBe(3);

      // A fourth connection's request, signed in and well-formed, would add a client.
      const post = JSON.stringify(clientFields({ fname: 'OverCap' }));
      const over = await openSocket(app.port);
      const closed = closedWithin(over, 3000);
      const answer = await readUntilClosed(
        over,
        `POST /api/clients HTTP/1.1\r\nHost: localhost\r\nOrigin: ${TEST_ORIGIN}\r\n` +
          `Cookie: ${cookie}\r\nContent-Type: application/json\r\n` +
          `Content-Length: ${Buffer.byteLength(post)}\r\n\r\n${post}`,
      );
      await closed;
      const [head = '', body = ''] = answer.split('\r\n\r\n');
      expect(head).toMatch(/^HTTP\/1\.1 503 /);
      expect(head.toLowerCase()).toContain('retry-after: 10');
      expect(head.toLowerCase()).toContain('connection: close');
      expect(JSON.parse(body)).toEqual({
        message: TOO_MANY_CONNECTIONS_MESSAGE,
        code: 'too-many-connections',
      });
      const clients = await app.app.inject({
        method: 'GET',
        url: '/api/clients',
        headers: { cookie },
      });
      expect(clients.json().items).toEqual([]);

      // Its live-socket upgrade gets the same answer, not a reset.
      const upgrade = await openSocket(app.port);
      const upgradeAnswer = await readUntilClosed(
        upgrade,
        `GET /api/live HTTP/1.1\r\nHost: localhost\r\nOrigin: ${TEST_ORIGIN}\r\n` +
          `Cookie: ${cookie}\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n` +
          'Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n',
      );
      expect(upgradeAnswer).toMatch(/^HTTP\/1\.1 503 /);
      expect(upgradeAnswer).toContain(TOO_MANY_CONNECTIONS_MESSAGE);

      // The keep-alive connections carry on, on the same sockets.
      expect(await viaAgent()).toEqual([200, 200, 200]);
      expect(connections).toBe(5);

      // A connection that closes frees its place.
      agent.destroy();
      await new Promise((resolve) => setTimeout(resolve, 200));
      const health = await fetch(`http://127.0.0.1:${app.port}/api/health`);
      expect(health.status).toBe(200);

      // Two refusals, one warning, and no line per refused request.
      const entries = lines.map((line) => JSON.parse(line));
      const warnings = entries.filter((entry) => String(entry.msg).includes('connection cap'));
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toMatchObject({ level: 40, address: '127.0.0.1' });
      expect(entries.filter((entry) => entry.res?.statusCode === 503)).toEqual([]);
    } finally {
      agent.destroy();
      await app.close();
    }
  });

  test('a refusal past the cap is logged at most once a minute per address', async () => {
    const { lines, stream } = capturedLog();
    const app = await listening({ maxConnectionsPerAddress: 1 }, { logLevel: 'info' }, stream);
    const held = await openSocket(app.port);
    const warnings = () => lines.filter((line) => line.includes('connection cap')).length;
    const refuse = async () => {
      const answer = await readUntilClosed(
        await openSocket(app.port),
        'GET /api/health HTTP/1.1\r\nHost: localhost\r\n\r\n',
      );
      expect(answer).toMatch(/^HTTP\/1\.1 503 /);
    };
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      await refuse();
      vi.setSystemTime(Date.now() + 59_000);
      await refuse();
      expect(warnings()).toBe(1);
      vi.setSystemTime(Date.now() + 2_000);
      await refuse();
      expect(warnings()).toBe(2);
    } finally {
      vi.useRealTimers();
      held.destroy();
      await app.close();
    }
  });

  test('over-cap connections cannot pile up: past as many again new ones are reset, and silent ones are cut by the timeouts', async () => {
    const app = await listening({ maxConnectionsPerAddress: 2, idleTimeoutMs: 3000 });
    const sockets: Socket[] = [];
    const open = async (count: number) => {
      const opened = await Promise.all(Array.from({ length: count }, () => openSocket(app.port)));
      sockets.push(...opened);
      return opened;
    };
    try {
      await open(2);
      // 64 waiting for their answer at once: the most one address may have past a cap of 2.
      const waiting = await open(64);
      const [reset] = await open(1);
      expect(await closedWithin(reset as Socket, 2000)).toBeLessThan(2000);
      // Those waiting still get their answer.
      const answer = await readUntilClosed(
        waiting[0] as Socket,
        'GET /api/health HTTP/1.1\r\nHost: localhost\r\n\r\n',
      );
      expect(answer).toMatch(/^HTTP\/1\.1 503 /);
      // One that never sends a request is closed like any idle connection.
      expect(await closedWithin(waiting[1] as Socket, 10_000)).toBeLessThan(10_000);
    } finally {
      for (const socket of sockets) socket.destroy();
      await app.close();
    }
  });
});

describe('answers are checked on the way out', () => {
  test('every API route declares the shape of its answers', () => {
    const apiRoutes = routes.filter(
      (route) =>
        route.url.startsWith('/api/') && route.url !== '/api/live' && route.method !== 'HEAD',
    );
    expect(apiRoutes.length).toBeGreaterThan(10);
    for (const route of apiRoutes) {
      const response = (route.schema as { response?: Record<string, unknown> } | undefined)
        ?.response;
      expect(response, `${String(route.method)} ${route.url}`).toBeDefined();
      expect(Object.keys(response ?? {}).some((code) => code.startsWith('2'))).toBe(true);
    }
  });
});

describe('routing', () => {
  test('an unknown /api path is a JSON 404', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/nope' });
    expect(response.statusCode).toBe(404);
    expect(response.headers['content-type']).toMatch(/application\/json/);
    expect(response.json().message).toMatch(/No API route/);
  });

  test('client routes fall back to index.html so a reload works', async () => {
    for (const url of ['/', '/dashboard', '/client/abc', '/client/edit/abc', '/settings']) {
      const response = await t.app.inject({ method: 'GET', url });
      expect(response.statusCode, url).toBe(200);
      expect(response.headers['content-type']).toMatch(/text\/html/);
      expect(response.body).toContain('<title>Client Panel</title>');
    }
  });

  test('a path that is no page of the app answers 404 with the app, which says so', async () => {
    for (const url of ['/some/unknown/page', '/client', '/client/a/b', '/dashboardx']) {
      const response = await t.app.inject({ method: 'GET', url });
      expect(response.statusCode, url).toBe(404);
      expect(response.body).toContain('<title>Client Panel</title>');
    }
  });

  test('built files are sent precompressed to browsers that accept it', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: '/assets/big-456.js',
      headers: { 'accept-encoding': 'br, gzip' },
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-encoding']).toBe('br');
    expect(response.rawPayload).toEqual(brotliCompressSync('x'.repeat(5000)));
  });

  test('API answers are compressed for browsers that accept it', async () => {
    const { cookie } = await signUp(t.app);
    for (let i = 0; i < 20; i += 1) {
      await post(t.app, '/api/clients', cookie, {
        fname: `Zip${i}`,
        lname: 'Client',
        email: 'z@example.com',
        phone: '9000000000',
        balance: '0',
      });
    }
    const plain = await t.app.inject({ method: 'GET', url: '/api/clients', headers: { cookie } });
    const zipped = await t.app.inject({
      method: 'GET',
      url: '/api/clients',
      headers: { cookie, 'accept-encoding': 'gzip' },
    });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(zipped.rawPayload.length).toBeLessThan(plain.rawPayload.length / 3);
    expect(JSON.parse(gunzipSync(zipped.rawPayload).toString())).toEqual(plain.json());
  });

  test('built assets are served with a long cache lifetime', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/assets/app-123.js' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toContain('immutable');
  });
});

describe('logs', () => {
  test('a failed request is logged with what it carried, its password and cookie redacted', async () => {
    const { lines, stream } = capturedLog();
    const logged = await startTestApp({ logLevel: 'info' }, { logStream: stream });
    const password = 'a very secret passphrase 42';
    const { cookie } = await signUp(logged.app, uniqueEmail(), password);
    // Without the table the sign-in limiter writes to, sign-in fails on the server: the
    // failure is logged with the request's headers and body, which hold both secrets.
    await sql`DROP TABLE rate_limits`.execute(logged.database.db);
    const failed = await logged.app.inject({
      method: 'POST',
      url: '/api/auth/sign-in/email',
      headers: { cookie, authorization: 'Bearer secret-token-1' },
      payload: { email: 'x@example.com', password },
    });
    // An invited sign-up carries the invitation's token; a second factor, its code.
    const invited = await logged.app.inject({
      method: 'POST',
      url: '/api/auth/sign-up/email',
      payload: {
        email: 'y@example.com',
        password,
        inviteToken: 'invite-secret-77',
        code: '905113',
      },
    });
    await logged.close();
    expect(failed.statusCode).toBe(500);
    expect(invited.statusCode).toBe(500);
    const failure = lines.map((line) => JSON.parse(line)).find((entry) => entry.request?.body);
    expect(failure?.request.headers.cookie).toBe('[redacted]');
    expect(failure?.request.headers.authorization).toBe('[redacted]');
    expect(failure?.request.body.password).toBe('[redacted]');
    expect(failure?.request.body.email).toBe('x@example.com');
    const log = lines.join('');
    expect(log).not.toContain(password);
    expect(log).not.toContain(cookie.split('=')[1] ?? 'never');
    expect(log).not.toContain('secret-token-1');
    expect(log).not.toContain('invite-secret-77');
    expect(log).not.toContain('905113');
  });

  test("better-auth's own lines are JSON lines of the app's log, not coloured text on the standard error", async () => {
    const { lines, stream } = capturedLog();
    const logged = await startTestApp({ logLevel: 'info' }, { logStream: stream });
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      // Sign-ups with one e-mail at once: better-auth logs a loser's failed insert. A loser
      // that reads the winner's row first is refused without one, so the race is run until a
      // loser inserts (on a busy machine the first tries may not overlap).
      const authLines: { level: number; msg: string }[] = [];
      for (let attempt = 0; attempt < 10 && authLines.length === 0; attempt += 1) {
        const email = uniqueEmail('race');
        const answers = await Promise.all(
          [1, 2, 3].map(() =>
            logged.app.inject({
              method: 'POST',
              url: '/api/auth/sign-up/email',
              payload: { email, password: 'a long passphrase 2026' },
            }),
          ),
        );
        expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 422, 422]);
        authLines.push(
          ...lines
            .map((line) => JSON.parse(line))
            .filter((entry) => String(entry.msg).startsWith('better-auth: ')),
        );
      }
      expect(authLines.length).toBeGreaterThan(0);
      expect(authLines[0]).toMatchObject({
        level: 50,
        msg: expect.stringContaining('Failed to create user'),
      });
      expect(consoleError).not.toHaveBeenCalled();
    } finally {
      consoleError.mockRestore();
      await logged.close();
    }
  });

  test("an administrator's acts on other accounts are logged with who did them, and no link", async () => {
    const { lines, stream } = capturedLog();
    const logged = await startTestApp({ logLevel: 'info' }, { logStream: stream });
    const operator = await signUp(logged.app);
    const as = { cookie: logged.admin.cookie };
    const acts = [
      { method: 'POST', url: `/api/operators/${operator.userId}/reset-link` },
      { method: 'PUT', url: `/api/operators/${operator.userId}/role`, payload: { role: 'admin' } },
      { method: 'POST', url: `/api/operators/${operator.userId}/sign-out` },
      { method: 'POST', url: `/api/operators/${operator.userId}/deactivate` },
      { method: 'POST', url: `/api/operators/${operator.userId}/reactivate` },
    ] as const;
    const answers = [];
    for (const act of acts) answers.push(await logged.app.inject({ ...act, headers: as }));
    await logged.close();
    expect(answers.map((answer) => answer.statusCode)).toEqual([200, 200, 200, 200, 200]);
    const entries = lines
      .map((line) => JSON.parse(line))
      .filter((entry) => String(entry.msg).startsWith('an administrator'));
    expect(entries.map((entry) => [entry.by, entry.operatorId])).toEqual(
      acts.map(() => [logged.admin.userId, operator.userId]),
    );
    const link = String(answers[0]?.json().url);
    expect(lines.join('')).not.toContain(link.split('#token=')[1] ?? 'never');
  });
});
