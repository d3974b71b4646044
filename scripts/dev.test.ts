import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import WebSocket from 'ws';
import { freePorts, signUpOperator, waitForHealth } from '../bench/server-process.ts';
import { startNpmScript } from './run-npm-script.ts';

// `npm run dev` as the README gives it: the server from source and Vite's dev server, the page
// at Vite's origin, every /api call and the live socket through Vite's proxy.

const dir = mkdtempSync(path.join(tmpdir(), 'client-panel-dev-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function refusesConnections(port: number): Promise<boolean> {
  try {
    await fetch(`http://127.0.0.1:${port}/`);
    return false;
  } catch {
    return true;
  }
}

function nextMessage(socket: WebSocket): Promise<{ type: string; client?: { fname: string } }> {
  return new Promise((resolve, reject) => {
    socket.once('message', (data) => resolve(JSON.parse(String(data))));
    socket.once('error', reject);
  });
}

describe('npm run dev', () => {
  test('one command serves the web app with hot reload, and a sign-up, a new client and its live event go through the dev proxy from the dev origin', async () => {
    const [serverPort, webPort] = await freePorts(2);
    const dev = startNpmScript('dev', [], {
      PORT: String(serverPort),
      DEV_WEB_PORT: String(webPort),
      DATABASE_URL: path.join(dir, 'dev.db'),
      LOG_LEVEL: 'warn',
    });
    let socket: WebSocket | undefined;
    let stopped = { leftBehind: true, output: '' };
    try {
      const web = `http://localhost:${webPort}`;
      // Through the proxy: both are up.
      await waitForHealth(web, 120_000);
      const page = await (await fetch(`${web}/`)).text();
      expect(page).toContain('/@vite/client');

      // What the browser sends from the page: Origin is Vite's.
      const operator = await signUpOperator(web, web, 'dev@example.com');
      socket = new WebSocket(`ws://localhost:${webPort}/api/live`, {
        headers: { cookie: operator.cookie },
        origin: web,
      });
      await new Promise((resolve, reject) => {
        socket?.once('open', resolve);
        socket?.once('error', reject);
      });
      const event = nextMessage(socket);
      const created = await fetch(`${web}/api/clients`, {
        method: 'POST',
        headers: { cookie: operator.cookie, origin: web, 'content-type': 'application/json' },
        body: JSON.stringify({
          fname: 'Asha',
          lname: 'Dev',
          email: 'asha.dev@example.com',
          phone: '9876543210',
          balance: '0',
        }),
      });
      expect(created.status, await created.clone().text()).toBe(201);
      expect(await event).toMatchObject({ type: 'client.created', client: { fname: 'Asha' } });
    } finally {
      socket?.close();
      // Ctrl-C: both stop, and everything they started, by themselves.
      stopped = await dev.stop('SIGINT');
    }
    expect(stopped.leftBehind, stopped.output).toBe(false);
    expect(await refusesConnections(serverPort)).toBe(true);
    expect(await refusesConnections(webPort)).toBe(true);
  }, 180_000);

  test('when Vite cannot start (its port is taken), the server is stopped too and the command fails', async () => {
    const [serverPort, webPort] = await freePorts(2);
    const taken: Server = createServer();
    await new Promise<void>((resolve) => taken.listen(webPort, 'localhost', resolve));
    try {
      const dev = startNpmScript('dev', [], {
        PORT: String(serverPort),
        DEV_WEB_PORT: String(webPort),
        DATABASE_URL: path.join(dir, 'taken.db'),
        LOG_LEVEL: 'warn',
      });
      const run = await Promise.race([
        dev.exited,
        new Promise<null>((resolve) => setTimeout(() => resolve(null), 60_000)),
      ]);
      if (!run) {
        const { output } = await dev.stop('SIGTERM');
        throw new Error(
          `npm run dev still ran a minute after Vite stopped:\n${output.slice(-2000)}`,
        );
      }
      expect(run.code, run.output).not.toBe(0);
      expect(run.output).toMatch(/\[web\].*already in use/i);
      expect(run.output).toMatch(/\[web\] *stopped .*; stopping the rest/);
      // The server (and its file watcher) went with it.
      expect(dev.anyLeft()).toBe(false);
      expect(await refusesConnections(serverPort)).toBe(true);
    } finally {
      taken.close();
    }
  }, 180_000);
});
