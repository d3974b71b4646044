import http from 'node:http';
import type { AddressInfo } from 'node:net';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { apiRefusalSchema } from '../../shared/api-error.ts';
import { capturedLog, startTestApp, TEST_ORIGIN, type TestApp } from '../test-support.ts';
import { HEADERS_TOO_LARGE_MESSAGE, MALFORMED_REQUEST_MESSAGE } from './client-errors.ts';

// Requests Node's parser refuses never reach Fastify (nor app.inject): these go over a socket.

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

/** Writes raw bytes and reads everything until the server closes the connection. */
function exchange(bytes: string, to = port): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(to, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => resolve(Buffer.concat(chunks).toString('latin1')));
    socket.end(bytes);
  });
}

function split(answer: string): { head: string; body: string } {
  const end = answer.indexOf('\r\n\r\n');
  return { head: answer.slice(0, end).toLowerCase(), body: answer.slice(end + 4) };
}

const HUGE_HEADER = `x-big: ${'a'.repeat(20_000)}\r\n`;

describe('requests the HTTP parser refuses', () => {
  test('headers over the limit get a 431 in the error shape, and the connection closes', async () => {
    const { head, body } = split(
      await exchange(`GET /api/health HTTP/1.1\r\nhost: localhost\r\n${HUGE_HEADER}\r\n`),
    );
    expect(head).toMatch(/^http\/1\.1 431 /);
    expect(head).toContain('connection: close');
    expect(head).toContain('content-type: application/json');
    expect(apiRefusalSchema.parse(JSON.parse(body))).toEqual({
      message: HEADERS_TOO_LARGE_MESSAGE,
      code: 'headers-too-large',
    });
  });

  test('a HEAD with headers over the limit gets the answer without a body', async () => {
    const answer = await exchange(
      `HEAD /api/health HTTP/1.1\r\nhost: localhost\r\n${HUGE_HEADER}\r\n`,
    );
    expect(split(answer).head).toMatch(/^http\/1\.1 431 /);
    expect(split(answer).body).toBe('');
  });

  test('bytes that are not HTTP get a 400 in the error shape', async () => {
    const { head, body } = split(await exchange('NOT HTTP AT ALL\r\n\r\n'));
    expect(head).toMatch(/^http\/1\.1 400 /);
    expect(JSON.parse(body)).toEqual({
      message: MALFORMED_REQUEST_MESSAGE,
      code: 'malformed-request',
    });
  });

  test("a keep-alive client's next request after a refused one still gets its answer", async () => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const get = (headers: Record<string, string>) =>
      new Promise<number>((resolve, reject) => {
        http
          .get({ host: '127.0.0.1', port, path: '/api/health', headers, agent }, (response) => {
            response.resume();
            response.on('end', () => resolve(response.statusCode ?? 0));
          })
          .on('error', reject);
      });
    try {
      expect(await get({ 'x-big': 'a'.repeat(20_000) })).toBe(431);
      // Without `Connection: close` the agent reused the closing socket: ECONNRESET.
      expect(await get({})).toBe(200);
    } finally {
      agent.destroy();
    }
  });
});

describe('a client that stops sending its body', () => {
  test('is logged as a request cut short, not as the database being unavailable', async () => {
    const { lines, stream } = capturedLog();
    const logged = await startTestApp({ logLevel: 'info' }, { logStream: stream });
    try {
      await logged.app.listen({ port: 0, host: '127.0.0.1' });
      const loggedPort = (logged.app.server.address() as AddressInfo).port;
      // Fifty bytes promised, three sent, then the client's side of the connection closed.
      await exchange(
        'POST /api/auth/sign-in/email HTTP/1.1\r\nhost: localhost\r\ncontent-type: application/json\r\ncontent-length: 50\r\n\r\n{"e',
        loggedPort,
      );
      await expect
        .poll(() => lines.map((line) => JSON.parse(line).msg))
        .toContain('the client closed the connection before its request arrived whole');
      expect(lines.join('')).not.toContain('the database is unavailable');
    } finally {
      await logged.close();
    }
  });
});

describe('a body over its limit, still being sent', () => {
  const SIGN_IN = '/api/auth/sign-in/email';

  const SIZE = 32 * 2 ** 20;
  const CHUNK = 'x'.repeat(2 ** 16);
  const framings = {
    'with its length': {
      header: `content-length: ${SIZE}`,
      chunk: CHUNK,
      last: '',
    },
    'in chunks': {
      header: 'transfer-encoding: chunked',
      chunk: `${CHUNK.length.toString(16)}\r\n${CHUNK}\r\n`,
      last: '0\r\n\r\n',
    },
  };

  test.each(Object.entries(framings))(
    'a client still writing it (%s) gets the 413, then the connection closes without a reset',
    async (_, framing) => {
      const socket = net.connect(port, '127.0.0.1');
      const chunks: Buffer[] = [];
      socket.on('data', (chunk) => chunks.push(chunk));
      const closed = new Promise<string>((resolve, reject) => {
        socket.on('error', reject);
        socket.on('close', () => resolve(Buffer.concat(chunks).toString('latin1')));
      });
      socket.write(
        `POST ${SIGN_IN} HTTP/1.1\r\nhost: localhost\r\norigin: ${TEST_ORIGIN}\r\n` +
          `content-type: application/json\r\n${framing.header}\r\n\r\n`,
      );
      for (let sent = 0; sent < SIZE; sent += CHUNK.length) socket.write(framing.chunk);
      socket.end(framing.last);
      const { head, body } = split(await closed);
      expect(head).toMatch(/^http\/1\.1 413 /);
      expect(head).toContain('connection: close');
      expect(JSON.parse(body)).toMatchObject({ code: 'body-too-large' });
    },
  );
});
