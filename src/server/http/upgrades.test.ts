import http from 'node:http';
import type { AddressInfo } from 'node:net';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { apiRefusalSchema } from '../../shared/api-error.ts';
import { startTestApp, TEST_ORIGIN, type TestApp } from '../test-support.ts';

// Upgrade requests leave Node's HTTP parser before Fastify sees them (and app.inject never
// makes one): these go over real sockets.

let t: TestApp;
let port: number;

beforeAll(async () => {
  t = await startTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  port = (t.app.server.address() as AddressInfo).port;
});
afterAll(async () => {
  await t?.close();
});

const UPGRADE = {
  connection: 'Upgrade',
  upgrade: 'websocket',
  'sec-websocket-version': '13',
  'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==',
};

/**
 * Sends raw bytes and reads until the server closes the connection, or until `waitMs` have
 * passed with it still open (then `closed` is false).
 */
function exchange(bytes: string, waitMs = 3000): Promise<{ text: string; closed: boolean }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => {
      socket.destroy();
      resolve({ text: Buffer.concat(chunks).toString('latin1'), closed: false });
    }, waitMs);
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('end', () => {
      clearTimeout(timer);
      resolve({ text: Buffer.concat(chunks).toString('latin1'), closed: true });
    });
    socket.write(bytes);
  });
}

function upgradeRequest(headers: Record<string, string>): string {
  const lines = Object.entries({ ...UPGRADE, ...headers }).map(
    ([name, value]) => `${name}: ${value}`,
  );
  return `GET /api/live HTTP/1.1\r\n${lines.join('\r\n')}\r\n\r\n`;
}

describe('upgrade requests that are refused', () => {
  test("a keep-alive client's next request after a refused upgrade still gets its answer", async () => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const get = (path: string, headers: Record<string, string>) =>
      new Promise<{ status: number; connection: string | undefined }>((resolve, reject) => {
        const request = http.get({ host: '127.0.0.1', port, path, headers, agent }, (response) => {
          response.resume();
          response.on('end', () =>
            resolve({ status: response.statusCode ?? 0, connection: response.headers.connection }),
          );
        });
        request.on('upgrade', () => reject(new Error('upgraded')));
        request.on('error', reject);
      });
    try {
      // No session: refused with 401.
      expect(await get('/api/live', UPGRADE)).toEqual({ status: 401, connection: 'close' });
      // It used to go down the connection the server had just destroyed: ECONNRESET.
      expect((await get('/api/health', {})).status).toBe(200);
    } finally {
      agent.destroy();
    }
  });

  test('an upgrade refused before any live-channel hook ran does not hold its connection open', async () => {
    // The Host check comes first of all, before @fastify/websocket's own hooks.
    const { text, closed } = await exchange(upgradeRequest({ host: 'exa mple' }));
    expect(text).toMatch(/^HTTP\/1\.1 400 /);
    expect(closed).toBe(true);
  });

  test('a malformed WebSocket handshake is refused in the error shape, not HTML', async () => {
    const { text, closed } = await exchange(
      upgradeRequest({
        host: 'localhost',
        origin: TEST_ORIGIN,
        cookie: t.admin.cookie,
        'sec-websocket-key': 'short',
      }),
    );
    const [head = '', body = ''] = text.split('\r\n\r\n');
    expect(head).toMatch(/^HTTP\/1\.1 400 /);
    expect(head.toLowerCase()).toContain('content-type: application/json');
    const refusal = apiRefusalSchema.parse(JSON.parse(body));
    expect(refusal.code).toBe('bad-websocket-request');
    expect(refusal.message).toMatch(/^Not a valid WebSocket request: ./);
    expect(closed).toBe(true);
  });

  test('a valid upgrade still opens the live channel', async () => {
    const { text } = await exchange(
      upgradeRequest({ host: 'localhost', origin: TEST_ORIGIN, cookie: t.admin.cookie }),
      500,
    );
    expect(text).toMatch(/^HTTP\/1\.1 101 /);
  });
});
