import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, expect, test } from 'vitest';
import { freePort } from '../../bench/server-process.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'client-panel-boot-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// Starting from source under load can take a while; a timed-out test must not leave its
// server running (it would hold its port and data for later runs).
const BOOT_TEST_MS = 60_000;
const children = new Set<ChildProcess>();
afterEach(() => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  children.clear();
});

function boot(env: Record<string, string>): { child: ChildProcess; output: () => string } {
  let output = '';
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/index.ts'], {
    env: { ...process.env, LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  child.stdout?.on('data', (chunk) => {
    output += String(chunk);
  });
  child.stderr?.on('data', (chunk) => {
    output += String(chunk);
  });
  return { child, output: () => output };
}

function exitCode(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => child.once('exit', (code) => resolve(code)));
}

async function waitUntilHealthy(url: string, child: ChildProcess): Promise<void> {
  for (let i = 0; i < 450; i += 1) {
    if (child.exitCode !== null) throw new Error('server exited while starting');
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('server did not become healthy');
}

test(
  'the server creates its data directory, starts twice on one file, and stops cleanly on SIGTERM',
  async () => {
    const dataDir = path.join(dir, 'nested', 'data');
    const port = await freePort();
    const env = { PORT: String(port), DATABASE_URL: path.join(dataDir, 'panel.db') };
    for (let run = 0; run < 2; run += 1) {
      const { child, output } = boot(env);
      await waitUntilHealthy(`http://127.0.0.1:${port}/api/health`, child);
      // Each request's line reaches standard output (written as the answer goes, decision 0034).
      expect((await fetch(`http://127.0.0.1:${port}/api/clients?run=${run}`)).status).toBe(401);
      await expect
        .poll(() =>
          output()
            .split('\n')
            .filter((line) => line.includes(`clients?run=${run}`)),
        )
        .toEqual([expect.stringMatching(/"statusCode":401.*"msg":"request completed"/)]);
      const exited = exitCode(child);
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
      expect(output()).toContain('shutting down');
    }
    expect(existsSync(path.join(dataDir, 'panel.db'))).toBe(true);
    expect(statSync(path.join(dataDir, '.auth-secret')).mode & 0o777).toBe(0o600);
  },
  BOOT_TEST_MS,
);

test(
  'a bad setting stops the server with a message naming the variable',
  async () => {
    const { child, output } = boot({ PORT: 'eighty', DATABASE_URL: path.join(dir, 'x.db') });
    expect(await exitCode(child)).toBe(1);
    expect(output()).toContain('PORT: must be a whole number');
  },
  BOOT_TEST_MS,
);

test(
  'a BREACHED_PASSWORDS_FILE that cannot be read stops the server at start-up, naming the variable',
  async () => {
    const { child, output } = boot({
      PORT: String(await freePort()),
      DATABASE_URL: path.join(dir, 'breach.db'),
      BREACHED_PASSWORDS_FILE: path.join(dir, 'not-downloaded.txt'),
    });
    expect(await exitCode(child)).toBe(1);
    expect(output()).toContain('Configuration error: BREACHED_PASSWORDS_FILE: does not exist');
  },
  BOOT_TEST_MS,
);

test(
  'in production, an API client without an Origin header can sign up, change its data and sign out; a foreign page cannot',
  async () => {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const { child } = boot({
      PORT: String(port),
      // As `npm start` runs it: better-auth relaxes its own checks when it sees a test runner.
      NODE_ENV: 'production',
      TEST: '',
      VITEST: '',
      PUBLIC_URL: base,
      DATABASE_URL: path.join(dir, 'production.db'),
    });
    try {
      await waitUntilHealthy(`${base}/api/health`, child);
      const json = { 'content-type': 'application/json' };
      const signUp = await fetch(`${base}/api/auth/sign-up/email`, {
        method: 'POST',
        headers: json,
        body: JSON.stringify({
          email: 'curl-user@example.com',
          password: 'a long passphrase 2026',
        }),
      });
      expect(signUp.status).toBe(200);
      const cookie = (signUp.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
      const foreign = await fetch(`${base}/api/auth/sign-out`, {
        method: 'POST',
        headers: { ...json, cookie, origin: 'https://evil.example' },
        body: '{}',
      });
      expect(foreign.status).toBe(403);
      const signOut = await fetch(`${base}/api/auth/sign-out`, {
        method: 'POST',
        headers: { ...json, cookie },
        body: '{}',
      });
      expect(signOut.status).toBe(200);
      const after = await fetch(`${base}/api/clients`, { headers: { cookie } });
      expect(after.status).toBe(401);
    } finally {
      const exited = exitCode(child);
      child.kill('SIGTERM');
      await exited;
    }
  },
  BOOT_TEST_MS,
);
